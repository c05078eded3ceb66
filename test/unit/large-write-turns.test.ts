import { setTimeout as sleep } from 'node:timers/promises';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../src/http/env.js';
import { LARGE_WRITE_BYTES, LargeWriteTurns } from '../../src/http/large-writes.js';

/** An app with the turns middleware: large writes that hold their turn 60 ms, and an ordinary slow read. */
function appWith(percent: number) {
  const app = new Hono<AppEnv>();
  const spans: { start: number; end: number }[] = [];
  let releaseRead: () => void = () => undefined;
  const readDone = new Promise<void>((resolve) => (releaseRead = resolve));
  app.use('*', new LargeWriteTurns(percent).middleware());
  app.post('/large', async (c) => {
    await c.get('largeWrites')?.take(c, LARGE_WRITE_BYTES);
    const start = performance.now();
    await sleep(60);
    spans.push({ start, end: performance.now() });
    return c.json({ ok: true });
  });
  app.post('/small', async (c) => {
    await c.get('largeWrites')?.take(c, LARGE_WRITE_BYTES - 1);
    return c.json({ ok: true });
  });
  app.get('/read', async (c) => {
    await readDone;
    return c.json({ ok: true });
  });
  return { app, spans, releaseRead };
}

describe('turns of large writes', () => {
  it('runs large writes one at a time, back to back when nothing else is under way', async () => {
    const { app, spans } = appWith(10);
    await Promise.all([app.request('/large', { method: 'POST' }), app.request('/large', { method: 'POST' })]);
    const [first, second] = [...spans].sort((a, b) => a.start - b.start);
    expect(second!.start).toBeGreaterThanOrEqual(first!.end);
    // No rest: nothing but large writes was under way.
    expect(second!.start - first!.end).toBeLessThan(50);
  });

  it('rests between large writes while other requests are under way, so they hold at most their share', async () => {
    const { app, spans, releaseRead } = appWith(50);
    const read = app.request('/read');
    const small = await app.request('/small', { method: 'POST' });
    expect(small.status).toBe(200);
    await Promise.all([app.request('/large', { method: 'POST' }), app.request('/large', { method: 'POST' })]);
    releaseRead();
    expect((await read).status).toBe(200);
    const [first, second] = [...spans].sort((a, b) => a.start - b.start);
    // At 50 %, the rest is as long as the turn before it (60 ms of work).
    expect(second!.start - first!.end).toBeGreaterThanOrEqual(50);
  });

  it('at 100 % large writes neither take turns nor rest', async () => {
    const { app, spans } = appWith(100);
    await Promise.all([app.request('/large', { method: 'POST' }), app.request('/large', { method: 'POST' })]);
    const [first, second] = [...spans].sort((a, b) => a.start - b.start);
    expect(second!.start).toBeLessThan(first!.end);
  });
});
