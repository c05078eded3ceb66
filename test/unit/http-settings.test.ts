import { describe, expect, it } from 'vitest';
import { readConfig } from '../../src/core/config/index.js';
import { ConfigError } from '../../src/core/errors.js';
import { connectionsCheckingInterval } from '../../src/http/connection-limits.js';

const base = { REG_BASE_IRI: 'https://registry.example.org' };

function refusal(env: Record<string, string>): string {
  try {
    readConfig({ ...base, ...env }, '/srv');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('configuration was accepted');
}

describe('connection limits of the HTTP server (REG_HTTP_*)', () => {
  it('has bounded defaults for every limit', () => {
    expect(readConfig(base, '/srv').http).toEqual({
      headersTimeoutMs: 20_000,
      requestTimeoutMs: 60_000,
      keepAliveTimeoutMs: 5000,
      idleTimeoutMs: 30_000,
      maxConnections: 1000,
    });
  });

  it('reads each setting', () => {
    const config = readConfig(
      {
        ...base,
        REG_HTTP_HEADERS_TIMEOUT: '2s',
        REG_HTTP_REQUEST_TIMEOUT: '3s',
        REG_HTTP_KEEP_ALIVE_TIMEOUT: '500ms',
        REG_HTTP_IDLE_TIMEOUT: '1m',
        REG_HTTP_MAX_CONNECTIONS: '64',
      },
      '/srv',
    );
    expect(config.http).toEqual({
      headersTimeoutMs: 2000,
      requestTimeoutMs: 3000,
      keepAliveTimeoutMs: 500,
      idleTimeoutMs: 60_000,
      maxConnections: 64,
    });
  });

  it('refuses a limit of zero, which would mean no limit', () => {
    expect(refusal({ REG_HTTP_IDLE_TIMEOUT: '0s' })).toContain('REG_HTTP_IDLE_TIMEOUT must be longer than 0');
    expect(refusal({ REG_HTTP_MAX_CONNECTIONS: '0' })).toContain('REG_HTTP_MAX_CONNECTIONS');
  });

  it('refuses a head limit longer than the whole request limit', () => {
    expect(refusal({ REG_HTTP_HEADERS_TIMEOUT: '90s' })).toContain(
      'REG_HTTP_HEADERS_TIMEOUT (90 s) must not be longer than REG_HTTP_REQUEST_TIMEOUT (60 s)',
    );
  });

  it('looks for expired connections often enough to enforce a limit within a quarter of it', () => {
    const http = readConfig(base, '/srv').http;
    expect(connectionsCheckingInterval(http)).toBe(5000);
    expect(connectionsCheckingInterval({ ...http, headersTimeoutMs: 200 })).toBe(100);
  });
});
