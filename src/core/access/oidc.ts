import {
  decodeJwt,
  decodeProtectedHeader,
  errors,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyOptions,
} from 'jose';
import type { Config } from '../config/index.js';
import type { Core } from '../core.js';
import { RegError, UnauthorizedError } from '../errors.js';
import { classifyClaims } from './oidc-binding.js';
import type { Principal } from './principal.js';

/** The shape of a compact JWS: three base64url parts. */
export const JWT_PATTERN = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** Signature algorithms accepted from identity providers; never `none` or a shared-secret HMAC. */
const ALGORITHMS = ['RS256', 'ES256', 'PS256', 'EdDSA'];
/** Clock skew tolerated between the identity provider and the registry, in seconds. */
const CLOCK_TOLERANCE_S = 30;

/**
 * Verifies an identity-provider token and resolves it into a person or a workload principal. The issuer must
 * be trusted byte for byte; keys come from that issuer's discovery document; audience and expiry are always
 * checked. Every refusal is a 401 with a one-line reason that never repeats the token. `instanceKey` (sent in
 * X-Reg-Instance-Key) picks one of the deployments the workload registered itself.
 */
export async function authenticateJwt(
  core: Core,
  token: string,
  instanceKey?: string,
  registers = true,
): Promise<Principal> {
  const issuer = trustedIssuer(core.config, token);
  const claims = await verifiedClaims(core, issuer, token);
  return classifyClaims(core, issuer, claims, instanceKey, registers);
}

/** The token's `iss`, read before verification only to choose the keys, when it is a trusted issuer. */
function trustedIssuer(config: Config, token: string): string {
  const { issuer: primary, workloadIssuers } = config.oidc;
  if (primary === undefined && workloadIssuers.length === 0) {
    throw new UnauthorizedError('no OIDC issuer is configured');
  }
  let iss: unknown;
  try {
    iss = decodeJwt(token).iss;
  } catch {
    throw new UnauthorizedError('token is not a well-formed JWT');
  }
  if (typeof iss !== 'string' || iss === '') throw new UnauthorizedError('token has no issuer (iss)');
  if (iss !== primary && !workloadIssuers.includes(iss)) {
    throw new UnauthorizedError(`issuer ${printable(iss)} is not trusted`);
  }
  return iss;
}

async function verifiedClaims(core: Core, issuer: string, token: string): Promise<JWTPayload> {
  const audience = core.config.oidc.audience;
  const keys = await core.oidcKeys.keysFor(issuer);
  const options: JWTVerifyOptions = {
    issuer,
    audience,
    algorithms: ALGORITHMS,
    requiredClaims: ['exp'],
    currentDate: core.oidcKeys.now(),
    clockTolerance: CLOCK_TOLERANCE_S,
  };
  try {
    return (await jwtVerify(token, keys, options)).payload;
  } catch (error) {
    if (!(error instanceof errors.JWKSMultipleMatchingKeys)) throw refusal(error, issuer, audience, token);
    // A token without `kid` matched several keys: the one that verifies it wins.
    for await (const key of error) {
      try {
        return (await jwtVerify(token, key, options)).payload;
      } catch (inner) {
        if (!(inner instanceof errors.JWSSignatureVerificationFailed)) {
          throw refusal(inner, issuer, audience, token);
        }
      }
    }
    throw new UnauthorizedError('token signature is invalid');
  }
}

/** The one-line 401 for a failed verification; registry errors (an unreachable provider) pass through. */
function refusal(error: unknown, issuer: string, audience: string, token: string): unknown {
  if (error instanceof RegError) return error;
  const reason = reasonOf(error, issuer, audience, token);
  return reason === undefined ? error : new UnauthorizedError(reason, { cause: error });
}

function reasonOf(error: unknown, issuer: string, audience: string, token: string): string | undefined {
  if (error instanceof errors.JWTExpired) return 'token has expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    const missing = error.reason === 'missing';
    switch (error.claim) {
      case 'aud':
        return missing
          ? `token has no audience (aud); it must include ${audience}`
          : `token audience does not include ${audience}`;
      case 'nbf':
        return 'token is not valid yet (nbf)';
      case 'exp':
        return missing ? 'token has no expiry (exp)' : 'token expiry (exp) is invalid';
      default:
        return `token claim ${printable(error.claim)} is ${missing ? 'missing' : 'invalid'}`;
    }
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'token signature is invalid';
  if (error instanceof errors.JWKSNoMatchingKey) {
    const kid = keyIdOf(token);
    return `no signing key of ${issuer} matches the token${kid === undefined ? '' : ` (kid ${printable(kid)})`}`;
  }
  if (error instanceof errors.JOSEAlgNotAllowed) {
    return `token signing algorithm is not accepted (use ${ALGORITHMS.join(', ')})`;
  }
  if (error instanceof errors.JOSENotSupported) return 'token uses an unsupported key or algorithm';
  if (error instanceof errors.JOSEError) return 'token is not a well-formed JWT';
  return undefined;
}

function keyIdOf(token: string): string | undefined {
  try {
    const { kid } = decodeProtectedHeader(token);
    return typeof kid === 'string' ? kid : undefined;
  } catch {
    return undefined;
  }
}

/** A caller-supplied value made safe for a one-line message: no control characters, bounded length. */
function printable(value: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = value.replace(/[\u0000-\u001f\u007f]/g, '?');
  return clean.length > 120 ? `${clean.slice(0, 120)}…` : clean;
}
