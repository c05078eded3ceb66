import type { JWTPayload } from 'jose';
import type { Core } from '../core.js';
import { UnauthorizedError } from '../errors.js';
import { GRAPHS, REG } from '../ns.js';
import { indexQuads } from '../records/reader.js';
import { parseNQuads } from '../store/nquads.js';
import { recordsStating, valueOf, valuesOf } from '../stored/stating.js';
import { principal, type Principal, type Role } from './principal.js';
import { SCOPES } from './scopes.js';
import { defaultIssuer } from './issuers.js';
import { actThroughPublisher } from './trusted-publishers.js';

/** Claims that name the client a token was issued to, in the order they are consulted; `sub` is the fallback. */
const CLIENT_CLAIMS = ['azp', 'client_id', 'clientId', 'sub'] as const;
/** A registry role, bare or with a registry prefix (`reg-curator`, `reg:curator`, `registry_admin`). */
const ROLE_PATTERN = /^(?:reg(?:istry)?[-:_.])?(reader|curator|admin)$/i;
/** What a deployment may do when its record lists no `allowed_scopes`. */
const DEFAULT_DEPLOYMENT_SCOPES = ['advertise:produce', 'advertise:consume'];
const REGISTRY_SCOPES: ReadonlySet<string> = new Set(SCOPES);

/** A live deployment that names a client, with the issuer it pins that client to (if any). */
interface Candidate {
  readonly instance: string;
  readonly software: string | null;
  readonly issuer: string | undefined;
  readonly instanceKey: string | undefined;
}

/** The deployment an identity-provider client acts as. */
interface Deployment {
  readonly instance: string;
  readonly software: string | null;
  readonly allowedScopes: readonly string[];
}

/**
 * Turns the verified claims of a token from a trusted `issuer` into a principal (contract row 26): a token that
 * binds to a deployment is that deployment's workload; an unbound token is a person when the primary issuer
 * gave it roles or it is a sign-in token of the web page (its client id or a `sid`); another token matching a
 * trusted publisher acts through it; anything else is an unbound workload, which self-registration judges later
 * (carrying, when its issuer has trusted publishers, why none matched). Workload-only issuers never make people or roles, and
 * their unbound workloads count as anonymous (spec §5.4).
 */
export async function classifyClaims(
  core: Core,
  issuer: string,
  claims: JWTPayload,
  instanceKey?: string,
  registers = true,
): Promise<Principal> {
  const { oidc } = core.config;
  const primary = issuer === oidc.issuer;
  const clientId = firstString(claims, CLIENT_CLAIMS);
  const roles = primary ? rolesOf(claims, oidc.clientId) : [];
  const signIn =
    primary && ((oidc.clientId !== undefined && clientId === oidc.clientId) || nonEmpty(claims.sid));
  const tokenScopes = registryScopes(claims);
  if (!signIn && clientId !== undefined) {
    const deployment = await findDeployment(core, issuer, clientId, instanceKey);
    if (deployment !== undefined) {
      const narrowed =
        tokenScopes.length === 0
          ? deployment.allowedScopes
          : tokenScopes.filter((scope) => deployment.allowedScopes.includes(scope));
      return principal({
        credential: 'oidc-workload',
        actorKind: 'oidc-workload',
        subject: `${issuer}|${clientId}`,
        displayName: clientId,
        scopes: narrowed,
        instance: deployment.instance,
        software: deployment.software,
        issuer,
        clientId,
      });
    }
  }
  // A person never acts through a trusted publisher: only a workload token is judged against the bindings.
  let publisherMiss: string | null = null;
  if (!signIn && roles.length === 0 && clientId !== undefined) {
    const through = await actThroughPublisher(core, issuer, claims, {
      clientId,
      tokenScopes,
      scopesOf: (instance) => allowedScopes(core, instance),
      registers,
    });
    if (typeof through === 'string') publisherMiss = through;
    else if (through !== undefined) return through;
  }
  // An identity provider's scope claim never makes anyone an administrator; that takes the admin role.
  const scopes = tokenScopes.filter((scope) => scope !== 'admin:*');
  if (signIn || roles.length > 0) {
    if (!nonEmpty(claims.sub)) throw new UnauthorizedError('token has no subject (sub)');
    return principal({
      credential: 'oidc-human',
      actorKind: 'oidc-human',
      subject: `${issuer}|${claims.sub}`,
      displayName: firstString(claims, ['name', 'preferred_username', 'email']) ?? claims.sub,
      roles,
      scopes,
      issuer,
    });
  }
  if (clientId === undefined) {
    throw new UnauthorizedError('token names no client (azp, client_id) and no subject (sub)');
  }
  return principal({
    // A workload-only issuer is typically shared by many tenants (a CI service, a cloud): it only says which
    // deployment is calling. Bound to none, its token counts as anonymous; it may still announce itself.
    authenticated: primary,
    credential: 'oidc-workload',
    actorKind: 'oidc-workload',
    subject: `${issuer}|${clientId}`,
    displayName: clientId,
    scopes: primary ? scopes : [],
    issuer,
    clientId,
    publisherMiss,
  });
}

function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

function firstString(claims: JWTPayload, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = claims[name];
    if (nonEmpty(value)) return value;
  }
  return undefined;
}

/** Registry roles from `roles`, `realm_access.roles` and `resource_access.<web client>.roles`. */
function rolesOf(claims: JWTPayload, webClientId: string | undefined): Role[] {
  const lists: unknown[] = [claims.roles, field(claims.realm_access, 'roles')];
  if (webClientId !== undefined) lists.push(field(field(claims.resource_access, webClientId), 'roles'));
  const roles = new Set<Role>();
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      const role = typeof item === 'string' ? ROLE_PATTERN.exec(item)?.[1] : undefined;
      if (role !== undefined) roles.add(role.toLowerCase() as Role);
    }
  }
  return [...roles];
}

function field(value: unknown, name: string): unknown {
  return value !== null && typeof value === 'object' && Object.hasOwn(value, name)
    ? (value as Record<string, unknown>)[name]
    : undefined;
}

/** The registry scopes of the token's `scope` claim (space-separated, or `scp` as some providers send it). */
function registryScopes(claims: JWTPayload): string[] {
  const raw = claims.scope ?? claims.scp;
  const words =
    typeof raw === 'string'
      ? raw.split(/\s+/)
      : Array.isArray(raw)
        ? raw.filter((item): item is string => typeof item === 'string')
        : [];
  return [...new Set(words.filter((word) => REGISTRY_SCOPES.has(word)))];
}

/**
 * The live deployment this client acts as: the one declaring it as `oidc_client_id` at this issuer (an unpinned
 * declaration counts for the default issuer), else the one it registered itself, when exactly one did or when
 * the caller names it by its `instance_key` (X-Reg-Instance-Key: replicas of one client tell themselves apart).
 * Cached until the next write.
 */
async function findDeployment(
  core: Core,
  issuer: string,
  clientId: string,
  instanceKey: string | undefined,
): Promise<Deployment | undefined> {
  const key = `oidc-binding\n${issuer}\n${clientId}\n${instanceKey ?? ''}`;
  const generation = core.graph.generation;
  const cached = core.memo.get<Deployment | null>(key, generation);
  if (cached !== undefined) return cached ?? undefined;
  const declared = await candidates(core, REG('oidcClientId'), clientId, REG('oidcIssuer'));
  const fallback = defaultIssuer(core.config);
  const pinned = declared.filter((row) => (row.issuer ?? fallback) === issuer);
  let found: Candidate | undefined;
  if (pinned.length === 1) {
    found = pinned[0];
  } else if (pinned.length > 1) {
    // Two deployments claim one client: refuse to guess which one is calling.
    core.log.warn('several deployments declare one OIDC client; the token binds to none', {
      issuer,
      client_id: clientId,
      instances: pinned.map((row) => row.instance),
    });
  } else {
    const registered = await candidates(
      core,
      REG('selfRegisteredBy'),
      `${issuer}|${clientId}`,
      REG('selfRegisteredIssuer'),
    );
    const mine = registered.filter((row) => row.issuer === issuer);
    // A key that names none of them binds to none: never a guess.
    found =
      instanceKey === undefined
        ? mine.length === 1
          ? mine[0]
          : undefined
        : mine.find((row) => row.instanceKey === instanceKey);
  }
  const deployment: Deployment | null =
    found === undefined
      ? null
      : {
          instance: found.instance,
          software: found.software,
          allowedScopes: await allowedScopes(core, found.instance),
        };
  core.memo.set(key, generation, deployment);
  return deployment ?? undefined;
}

/** Live deployments whose `predicate` is the string `value`, with their software, `issuerPredicate` and key. */
async function candidates(
  core: Core,
  predicate: string,
  value: string,
  issuerPredicate: string,
): Promise<Candidate[]> {
  const found = await recordsStating(core, predicate, value, [REG('Instance')]);
  return found.map(({ iri, about }) => ({
    instance: iri,
    software: valueOf(about, iri, REG('instanceOf')) ?? null,
    issuer: valueOf(about, iri, issuerPredicate),
    instanceKey: valueOf(about, iri, REG('instanceKey')),
  }));
}

/** The deployment's `allowed_scopes`, or advertising both ways when it lists none. */
async function allowedScopes(core: Core, instance: string): Promise<readonly string[]> {
  const text = await core.graph.readRecord(GRAPHS.local, instance);
  const listed =
    text === undefined ? [] : valuesOf(indexQuads(parseNQuads(text)), instance, REG('allowedScope'));
  return listed.length > 0 ? listed : DEFAULT_DEPLOYMENT_SCOPES;
}
