import { expect } from 'vitest';
import type { createApp } from '../../src/http/app.js';
import { ROOT_TOKEN } from '../helpers.js';

/** A JSON body as tests read it. */
export type Json = Record<string, any>;

/** An artifact type every registry holds (EDAM "Data"). */
export const TYPE = 'http://edamontology.org/data_0006';
/** A licence every registry holds. */
export const CC_BY = 'https://spdx.org/licenses/CC-BY-4.0';

/**
 * Calls of the HTTP API through `app.request()`, as the tests of subscriptions and webhooks make them: requests
 * with a bearer token (the root token unless another is given) and status checks that show the body on failure.
 */
export function apiOf(app: ReturnType<typeof createApp>) {
  const send = (method: string, path: string, body?: unknown, token: string | null = ROOT_TOKEN) =>
    app.request(path, {
      method,
      headers: {
        'content-type': 'application/json',
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const expectStatus = async (response: Response, status: number): Promise<Json> => {
    const text = await response.text();
    expect(response.status, text).toBe(status);
    return text === '' ? {} : (JSON.parse(text) as Json);
  };
  const call = async (method: string, path: string, status: number, body?: unknown, token?: string | null) =>
    expectStatus(await send(method, path, body, token), status);

  /** A software, one deployment of it and a token of that deployment (produce, consume and subscribe). */
  const deployment = async (software?: Json, label = 'deployment') => {
    const sw = software ?? (await call('POST', '/api/v1/software', 201, { name: `software of ${label}` }));
    const instance = await call('POST', '/api/v1/instances', 201, { software: sw.iri, label });
    const minted = await call('POST', `/api/v1/instances/${instance.id}/tokens`, 201, {
      scopes: ['advertise:produce', 'advertise:consume', 'subscribe:artifacts'],
    });
    return { software: sw, instance, token: minted.token as string };
  };

  /** Advertises one run with the given artifacts; returns the answer. */
  const advertise = async (
    token: string,
    role: 'produced' | 'consumed',
    runKey: string | undefined,
    artifacts: Json[],
    status?: number,
  ) => {
    const response = await send(
      'POST',
      `/api/v1/advertise/${role}`,
      { run: runKey === undefined ? {} : { external_key: runKey }, artifacts },
      token,
    );
    const body = (await response.json()) as Json;
    expect(response.status, JSON.stringify(body)).toBe(status ?? (response.status === 200 ? 200 : 201));
    return body;
  };

  return { send, call, expectStatus, deployment, advertise };
}

/** An artifact of the given title, type and keywords with one public distribution. */
export function artifact(title: string, extra: Json = {}): Json {
  return {
    title,
    conforms_to: TYPE,
    distributions: [{ download_url: `https://data.example.org/${encodeURIComponent(title)}.ttl` }],
    ...extra,
  };
}
