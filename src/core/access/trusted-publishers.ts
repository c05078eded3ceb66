import type { JWTPayload } from 'jose';
import type { Core } from '../core.js';
import { RDF, REG } from '../ns.js';
import {
  nodesStating,
  recordsOfNodes,
  recordsStating,
  statesTrue,
  valueOf,
  valuesOf,
} from '../stored/stating.js';
import { mintIri } from '../records/ids.js';
import { INSTANCE } from '../records/specs.js';
import { appendAudit } from '../store/audit.js';
import {
  actOf,
  checkRecord,
  commitRecords,
  refuseViolations,
  type RecordWriteRequest,
} from '../stored/write-path.js';
import {
  fieldOf,
  judgeBinding,
  missSentence,
  nearestMiss,
  type BindingVerdict,
  type PublisherBinding,
} from './publisher-patterns.js';
import { principal, type Principal } from './principal.js';
import { workloadAuditNote, workloadSourceOf } from './workload-source.js';

/** What a token presented beside its claims: who it names and the registry scopes it asks for. */
export interface WorkloadCaller {
  readonly clientId: string;
  readonly tokenScopes: readonly string[];
  /** The scopes of a deployment, `allowed_scopes` or the default. */
  readonly scopesOf: (instance: string) => Promise<readonly string[]>;
  /**
   * False for a request that must write nothing (a dry run): a software binding's deployment that does not exist
   * yet is then not registered, and the token is refused saying so.
   */
  readonly registers?: boolean;
}

/** Where a matching token acts: a deployment that exists, or the deployment of a software keyed by a claim. */
type Target =
  | { readonly kind: 'instance'; readonly instance: string; readonly software: string | null }
  | { readonly kind: 'keyed'; readonly software: string; readonly key: string };

/**
 * Judges a verified workload token of `issuer` against the trusted publishers of live software and deployments
 * that name this issuer. A token matching every claim pattern of one binding acts as its deployment, or, for a
 * software's binding, as the deployment of that software keyed by its `deployment_key` claim, registered on first
 * use. Returns that principal; or, when the issuer has bindings but none (or several deployments) match, the
 * sentence of the refusal; or undefined when no binding names the issuer.
 */
export async function actThroughPublisher(
  core: Core,
  issuer: string,
  claims: JWTPayload,
  caller: WorkloadCaller,
): Promise<Principal | string | undefined> {
  const bindings = await bindingsOf(core, issuer);
  if (bindings.length === 0) return undefined;
  const verdicts = bindings.map((binding) => judgeBinding(binding, claims));
  const matches = verdicts.filter((verdict) => verdict.mismatches.length === 0);
  const nearest = nearestMiss(verdicts);
  const [match, ...others] = matches;
  if (match === undefined) return nearest === undefined ? undefined : missSentence(issuer, nearest);
  const target = targetOf(issuer, match);
  const clash = others.find((other) => targetId(targetOf(issuer, other)) !== targetId(target));
  if (clash !== undefined) {
    return `this workload token of ${issuer} matches trusted publishers that act as different deployments (${describe(match)} and ${describe(clash)}); the registry does not guess, so a curator narrows their claims`;
  }
  const source = workloadSourceOf(issuer, match.binding.iri, match.matched, claims);
  const subject = typeof claims.sub === 'string' && claims.sub !== '' ? claims.sub : caller.clientId;
  const acting = (instance: string | null, software: string | null, scopes: readonly string[]): Principal =>
    principal({
      credential: 'oidc-workload',
      actorKind: 'oidc-workload',
      subject: `${issuer}|${subject}`,
      displayName: subject,
      scopes,
      instance,
      software,
      issuer,
      clientId: caller.clientId,
      workload: source,
    });
  const instance =
    target.kind === 'instance'
      ? target.instance
      : caller.registers === false
        ? await findKeyed(core, target)
        : await keyedDeployment(core, target, match, acting(null, target.software, []));
  if (instance === undefined) {
    const key = target.kind === 'keyed' ? target.key : '';
    return `this workload token acts as the deployment of ${target.software} keyed ${JSON.stringify(key)}, which its first real call registers; a dry run registers nothing, so send one call without dry_run first`;
  }
  const allowed = await caller.scopesOf(instance);
  const scopes =
    caller.tokenScopes.length === 0 ? allowed : caller.tokenScopes.filter((scope) => allowed.includes(scope));
  return acting(instance, target.software, scopes);
}

function targetOf(issuer: string, verdict: BindingVerdict): Target {
  const { binding } = verdict;
  if (binding.ownerKind === 'instance')
    return { kind: 'instance', instance: binding.owner, software: binding.software };
  // A software binding without a deployment_key keys its one deployment by the issuer's host.
  return { kind: 'keyed', software: binding.owner, key: verdict.key ?? hostOf(issuer) };
}

const targetId = (target: Target): string =>
  target.kind === 'instance' ? target.instance : `${target.software}\n${target.key}`;

const describe = (verdict: BindingVerdict): string =>
  `${verdict.binding.owner} ${fieldOf(verdict.binding.iri)}`;

function hostOf(issuer: string): string {
  try {
    return new URL(issuer).host;
  } catch {
    return issuer;
  }
}

/** Trusted publishers of live records naming `issuer`, by owner and position; cached until the next write. */
async function bindingsOf(core: Core, issuer: string): Promise<PublisherBinding[]> {
  const memoKey = `trusted-publishers\n${issuer}`;
  const generation = core.graph.generation;
  const cached = core.memo.get<PublisherBinding[]>(memoKey, generation);
  if (cached !== undefined) return cached;
  const nodes = await nodesStating(core, REG('publisherIssuer'), issuer);
  const owners = await recordsOfNodes(core, nodes, [REG('Software'), REG('Instance')]);
  const byNode = new Map<string, PublisherBinding>();
  for (const { iri: owner, node, about } of owners) {
    const claims = valueOf(about, node, REG('publisherClaims'));
    if (claims === undefined || !valuesOf(about, owner, REG('trustedPublisher')).includes(node)) continue;
    const software = valuesOf(about, owner, RDF('type')).includes(REG('Software'));
    byNode.set(node, {
      iri: node,
      owner,
      ownerKind: software ? 'software' : 'instance',
      software: software ? owner : (valueOf(about, owner, REG('instanceOf')) ?? null),
      issuer,
      claims: claimPatterns(claims),
      deploymentKey: software ? valueOf(about, node, REG('deploymentKeyClaim')) : undefined,
    });
  }
  const position = (iri: string): number => Number(/-(\d+)$/.exec(iri)?.[1] ?? 0);
  const bindings = [...byNode.values()]
    .filter((binding) => binding.claims.length > 0)
    .sort((a, b) => a.owner.localeCompare(b.owner) || position(a.iri) - position(b.iri));
  core.memo.set(memoKey, generation, bindings);
  return bindings;
}

/** The claim patterns of a stored binding; anything but an object of non-empty texts gives none (never matches). */
function claimPatterns(json: string): [string, string][] {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return [];
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  const entries = Object.entries(value as Record<string, unknown>);
  const patterns = entries.filter(
    (entry): entry is [string, string] => entry[0] !== '' && typeof entry[1] === 'string' && entry[1] !== '',
  );
  return patterns.length === entries.length ? patterns : [];
}

/**
 * The live deployment of `target.software` that a trusted publisher registered under `target.key`, registered now
 * (label and instance key from the key) when there is none. Serialised per software and key, so two first calls
 * at once register one deployment.
 */
async function keyedDeployment(
  core: Core,
  target: Extract<Target, { kind: 'keyed' }>,
  verdict: BindingVerdict,
  registrant: Principal,
): Promise<string> {
  const existing = await findKeyed(core, target);
  if (existing !== undefined) return existing;
  return core.locks.run(`trusted-publisher\n${target.software}\n${target.key}`, async () => {
    const again = await findKeyed(core, target);
    if (again !== undefined) return again;
    const act = actOf(registrant);
    const iri = mintIri(core.config.baseIri, INSTANCE.path);
    const request: RecordWriteRequest = {
      spec: INSTANCE,
      iri,
      candidate: {
        label: target.key,
        software: target.software,
        instance_key: target.key,
        registered_by_publisher: true,
        created: act.now,
        modified: act.now,
      },
      action: 'instance.publisher-register',
      act,
    };
    const { quads, results } = await checkRecord(core, request);
    refuseViolations(results);
    const keyClaim = verdict.binding.deploymentKey;
    await commitRecords(
      core,
      [{ request, quads }],
      () =>
        appendAudit(core.db, {
          actor: registrant.subject,
          actorKind: registrant.actorKind,
          action: request.action,
          target: iri,
          detail: `deployment ${JSON.stringify(target.key)} of ${target.software}${keyClaim === undefined ? '' : ` (claim ${keyClaim})`}${workloadAuditNote(registrant)}`,
          at: act.now,
        }),
      false,
    );
    return iri;
  });
}

async function findKeyed(
  core: Core,
  target: Extract<Target, { kind: 'keyed' }>,
): Promise<string | undefined> {
  const keyed = await recordsStating(core, REG('instanceKey'), target.key, [REG('Instance')]);
  return keyed.find(
    ({ iri, about }) =>
      valuesOf(about, iri, REG('instanceOf')).includes(target.software) &&
      statesTrue(about, iri, REG('registeredByPublisher')),
  )?.iri;
}
