import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook } from '../../src/core/subscriptions/webhook-signature.js';

const SECRET = 'whsec_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
const BODY = '{"type":"artifact.advertised","artifact_iri":"http://registry.test/artifact/1"}';
const NOW = new Date('2026-11-21T12:00:00Z');
const TS = String(NOW.getTime() / 1000);

describe('webhook signatures', () => {
  it('are sha256= and the hex HMAC-SHA256 of "{timestamp}.{body}"', () => {
    const expected = createHmac('sha256', SECRET).update(`${TS}.${BODY}`).digest('hex');
    expect(signWebhook(SECRET, TS, BODY)).toBe(`sha256=${expected}`);
    expect(signWebhook(SECRET, Number(TS), BODY)).toBe(`sha256=${expected}`);
  });

  it('verify within the tolerance window, and refuse with a stable code otherwise', () => {
    const signature = signWebhook(SECRET, TS, BODY);
    const check = { secret: SECRET, body: BODY, timestamp: TS, signature, now: NOW };
    expect(verifyWebhook(check)).toEqual({ valid: true, timestamp: Number(TS), age_seconds: 0 });
    expect(verifyWebhook({ ...check, now: new Date(NOW.getTime() + 299_000) }).valid).toBe(true);
    expect(verifyWebhook({ ...check, now: new Date(NOW.getTime() + 301_000) })).toMatchObject({
      valid: false,
      code: 'stale-timestamp',
      reason: 'the timestamp is 301 s old, beyond the tolerance of 300 s',
    });
    expect(verifyWebhook({ ...check, now: new Date(NOW.getTime() - 400_000) })).toMatchObject({
      code: 'stale-timestamp',
      reason: 'the timestamp is 400 s in the future, beyond the tolerance of 300 s',
    });
    expect(verifyWebhook({ ...check, now: new Date(0), toleranceSeconds: 0 }).valid).toBe(true);
    expect(verifyWebhook({ ...check, body: `${BODY} ` })).toMatchObject({ code: 'bad-signature' });
    expect(verifyWebhook({ ...check, secret: `${SECRET}x` })).toMatchObject({ code: 'bad-signature' });
    expect(verifyWebhook({ ...check, timestamp: String(Number(TS) + 1) })).toMatchObject({
      code: 'bad-signature',
    });
    expect(
      verifyWebhook({ ...check, signature: signature.toUpperCase().replace('SHA256=', 'sha256=') }).valid,
    ).toBe(true);
    expect(verifyWebhook({ ...check, signature: signature.slice(7) })).toMatchObject({
      code: 'malformed-signature',
    });
    expect(verifyWebhook({ ...check, timestamp: '2026-11-21T12:00:00Z' })).toMatchObject({
      code: 'malformed-timestamp',
    });
  });
});
