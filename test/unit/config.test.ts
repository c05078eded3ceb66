import { describe, expect, it } from 'vitest';
import { readConfig, redactConfig, SETTINGS } from '../../src/core/config/index.js';
import { ConfigError } from '../../src/core/errors.js';

const base = { REG_BASE_IRI: 'https://registry.example.org/' };

function refusal(env: Record<string, string>): string {
  try {
    readConfig(env, '/srv');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('configuration was accepted');
}

describe('readConfig', () => {
  it('applies every documented default and trims the base IRI', () => {
    const config = readConfig(base, '/srv');
    expect(config.baseIri).toBe('https://registry.example.org');
    expect(config.dataDir).toBe('/srv/data');
    expect(config.listen).toEqual({ host: '127.0.0.1', port: 8080 });
    expect(config.publicRead).toBe(true);
    expect(config.sparqlPublic).toBe(true);
    expect(config.maxPayloadBytes).toBe(2 * 1024 * 1024);
    expect(config.graph).toEqual({ kind: 'embedded' });
    expect(config.queryIndex).toBe('at-start');
    expect(config.subscriptions).toMatchObject({
      maxAttempts: 8,
      suspendAfter: 12,
      backoffBaseMs: 30_000,
      backoffMaxMs: 21_600_000,
      timeoutMs: 5000,
      tickMs: 5000,
      batch: 20,
      webhooks: true,
    });
    expect(config.oidc.audience).toBe('https://registry.example.org');
    expect(Object.isFrozen(config) && Object.isFrozen(config.oidc)).toBe(true);
  });

  it('documents a summary for every setting', () => {
    for (const spec of SETTINGS) expect(spec.summary.length, spec.name).toBeGreaterThan(10);
  });

  it('refuses a missing or non-http base IRI, except on a loopback address, where it is localhost', () => {
    expect(readConfig({}).baseIri).toBe('http://localhost:8080');
    expect(readConfig({ REG_LISTEN: '[::1]:9090' }).baseIri).toBe('http://localhost:9090');
    expect(refusal({ REG_LISTEN: '0.0.0.0:8080' })).toMatch(
      /^REG_BASE_IRI is required when REG_LISTEN is not a loopback/,
    );
    expect(refusal({ REG_LISTEN: '127.0.0.1:0' })).toMatch(
      /^REG_BASE_IRI is required when REG_LISTEN has port 0/,
    );
    expect(refusal({ REG_BASE_IRI: 'ftp://x.org' })).toMatch(/REG_BASE_IRI must be an http\(s\) URL/);
    expect(refusal({ REG_BASE_IRI: 'registry' })).toMatch(/REG_BASE_IRI must be an absolute http\(s\) URL/);
  });

  it('refuses placeholder and short root tokens', () => {
    for (const token of [
      'changeme',
      'CHANGE-ME',
      'admin',
      'secret',
      'reg',
      'changeme-please-0123456789',
      'aaaaaaaaaaaaaaaaaaaaaaaa',
    ]) {
      expect(refusal({ ...base, REG_ROOT_TOKEN: token }), token).toMatch(/REG_ROOT_TOKEN is a placeholder/);
    }
    expect(refusal({ ...base, REG_ROOT_TOKEN: 'k3y-0123456789' })).toMatch(
      /REG_ROOT_TOKEN is 14 characters long: it must have at least 16/,
    );
    expect(readConfig({ ...base, REG_ROOT_TOKEN: 'k3y-0123456789abc' }).secrets.rootToken).toBe(
      'k3y-0123456789abc',
    );
  });

  it('refuses two graph-store credential forms and a username without password', () => {
    const sparql = { ...base, REG_SPARQL_ENDPOINT: 'http://127.0.0.1:8890/sparql' };
    expect(
      refusal({
        ...sparql,
        REG_SPARQL_BEARER_TOKEN: 't',
        REG_SPARQL_USERNAME: 'u',
        REG_SPARQL_PASSWORD: 'p',
      }),
    ).toMatch(/use one credential form only/);
    expect(refusal({ ...sparql, REG_SPARQL_USERNAME: 'u' })).toMatch(/must be set together/);
    const config = readConfig({ ...sparql, REG_SPARQL_USERNAME: 'u', REG_SPARQL_PASSWORD: 'p' });
    expect(config.graph).toMatchObject({
      kind: 'sparql',
      updateEndpoint: 'http://127.0.0.1:8890/sparql',
      credential: 'basic',
      timeoutMs: 60_000,
      maxConnections: 8,
    });
  });

  it('names the variable of a malformed value and lists every problem', () => {
    const message = refusal({
      ...base,
      REG_PUBLIC_READ: 'maybe',
      REG_MAX_PAYLOAD_BYTES: 'lots',
      REG_LISTEN: 'x:y',
    });
    expect(message.split('\n')).toHaveLength(3);
    expect(message).toMatch(/REG_PUBLIC_READ must be true or false/);
    expect(message).toMatch(/REG_MAX_PAYLOAD_BYTES must be a size/);
    expect(message).toMatch(/REG_LISTEN must be host:port/);
  });

  it('reads when the query index is loaded, and refuses any other value naming both', () => {
    expect(readConfig({ ...base, REG_QUERY_INDEX: 'on-demand' }, '/srv').queryIndex).toBe('on-demand');
    expect(refusal({ ...base, REG_QUERY_INDEX: 'sometimes' })).toBe(
      'REG_QUERY_INDEX must be one of at-start, on-demand, got "sometimes".',
    );
  });

  it('reads sizes, durations and lists', () => {
    const config = readConfig({
      ...base,
      REG_MAX_PAYLOAD_BYTES: '512 KiB',
      REG_SUBSCRIPTION_TIMEOUT: '90s',
      REG_WORKLOAD_ISSUERS: 'https://a.example/, https://b.example',
      REG_LISTEN: '[::1]:9000',
    });
    expect(config.maxPayloadBytes).toBe(512 * 1024);
    expect(config.subscriptions.timeoutMs).toBe(30_000);
    expect(config.oidc.workloadIssuers).toEqual(['https://a.example/', 'https://b.example']);
    expect(config.listen).toEqual({ host: '::1', port: 9000 });
  });

  it('keeps OIDC issuers exactly as written, trailing slash included', () => {
    const config = readConfig({ ...base, REG_OIDC_ISSUER: 'https://tenant.auth0.example/' });
    expect(config.oidc.issuer).toBe('https://tenant.auth0.example/');
    expect(() => readConfig({ ...base, REG_OIDC_ISSUER: 'tenant.example' })).toThrow(
      /REG_OIDC_ISSUER must be an absolute http\(s\) URL/,
    );
  });

  it('reports unknown REG_ variables', () => {
    expect(readConfig({ ...base, REG_PUBLIC_REED: 'true' }).unknownVariables).toEqual(['REG_PUBLIC_REED']);
  });
});

describe('redactConfig', () => {
  it('never shows secret values', () => {
    const config = readConfig({
      ...base,
      REG_ROOT_TOKEN: 'super-secret-value-123456',
      REG_FORGE_TOKEN: 'ghp_abc',
      REG_SPARQL_ENDPOINT: 'http://h/sparql',
      REG_SPARQL_BEARER_TOKEN: 'bearer-secret',
    });
    const text = JSON.stringify(redactConfig(config));
    expect(text).not.toContain('super-secret-value-123456');
    expect(text).not.toContain('ghp_abc');
    expect(text).not.toContain('bearer-secret');
    expect(redactConfig(config)).toMatchObject({
      root_token_set: true,
      forge_token_set: true,
      sparql_credential: 'bearer',
    });
  });
});
