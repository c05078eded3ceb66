import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { memoised, sharedJson } from '../../src/core/stored/memoised.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

/*
 * A memoised answer (a record or a list page read since the last write) is serialised once and its text is
 * reused by later readers. The text must always be that of the current answer: never another caller's, never
 * one from before a write.
 */

let core: Core;
let app: ReturnType<typeof createApp>;
const auth = { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' };

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
});
afterAll(async () => core.close());

const send = (method: string, path: string, body?: unknown) =>
  app.request(path, { method, headers: auth, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

describe('shared answers', () => {
  it('gives text only for memoised answers, the same text each time', async () => {
    expect(sharedJson({ plain: true })).toBeUndefined();
    expect(sharedJson('text')).toBeUndefined();
    const value = await memoised(core, 'shared-answers test', () => Promise.resolve({ n: 1, list: ['a'] }));
    const again = await memoised(core, 'shared-answers test', () => Promise.resolve({ n: 2 }));
    expect(again).toBe(value);
    expect(sharedJson(value)).toBe('{"n":1,"list":["a"]}');
    expect(sharedJson(again)).toBe(sharedJson(value));
  });

  it('answers repeated reads with the same JSON, and the new JSON after an edit', async () => {
    const created = await send('POST', '/api/v1/software', {
      name: 'shared-answer tool',
      tagline: 'Read twice',
      kinds: ['cli'],
      license: 'https://spdx.org/licenses/Apache-2.0',
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const first = await send('GET', `/api/v1/software/${id}`);
    const second = await send('GET', `/api/v1/software/${id}`);
    expect(first.headers.get('content-type')).toBe('application/json');
    expect(second.headers.get('content-type')).toBe('application/json');
    const text = await first.text();
    expect(await second.text()).toBe(text);
    expect(JSON.parse(text)).toMatchObject({ id, name: 'shared-answer tool' });

    const listed = async () =>
      (await send('GET', '/api/v1/software?limit=5')).json() as Promise<{
        items: { id: string; name: string }[];
      }>;
    expect((await listed()).items.find((item) => item.id === id)?.name).toBe('shared-answer tool');
    expect((await listed()).items.find((item) => item.id === id)?.name).toBe('shared-answer tool');

    const edited = await app.request(`/api/v1/software/${id}`, {
      method: 'PATCH',
      headers: { ...auth, 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ name: 'renamed tool' }),
    });
    expect(edited.status).toBe(200);
    const after = await send('GET', `/api/v1/software/${id}`);
    expect(((await after.json()) as { name: string }).name).toBe('renamed tool');
    expect((await listed()).items.find((item) => item.id === id)?.name).toBe('renamed tool');
  });
});
