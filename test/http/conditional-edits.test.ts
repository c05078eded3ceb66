import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { apiOf, type Json } from '../support/api.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

// Edits honour If-Match: one of several curators editing from the same read wins, the others are told (412)
// instead of silently overwriting each other; and edits without it still all take effect.
let core: Core;
let app: ReturnType<typeof createApp>;
let api: ReturnType<typeof apiOf>;

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
  api = apiOf(app);
});
afterAll(async () => core.close());

/** Sends a JSON request as the root curator with extra headers. */
function send(method: string, path: string, headers: Record<string, string>, body?: Json): Promise<Response> {
  return Promise.resolve(
    app.request(path, {
      method,
      headers: { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
}

async function read(path: string): Promise<{ tag: string; body: Json }> {
  const response = await app.request(path);
  expect(response.status).toBe(200);
  return { tag: response.headers.get('etag') as string, body: (await response.json()) as Json };
}

async function newSoftware(name: string): Promise<string> {
  const created = await api.call('POST', '/api/v1/software', 201, { name });
  return `/api/v1/software/${created.id as string}`;
}

async function expectPreconditionFailed(response: Response): Promise<void> {
  const problem = await api.expectStatus(response, 412);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  expect(problem).toMatchObject({ code: 'precondition-failed', status: 412 });
}

describe('If-Match on PATCH', () => {
  it('lets exactly one of several concurrent edits from the same read through; the rest get 412', async () => {
    const path = await newSoftware('contested');
    const { tag } = await read(path);
    const writers = ['ada', 'grace', 'edsger', 'barbara', 'ken', 'frances'];
    const answers = await Promise.all(
      writers.map((writer) => send('PATCH', path, { 'if-match': tag }, { description: `by ${writer}` })),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 412)).toHaveLength(writers.length - 1);
    const winner = writers[statuses.indexOf(200)];
    const won = (await answers[statuses.indexOf(200)]!.json()) as Json;
    expect(won.description).toBe(`by ${winner}`);
    for (const answer of answers.filter((each) => each.status === 412))
      await expectPreconditionFailed(answer);
    const now = await read(path);
    expect(now.body.description).toBe(`by ${winner}`);
    expect(now.tag).toBe(answers[statuses.indexOf(200)]!.headers.get('etag'));
  });

  it('refuses a stale tag and writes nothing; the current tag, a Turtle tag of it, and * pass', async () => {
    const path = await newSoftware('edited in turn');
    const stale = (await read(path)).tag;
    await api.call('PATCH', path, 200, { description: 'moved on' });
    await expectPreconditionFailed(await send('PATCH', path, { 'if-match': stale }, { description: 'lost' }));
    const current = await read(path);
    expect(current.body.description).toBe('moved on');

    const turtle = `"${current.tag.slice(1, -1)}.ttl"`;
    const viaTurtle = await send(
      'PATCH',
      path,
      { 'if-match': `"nothing", ${turtle}` },
      { description: 'two' },
    );
    expect(viaTurtle.status).toBe(200);
    const any = await send('PATCH', path, { 'if-match': '*' }, { description: 'three' });
    expect(any.status).toBe(200);
    expect((await read(path)).body.description).toBe('three');
  });

  it('never matches a weak tag, and refuses a header that is not a list of tags with 400', async () => {
    const path = await newSoftware('strictly compared');
    const { tag } = await read(path);
    await expectPreconditionFailed(
      await send('PATCH', path, { 'if-match': `W/${tag}` }, { description: 'x' }),
    );
    const malformed = await send('PATCH', path, { 'if-match': tag.slice(1, -1) }, { description: 'x' });
    const problem = await api.expectStatus(malformed, 400);
    expect(problem.detail).toContain('If-Match');
    expect((await read(path)).tag).toBe(tag);
  });

  it('applies concurrent edits without If-Match to different members all', async () => {
    const path = await newSoftware('many hands');
    const edits = [{ description: 'described' }, { keywords: ['alpha'] }, { tagline: 'many hands' }];
    const answers = await Promise.all(edits.map((edit) => Promise.resolve(api.send('PATCH', path, edit))));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const { body } = await read(path);
    expect(body).toMatchObject({ description: 'described', keywords: ['alpha'], tagline: 'many hands' });
  });
});

describe('If-Match on DELETE and PUT of records', () => {
  it('withdraws software only at the named version', async () => {
    const path = await newSoftware('withdrawn carefully');
    const stale = (await read(path)).tag;
    await api.call('PATCH', path, 200, { description: 'edited first' });
    await expectPreconditionFailed(await send('DELETE', path, { 'if-match': stale }));
    expect((await read(path)).body.tombstoned).toBeUndefined();
    const { tag } = await read(path);
    expect((await send('DELETE', path, { 'if-match': tag })).status).toBe(204);
    expect((await read(path)).body.tombstoned).toBe(true);
  });

  it('declares a capability only at the named version of its software', async () => {
    const path = await newSoftware('capable');
    const stale = (await read(path)).tag;
    await api.call('PATCH', path, 200, { description: 'edited first' });
    const body = { produces: ['http://edamontology.org/data_0006'], consumes: [] };
    await expectPreconditionFailed(await send('PUT', `${path}/capability`, { 'if-match': stale }, body));
    const { tag } = await read(path);
    expect((await send('PUT', `${path}/capability`, { 'if-match': tag }, body)).status).toBe(200);
  });

  it('withdraws a release only at the named version', async () => {
    const path = await newSoftware('released');
    const release = await api.call('POST', `${path}/releases`, 201, { version: '1.0.0' });
    const releasePath = `${path}/releases/${release.id as string}`;
    await expectPreconditionFailed(await send('DELETE', releasePath, { 'if-match': '"not-this-one"' }));
    const { tag } = await read(releasePath);
    expect((await send('DELETE', releasePath, { 'if-match': tag })).status).toBe(204);
  });

  it('edits and withdraws a deployment only at the named version', async () => {
    const { instance } = await api.deployment(undefined, 'conditional');
    const path = `/api/v1/instances/${instance.id as string}`;
    const stale = (await read(path)).tag;
    const patched = await send('PATCH', path, { 'if-match': stale }, { label: 'renamed' });
    expect(patched.status).toBe(200);
    expect(patched.headers.get('etag')).toBe((await read(path)).tag);
    await expectPreconditionFailed(await send('PATCH', path, { 'if-match': stale }, { label: 'again' }));
    await expectPreconditionFailed(await send('DELETE', path, { 'if-match': stale }));
    expect((await read(path)).body.label).toBe('renamed');
  });

  it('holds a deployment announcing itself to If-Match: nothing matches before it exists', async () => {
    const software = await api.call('POST', '/api/v1/software', 201, { name: 'self-announcing' });
    const { token } = await api.call('POST', `/api/v1/software/${software.id as string}/tokens`, 201, {
      scopes: ['register:instance'],
    });
    const announceSelf = (headers: Record<string, string>) =>
      Promise.resolve(
        app.request('/api/v1/instances/self', {
          method: 'PUT',
          headers: {
            authorization: `Bearer ${token as string}`,
            'content-type': 'application/json',
            ...headers,
          },
          body: JSON.stringify({ instance_key: 'node-1', endpoint_url: 'https://node-1.example.org' }),
        }),
      );
    await expectPreconditionFailed(await announceSelf({ 'if-match': '*' }));
    const created = await api.expectStatus(await announceSelf({}), 201);
    const path = `/api/v1/instances/${created.id as string}`;
    const stale = (await read(path)).tag;
    const again = await announceSelf({ 'if-match': stale });
    expect(again.status).toBe(200);
    expect(again.headers.get('etag')).toBe((await read(path)).tag);
    await expectPreconditionFailed(await announceSelf({ 'if-match': stale }));
  });
});
