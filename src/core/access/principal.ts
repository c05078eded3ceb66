import { createHash, timingSafeEqual } from 'node:crypto';
import { ROOT_SUBJECT } from '../ns.js';
import type { ActorKind } from '../store/audit.js';
import type { Config } from '../config/index.js';
import { SCOPES } from './scopes.js';

/** A role a principal may hold. */
export type Role = 'reader' | 'curator' | 'admin';

/** The kind of credential a principal presented, as `whoami` reports it. */
export type CredentialKind = 'none' | 'root-token' | 'local-token' | 'oidc-workload' | 'oidc-human';

/** Who is calling, resolved once per request from the presented credential. */
export interface Principal {
  readonly authenticated: boolean;
  readonly credential: CredentialKind;
  /** How the audit log names this kind of actor. */
  readonly actorKind: ActorKind;
  /** Stable identity: an instance IRI, `urn:reg:token:<id>`, `<issuer>|<sub>`, `urn:reg:root` or `anonymous`. */
  readonly subject: string;
  readonly displayName: string | null;
  readonly roles: readonly Role[];
  /** Scopes the credential may use (`register:software`, `advertise:produce`, ...). */
  readonly scopes: readonly string[];
  /** The deployment this credential acts as, when it acts as one; never taken from a payload. */
  readonly instance: string | null;
  /** The software this credential is bound to: it may register deployments of that software only. */
  readonly software: string | null;
  /** Issuer of an OIDC credential. */
  readonly issuer: string | null;
  /** Client id of an OIDC workload credential. */
  readonly clientId: string | null;
  /** Id of a registry API token. */
  readonly tokenId: string | null;
  /**
   * The `instance_key` presented beside the credential (`X-Reg-Instance-Key`): it chooses among the deployments
   * a shared credential registered, never among deployments of other credentials.
   */
  readonly instanceKey: string | null;
  /** What the workload token of a trusted publisher said about the build acting, recorded on runs and in the audit log. */
  readonly workload: WorkloadSource | null;
  /**
   * Why a verified workload token acts through no trusted publisher although its issuer has some: the nearest
   * binding and the claim that differed, as the sentence of the 403 an act needing a deployment answers.
   */
  readonly publisherMiss: string | null;
}

/** The build a workload token of a trusted publisher stands for. */
export interface WorkloadSource {
  /** The trusted publisher the token matched (`<record>#trusted-publisher-<n>`). */
  readonly binding: string;
  /** The claims the binding names, with the values the token carried. */
  readonly claims: Readonly<Record<string, string>>;
  /** The run fields the claims give (`source_repository`, `source_ref`, `source_commit`, `build_url`). */
  readonly run: Readonly<Record<string, string>>;
}

const NOBODY = {
  displayName: null,
  roles: [],
  scopes: [],
  instance: null,
  software: null,
  issuer: null,
  clientId: null,
  tokenId: null,
  instanceKey: null,
  workload: null,
  publisherMiss: null,
} as const;

/** The caller that presented no credential. */
export const ANONYMOUS: Principal = Object.freeze<Principal>({
  ...NOBODY,
  authenticated: false,
  credential: 'none',
  actorKind: 'anonymous',
  subject: 'anonymous',
});

/** The bootstrap administrator (`REG_ROOT_TOKEN`): every role and scope, acting as no deployment. */
export const ROOT_PRINCIPAL: Principal = Object.freeze<Principal>({
  ...NOBODY,
  authenticated: true,
  credential: 'root-token',
  actorKind: 'root-token',
  subject: ROOT_SUBJECT,
  displayName: 'bootstrap admin',
  roles: ['admin'],
  scopes: [...SCOPES],
});

/** Builds a principal from the fields that differ from an unbound, role-less one. */
export function principal(
  fields: Partial<Principal> & Pick<Principal, 'credential' | 'actorKind' | 'subject'>,
): Principal {
  return Object.freeze<Principal>({ ...NOBODY, authenticated: true, ...fields });
}

/** The principal with the `instance_key` its caller presented beside the credential (absent or blank: none). */
export function withInstanceKey(who: Principal, key: string | undefined): Principal {
  const trimmed = key?.trim() ?? '';
  if (trimmed === '') return who;
  return Object.freeze<Principal>({ ...who, instanceKey: trimmed });
}

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** Whether `token` is the configured root token (constant-time, whatever the lengths). */
export function isRootToken(config: Config, token: string): boolean {
  const root = config.secrets.rootToken;
  return root !== undefined && timingSafeEqual(digest(token), digest(root));
}
