import { ApiError, UnexpectedResponseError, UnreachableError, UsageError } from './errors.js';
import type { RegistryDescription } from '../../api/index.js';
import type { HttpClient } from './http.js';

/** The identity provider a registry advertises for people to sign in with. */
export interface AdvertisedProvider {
  readonly issuer: string;
  readonly clientId: string;
}

/** A device authorization under way (RFC 8628 §3.2): what the person is to open and type. */
export interface DeviceAuthorization {
  readonly device_code: string;
  readonly user_code: string;
  readonly verification_uri: string;
  readonly verification_uri_complete?: string;
  readonly expires_in: number;
  readonly interval?: number;
}

/** The tokens a completed device authorization gives. */
export interface DeviceTokens {
  readonly access_token: string;
  readonly refresh_token?: string;
  readonly expires_in?: number;
}

/** The grant type of the device access token request (RFC 8628 §3.4). */
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
/** Seconds between two token requests when the provider names none (RFC 8628 §3.2). */
const DEFAULT_INTERVAL_S = 5;
/** Seconds added to the interval at each `slow_down` (RFC 8628 §3.5). */
const SLOW_DOWN_S = 5;

/**
 * The identity provider the registry's description (`/.well-known/reg-registry`) names for human sign-in, or
 * undefined when it names none (or no client for people to sign in with).
 */
export async function advertisedProvider(http: HttpClient): Promise<AdvertisedProvider | undefined> {
  const description = await http.request<RegistryDescription>('GET', '/.well-known/reg-registry');
  // The registry's word: its members are checked, not trusted to fit the declared shape.
  const oidc = description.auth?.oidc;
  const issuer: unknown = oidc?.issuer;
  const clientId: unknown = oidc?.client_id;
  if (typeof issuer !== 'string' || issuer === '' || typeof clientId !== 'string' || clientId === '') {
    return undefined;
  }
  return { issuer, clientId };
}

/** An OpenID provider's endpoints for the device authorization grant, from its discovery document. */
export interface DeviceEndpoints {
  readonly deviceAuthorization: string;
  readonly token: string;
}

/** Reads the provider's discovery document and the two endpoints the device grant needs. */
export async function deviceEndpoints(issuer: string, timeoutMs: number): Promise<DeviceEndpoints> {
  const where = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  const document = await providerJson(where, { signal: AbortSignal.timeout(timeoutMs) });
  const device = document.body.device_authorization_endpoint;
  const token = document.body.token_endpoint;
  if (document.status !== 200 || typeof token !== 'string') {
    throw new UnexpectedResponseError(
      `the identity provider ${issuer} has no usable discovery document at ${where}`,
    );
  }
  if (typeof device !== 'string') {
    throw new UsageError(`the identity provider ${issuer} offers no device authorization (RFC 8628)`, [
      'sign in on the web page and pass the token with --with-token or --token-file',
    ]);
  }
  return { deviceAuthorization: device, token };
}

/** Starts a device authorization for the registry's client (RFC 8628 §3.1). */
export async function startDeviceAuthorization(
  endpoints: DeviceEndpoints,
  clientId: string,
  scope: string,
  timeoutMs: number,
): Promise<DeviceAuthorization> {
  const answer = await providerJson(endpoints.deviceAuthorization, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: clientId, scope }).toString(),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const { body } = answer;
  if (
    answer.status !== 200 ||
    typeof body.device_code !== 'string' ||
    typeof body.user_code !== 'string' ||
    typeof body.verification_uri !== 'string'
  ) {
    throw providerRefusal('the device authorization request', answer);
  }
  return body as unknown as DeviceAuthorization;
}

/**
 * Asks the token endpoint until the person has approved the request (RFC 8628 §3.4, §3.5): waiting `interval`
 * seconds between requests, five more after each `slow_down`, until the code expires.
 */
export async function pollDeviceToken(
  endpoints: DeviceEndpoints,
  clientId: string,
  authorization: DeviceAuthorization,
  timeoutMs: number,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<DeviceTokens> {
  let interval = authorization.interval ?? DEFAULT_INTERVAL_S;
  const deadline = Date.now() + authorization.expires_in * 1000;
  for (;;) {
    await sleep(interval * 1000);
    const answer = await providerJson(endpoints.token, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: DEVICE_GRANT,
        device_code: authorization.device_code,
        client_id: clientId,
      }).toString(),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (answer.status === 200 && typeof answer.body.access_token === 'string') {
      return answer.body as unknown as DeviceTokens;
    }
    const error = answer.body.error;
    if (error === 'authorization_pending' && Date.now() < deadline) continue;
    if (error === 'slow_down' && Date.now() < deadline) {
      interval += SLOW_DOWN_S;
      continue;
    }
    if (error === 'access_denied') {
      throw new ApiError(
        403,
        'access-denied',
        'Forbidden',
        'the sign-in was refused at the identity provider',
      );
    }
    if (error === 'expired_token' || error === 'authorization_pending' || error === 'slow_down') {
      throw new ApiError(
        401,
        'expired-token',
        'Unauthorized',
        'the user code expired before the sign-in was completed',
        {
          hints: ['run reg login again and complete the sign-in sooner'],
        },
      );
    }
    throw providerRefusal('the device token request', answer);
  }
}

interface ProviderAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

async function providerJson(url: string, init: RequestInit): Promise<ProviderAnswer> {
  let response: Response;
  try {
    response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { accept: 'application/json', ...init.headers },
    });
  } catch (error) {
    const name = (error as { name?: unknown }).name;
    throw new UnreachableError(
      name === 'TimeoutError'
        ? `the identity provider at ${url} did not answer in time`
        : `cannot reach the identity provider at ${url}`,
    );
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = {};
  }
  return {
    status: response.status,
    body:
      typeof body === 'object' && body !== null && !Array.isArray(body)
        ? (body as Record<string, unknown>)
        : {},
  };
}

function providerRefusal(what: string, answer: ProviderAnswer): ApiError {
  const error = typeof answer.body.error === 'string' ? answer.body.error : `http-${answer.status}`;
  const description =
    typeof answer.body.error_description === 'string' ? `: ${answer.body.error_description}` : '';
  const status = answer.status >= 400 ? answer.status : 502;
  return new ApiError(
    status,
    error,
    'Identity provider refusal',
    `${what} was refused (${error}${description})`,
  );
}
