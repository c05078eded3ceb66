import { createHash } from 'node:crypto';
import type { Principal } from '../access/principal.js';
import { GRAPHS, PROV, RDF, SCHEMA } from '../ns.js';
import { isAbsoluteIri } from '../records/mapper.js';
import { factory, type Quad } from '../store/nquads.js';

/** The agent a credential acts for, as a record's `attributed_to` names it, and what the record says of it. */
export interface Attribution {
  readonly agent: string;
  /** The description of an agent minted for an identity-provider account, kept with the record. */
  readonly quads: readonly Quad[];
}

/**
 * The agent behind a credential: the deployment it acts as; the registry's own name for the root token and for
 * API tokens (`urn:reg:…`); for an account at an identity provider (a person, or a workload bound to no
 * deployment), an agent of this registry, `{base}/agent/<digest>`, derived from the issuer and the subject so that
 * the same account is the same agent on every record and no account of another issuer can share it.
 */
export function agentOfCredential(baseIri: string, principal: Principal): Attribution {
  if (principal.instance !== null) return { agent: principal.instance, quads: [] };
  if (isAbsoluteIri(principal.subject)) return { agent: principal.subject, quads: [] };
  const digest = createHash('sha256').update(principal.subject).digest('hex').slice(0, 32);
  const agent = `${baseIri}/agent/${digest}`;
  const node = factory.namedNode(agent);
  const graph = factory.namedNode(GRAPHS.local);
  const kind = principal.credential === 'oidc-human' ? PROV('Person') : PROV('SoftwareAgent');
  const quads = [
    factory.quad(node, factory.namedNode(RDF('type')), factory.namedNode(PROV('Agent')), graph),
    factory.quad(node, factory.namedNode(RDF('type')), factory.namedNode(kind), graph),
    factory.quad(
      node,
      factory.namedNode(SCHEMA('name')),
      factory.literal(principal.displayName ?? principal.subject),
      graph,
    ),
    // `<issuer>|<subject>`: which account it is, for an operator reading the graph.
    factory.quad(node, factory.namedNode(SCHEMA('identifier')), factory.literal(principal.subject), graph),
  ];
  return { agent, quads };
}
