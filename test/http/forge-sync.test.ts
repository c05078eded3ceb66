import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { openCore } from '../../src/core/core.js';
import { createLogger } from '../../src/core/log.js';
import { listAudit } from '../../src/core/store/audit.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN, testConfig } from '../helpers.js';
import { startFakeForge, type FakeForge } from '../support/fake-forge.js';
import { startProvider, type TestProvider } from '../support/oidc.js';

/*
 * Sync from code forges, through the HTTP API of a real registry, against a loopback server that answers like
 * the GitHub and GitLab REST APIs.
 */

const AUDIENCE = 'http://registry.test';
const ALL_FIELDS = [
  'tagline',
  'description',
  'readme',
  'homepage',
  'license',
  'keywords',
  'maturity',
  'releases',
  'image',
];
const root = { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' };

let forge: FakeForge;
let provider: TestProvider;
let core: Core;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  forge = await startFakeForge();
  provider = await startProvider({
    audience: AUDIENCE,
    clients: [
      { id: 'curator-person', claims: { roles: ['curator'], sid: 'session-c' } },
      { id: 'reader-person', claims: { roles: ['reader'], sid: 'session-r' } },
    ],
  });
  core = await openTestCore(
    {
      REG_FORGE_GITHUB_API: forge.githubApi,
      REG_FORGE_GITLAB_API: forge.gitlabApi,
      REG_OIDC_ISSUER: provider.issuer,
    },
    true,
  );
  app = createApp(core);
});
afterAll(async () => {
  await core?.close();
  await provider?.stop();
  await forge?.stop();
});
beforeEach(() => {
  forge.limit = undefined;
  forge.token = undefined;
});

const json = async (response: Response) => (await response.json()) as Record<string, any>;

async function call(
  target: ReturnType<typeof createApp>,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = root,
) {
  return target.request(path, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function connected(sync: Record<string, unknown>, extra: Record<string, unknown> = {}, target = app) {
  const response = await call(target, 'POST', '/api/v1/software', { name: 'synced', ...extra, sync });
  const body = await json(response);
  expect(response.status, JSON.stringify(body)).toBe(201);
  return body;
}

async function sync(id: string, target = app, headers = root) {
  const response = await call(target, 'POST', `/api/v1/software/${id}/sync`, undefined, headers);
  const body = await json(response);
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body;
}

const requestsSince = (from: number) => forge.requests.slice(from);

/** `version date changelog` of every release of a software, through the public SPARQL endpoint. */
async function releasesOf(software: string): Promise<string[]> {
  const query = `SELECT ?v ?d ?c WHERE { GRAPH ?g { ?r <http://purl.org/dc/terms/isVersionOf> <${software}> ;
    <https://schema.org/softwareVersion> ?v ; <https://schema.org/datePublished> ?d ; <https://schema.org/releaseNotes> ?c } }`;
  const response = await app.request(`/sparql?query=${encodeURIComponent(query)}`);
  expect(response.status).toBe(200);
  const body = (await response.json()) as { results: { bindings: Record<string, { value: string }>[] } };
  return body.results.bindings.map((row) => `${row.v!.value} ${row.d!.value} ${row.c!.value}`).sort();
}

function githubRepo(name: string, overrides: Record<string, unknown> = {}) {
  forge.github.set(name, {
    repo: {
      description: 'Validates RDF graphs against SHACL shapes',
      homepage: 'https://tool.example.org',
      license: { key: 'apache-2.0', name: 'Apache License 2.0', spdx_id: 'Apache-2.0' },
      topics: ['shacl', 'rdf', 'validation'],
      archived: false,
      ...overrides,
    },
    readme: '# Tool\n\n![logo](docs/logo.png)\n',
    releases: [
      {
        tag_name: 'v1.1.0',
        published_at: '2026-03-02T10:00:00Z',
        html_url: `https://github.example/${name}/releases/v1.1.0`,
        draft: false,
      },
      {
        tag_name: 'v1.0.0',
        published_at: '2026-01-15T10:00:00Z',
        html_url: `https://github.example/${name}/releases/v1.0.0`,
        draft: false,
      },
      { tag_name: 'v2.0.0-draft', draft: true },
    ],
  });
}

describe('forge sync from GitHub', () => {
  it('overwrites exactly the managed fields, registers releases, and reports the run', async () => {
    githubRepo('acme/tool');
    const record = await connected(
      { source: 'github', repo: 'acme/tool', fields: ALL_FIELDS, enabled: true },
      { documentation: 'https://docs.example.org/tool', tagline: 'hand-written' },
    );
    expect(record.sync).toMatchObject({
      source: 'github',
      repo: 'acme/tool',
      last_status: 'never',
      last_changed: [],
    });

    const synced = await sync(record.id);
    expect(synced).toMatchObject({
      tagline: 'Validates RDF graphs against SHACL shapes',
      description: 'Validates RDF graphs against SHACL shapes',
      readme: '# Tool\n\n![logo](docs/logo.png)\n',
      readme_base_url: expect.stringMatching(/\/raw\/acme\/tool\/main\/$/),
      homepage: 'https://tool.example.org',
      license: 'https://spdx.org/licenses/Apache-2.0',
      license_label: 'Apache License 2.0',
      keywords: expect.arrayContaining(['SHACL', 'RDF Graphs', 'validation']),
      maturity: 'active',
      image: 'https://avatars.example/acme',
      documentation: 'https://docs.example.org/tool',
      release_count: 2,
      latest_release: { version: '1.1.0', date_published: '2026-03-02' },
    });
    expect(synced.sync).toMatchObject({ last_status: 'ok', enabled: true });
    expect(synced.sync.last_error).toBeUndefined();
    expect(Date.parse(synced.sync.last_synced_at)).not.toBeNaN();
    expect(synced.sync.last_changed).toEqual(
      [...ALL_FIELDS.filter((f) => f !== 'releases'), 'readme_base_url', 'releases'].sort(),
    );

    expect(await releasesOf(synced.iri)).toEqual([
      '1.0.0 2026-01-15 https://github.example/acme/tool/releases/v1.0.0',
      '1.1.0 2026-03-02 https://github.example/acme/tool/releases/v1.1.0',
    ]);

    const audit = listAudit(core.db, { limit: 10 });
    const entry = audit.find((e) => e.action === 'software.sync' && e.target === synced.iri);
    expect(entry?.detail).toMatch(/^ok from github acme\/tool: changed /);
    expect(audit.filter((e) => e.action === 'release.create').length).toBeGreaterThanOrEqual(2);
  });

  it('asks again with If-None-Match, and a changed README changes only the readme', async () => {
    githubRepo('acme/etag');
    const record = await connected({ source: 'github', repo: 'acme/etag', fields: ALL_FIELDS });
    const first = await sync(record.id);
    expect(first.sync.last_status).toBe('ok');

    const before = forge.requests.length;
    const second = await sync(record.id);
    const conditional = requestsSince(before);
    expect(conditional.length).toBe(3); // repository, README, releases
    for (const request of conditional) {
      expect(request.ifNoneMatch, request.path).toMatch(/^"/);
      expect(request.status, request.path).toBe(304);
    }
    expect(second.sync).toMatchObject({ last_status: 'ok', last_changed: [] });
    expect(second.release_count).toBe(2);

    forge.github.get('acme/etag')!.readme = '# Tool\n\nNow with a second paragraph.\n';
    const third = await sync(record.id);
    expect(third.sync).toMatchObject({ last_status: 'ok', last_changed: ['readme'] });
    expect(third.readme).toBe('# Tool\n\nNow with a second paragraph.\n');
    const { readme: _a, modified: _b, sync: _c, ...rest } = third;
    const { readme: _d, modified: _e, sync: _f, ...was } = second;
    expect(rest).toEqual(was);
    expect(third.modified > second.modified).toBe(true);
  });

  it('refuses a licence the registry does not hold and applies nothing', async () => {
    githubRepo('acme/odd', {
      license: { key: 'other', name: 'Made Up', spdx_id: 'Made-Up-1.0' },
      description: 'A new description that must not be applied',
    });
    const record = await connected(
      { source: 'github', repo: 'acme/odd', fields: ['tagline', 'license', 'releases'] },
      { tagline: 'kept', license: 'https://spdx.org/licenses/MIT' },
    );
    const synced = await sync(record.id);
    expect(synced.sync.last_status).toBe('error');
    expect(synced.sync.last_error).toMatch(/nothing was changed/);
    expect(synced.sync.last_error).toMatch(
      /license: <https:\/\/spdx\.org\/licenses\/Made-Up-1\.0> is not a licence/,
    );
    expect(synced.sync.last_changed).toEqual([]);
    expect(synced).toMatchObject({
      tagline: 'kept',
      license: 'https://spdx.org/licenses/MIT',
      release_count: 0,
    });
    const audit = listAudit(core.db, { limit: 1 })[0];
    expect(audit).toMatchObject({ action: 'software.sync', target: synced.iri });
    expect(audit?.detail).toMatch(/^error from github acme\/odd: /);
  });

  it('reports a licence GitHub cannot identify as an error', async () => {
    githubRepo('acme/noassert', { license: { key: 'other', name: 'Other', spdx_id: 'NOASSERTION' } });
    const record = await connected({ source: 'github', repo: 'acme/noassert', fields: ['license'] });
    const synced = await sync(record.id);
    expect(synced.sync).toMatchObject({ last_status: 'error' });
    expect(synced.sync.last_error).toMatch(/not one the forge identifies/);
  });

  it('reports a repository the forge does not have, naming it', async () => {
    const record = await connected({ source: 'github', repo: 'acme/missing', fields: ['tagline'] });
    const synced = await sync(record.id);
    expect(synced.sync.last_status).toBe('error');
    expect(synced.sync.last_error).toMatch(/acme\/missing/);
    expect(synced.sync.last_error).toMatch(/404/);
  });

  it('backs off on a rate-limit answer until its reset, without calling the forge again', async () => {
    githubRepo('acme/busy');
    const record = await connected({ source: 'github', repo: 'acme/busy', fields: ['tagline'] });
    const reset = Math.floor(Date.now() / 1000) + 3600;
    forge.limit = {
      status: 403,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) },
    };
    const limited = await sync(record.id);
    expect(limited.sync.last_status).toBe('error');
    expect(limited.sync.last_error).toMatch(/rate limit/);
    expect(limited.sync.last_error).toContain(new Date(reset * 1000).toISOString());

    forge.limit = undefined;
    const before = forge.requests.length;
    const again = await sync(record.id);
    expect(forge.requests.length).toBe(before);
    expect(again.sync.last_status).toBe('error');
    expect(again.sync.last_error).toMatch(/no request is sent before/);
    // Later tests use the same forge API: lift the recorded limit.
    core.db.prepare('DELETE FROM forge_limit').run();
  });

  it('does not recreate a release that was withdrawn', async () => {
    githubRepo('acme/withdrawn');
    const record = await connected({ source: 'github', repo: 'acme/withdrawn', fields: ['releases'] });
    const first = await sync(record.id);
    expect(first.latest_release.version).toBe('1.1.0');
    const withdrawn = await call(
      app,
      'DELETE',
      `/api/v1/software/${record.id}/releases/${first.latest_release.id}`,
    );
    expect(withdrawn.status).toBe(204);
    const again = await sync(record.id);
    expect(again.sync).toMatchObject({ last_status: 'ok', last_changed: [] });
    expect(again).toMatchObject({ release_count: 1, latest_release: { version: '1.0.0' } });
  });
});

describe('forge sync from GitLab', () => {
  it('syncs a project in a nested group through the v4 API', async () => {
    forge.gitlab.set('lab/tools/mapper', {
      project: {
        description: 'Maps tables to RDF',
        license: { key: 'mit', name: 'MIT License' },
        topics: ['rml', 'rdf'],
        avatar_url: 'https://gitlab.example/uploads/mapper.png',
        archived: true,
      },
      readme: '# Mapper\n',
      readmePath: 'README.md',
      releases: [
        {
          tag_name: '0.3.0',
          released_at: '2026-02-01T00:00:00Z',
          _links: { self: 'https://gitlab.example/lab/tools/mapper/-/releases/0.3.0' },
        },
      ],
    });
    const fields = ['tagline', 'readme', 'license', 'keywords', 'maturity', 'releases', 'image'];
    const record = await connected({ source: 'gitlab', repo: 'lab/tools/mapper', fields });
    const synced = await sync(record.id);
    expect(synced.sync).toMatchObject({ last_status: 'ok' });
    expect(synced).toMatchObject({
      tagline: 'Maps tables to RDF',
      readme: '# Mapper\n',
      readme_base_url: 'https://gitlab.example/lab/tools/mapper/-/raw/main/',
      license: 'https://spdx.org/licenses/MIT',
      keywords: expect.arrayContaining(['Mappings', 'RDF Graphs']),
      maturity: 'unsupported',
      image: 'https://gitlab.example/uploads/mapper.png',
      release_count: 1,
      latest_release: { version: '0.3.0' },
    });
    expect(
      forge.requests.some((r) =>
        r.path.startsWith('/gitlab/api/v4/projects/lab%2Ftools%2Fmapper?license=true'),
      ),
    ).toBe(true);
  });

  it('backs off on 429 with retry-after', async () => {
    forge.gitlab.set('lab/busy', { project: { description: 'x' } });
    const record = await connected({ source: 'gitlab', repo: 'lab/busy', fields: ['tagline'] });
    forge.limit = { status: 429, headers: { 'retry-after': '120' } };
    const started = Date.now();
    const limited = await sync(record.id);
    expect(limited.sync.last_status).toBe('error');
    expect(limited.sync.last_error).toMatch(/GitLab rate limit reached \(429, retry-after 120\)/);
    const until = Date.parse(/resumes after (\S+)$/.exec(limited.sync.last_error)![1]!);
    expect(until).toBeGreaterThanOrEqual(started + 119_000);
    core.db.prepare('DELETE FROM forge_limit').run();
  });
});

describe('sync settings', () => {
  it('refuses fields outside the managed set with 400 listing the allowed ones', async () => {
    const response = await call(app, 'POST', '/api/v1/software', {
      name: 'bad',
      sync: { source: 'github', repo: 'acme/tool', fields: ['tagline', 'name'] },
    });
    const problem = await json(response);
    expect(response.status).toBe(400);
    expect(problem.detail).toContain(
      'the fields a sync may manage are tagline, description, readme, homepage, license, keywords, maturity, releases, image',
    );
    expect(problem.allowed_fields).toEqual(ALL_FIELDS);
  });

  it('refuses an unknown forge, a malformed repo and a homepage from GitLab', async () => {
    const record = await connected({ source: 'github', repo: 'acme/tool', fields: ['tagline'] });
    for (const [patch, pattern] of [
      [{ source: 'bitbucket' }, /sync\.source must be one of github, gitlab/],
      [{ repo: 'acme/tool/extra' }, /sync\.repo must be written owner\/name for github/],
      [
        { source: 'gitlab', repo: 'lab/tool', fields: ['homepage'] },
        /"homepage" cannot be managed by a sync \(gitlab does not provide it\)/,
      ],
    ] as const) {
      const response = await call(app, 'PATCH', `/api/v1/software/${record.id}`, { sync: patch });
      const problem = await json(response);
      expect(response.status, JSON.stringify(problem)).toBe(400);
      expect(problem.detail).toMatch(pattern);
    }
    const nested = await call(app, 'PATCH', `/api/v1/software/${record.id}`, {
      sync: { source: 'gitlab', repo: 'lab/tools/mapper' },
    });
    expect(nested.status).toBe(200);
  });

  it('answers 400 for a record not connected to a repository', async () => {
    const created = await json(await call(app, 'POST', '/api/v1/software', { name: 'plain' }));
    const response = await call(app, 'POST', `/api/v1/software/${created.id}/sync`);
    const problem = await json(response);
    expect(response.status).toBe(400);
    expect(problem.detail).toMatch(/not connected to a repository/);
  });

  it('answers 409 for a record whose sync is disabled, and asks the forge nothing', async () => {
    githubRepo('acme/paused');
    const created = await connected({
      source: 'github',
      repo: 'acme/paused',
      fields: ['tagline'],
      enabled: false,
    });
    const from = forge.requests.length;
    const response = await call(app, 'POST', `/api/v1/software/${created.id}/sync`);
    const problem = await json(response);
    expect(response.status, JSON.stringify(problem)).toBe(409);
    expect(problem.detail).toMatch(/disabled: set sync.enabled to true/);
    expect(requestsSince(from)).toEqual([]);
  });
});

describe('POST /software/{id}/sync authorisation', () => {
  it('lets curators sync; refuses readers and deployments (403) and anonymous callers (401)', async () => {
    githubRepo('acme/authz');
    const record = await connected({ source: 'github', repo: 'acme/authz', fields: ['tagline'] });
    const instance = await json(
      await call(app, 'POST', '/api/v1/instances', { software: record.id, label: 'x' }),
    );
    const minted = await json(await call(app, 'POST', `/api/v1/instances/${instance.id}/tokens`, {}));
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    const path = `/api/v1/software/${record.id}/sync`;
    const before = listAudit(core.db, { limit: 1 })[0]?.id;
    for (const [headers, status] of [
      [{}, 401],
      [bearer(await provider.clientToken('reader-person')), 403],
      [bearer(minted.token), 403],
    ] as const) {
      const response = await app.request(path, { method: 'POST', headers });
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
    }
    expect(listAudit(core.db, { limit: 1 })[0]?.id).toBe(before);
    const curator = await app.request(path, {
      method: 'POST',
      headers: bearer(await provider.clientToken('curator-person')),
    });
    const body = await json(curator);
    expect(curator.status).toBe(200);
    expect(body.sync.last_status).toBe('ok');
    expect(listAudit(core.db, { limit: 1 })[0]).toMatchObject({
      action: 'software.sync',
      actor_kind: 'oidc-human',
    });
  });
});

describe('private repositories', () => {
  const TOKEN = 'forge-secret-0123456789abcdef';
  const GITLAB_TOKEN = 'glpat-secret-0123456789abcdef';

  it('need the forge token, which reaches only its own forge and never shows', async () => {
    forge.github.set('acme/secret', {
      repo: { description: 'Private tool' },
      private: true,
      readme: '# Secret\n',
    });
    forge.gitlab.set('lab/secret', { project: { description: 'Private project' }, private: true });

    // Without a token: the forge says 404, and the record says what is missing.
    const anonymous = await connected({
      source: 'github',
      repo: 'acme/secret',
      fields: ['tagline', 'readme'],
    });
    const refused = await sync(anonymous.id);
    expect(refused.sync.last_status).toBe('error');
    expect(refused.sync.last_error).toMatch(
      /acme\/secret.*private and no forge token is set \(REG_FORGE_TOKEN\)/,
    );

    // With tokens: a second registry, logging everything.
    const lines: string[] = [];
    const withToken = await openCore(
      testConfig({
        REG_FORGE_GITHUB_API: forge.githubApi,
        REG_FORGE_GITLAB_API: forge.gitlabApi,
        REG_FORGE_TOKEN: TOKEN,
        REG_FORGE_GITLAB_TOKEN: GITLAB_TOKEN,
        REG_LOG_LEVEL: 'debug',
      }),
      createLogger('debug', (line) => lines.push(line)),
    );
    try {
      await withToken.graph.open();
      const other = createApp(withToken);
      forge.token = TOKEN;
      const before = forge.requests.length;
      const record = await connected(
        { source: 'github', repo: 'acme/secret', fields: ['tagline', 'readme'] },
        {},
        other,
      );
      const synced = await sync(record.id, other);
      expect(synced.sync.last_status).toBe('ok');
      expect(synced).toMatchObject({ tagline: 'Private tool', readme: '# Secret\n' });
      const github = requestsSince(before).filter((r) => r.path.startsWith('/github/'));
      expect(github.length).toBeGreaterThan(0);
      for (const request of github) expect(request.authorization).toBe(`Bearer ${TOKEN}`);

      // A wrong token is refused by the forge (401); the GitHub token never goes to GitLab.
      forge.token = GITLAB_TOKEN;
      const project = await connected(
        { source: 'gitlab', repo: 'lab/secret', fields: ['tagline'] },
        {},
        other,
      );
      const fromGitlab = await sync(project.id, other);
      expect(fromGitlab).toMatchObject({ tagline: 'Private project', sync: { last_status: 'ok' } });
      const gitlab = forge.requests.filter(
        (r) => r.path.startsWith('/gitlab/') && r.authorization !== undefined,
      );
      expect(gitlab.length).toBeGreaterThan(0);
      for (const request of gitlab) expect(request.authorization).toBe(`Bearer ${GITLAB_TOKEN}`);
      const wrong = await sync(record.id, other);
      expect(wrong.sync.last_error).toMatch(/GitHub refused the credential \(401\)/);

      // Nothing the registry answers or logs carries a token.
      const seen = [
        JSON.stringify(synced),
        JSON.stringify(fromGitlab),
        JSON.stringify(wrong),
        await (await other.request(`/api/v1/software/${record.id}`)).text(),
        await (await other.request(`/software/${record.id}.ttl`)).text(),
        await (await call(other, 'GET', '/api/v1/audit?limit=1000')).text(),
        await (await call(other, 'GET', '/admin/dump')).text(),
        lines.join(''),
      ].join('\n');
      expect(lines.join('')).toContain('forge sync run');
      expect(seen).not.toContain(TOKEN);
      expect(seen).not.toContain(GITLAB_TOKEN);
      const stored = withToken.db
        .prepare('SELECT count(*) AS n FROM forge_response WHERE body LIKE ? OR credential LIKE ?')
        .get(`%${TOKEN}%`, `%${TOKEN}%`) as { n: number };
      expect(stored.n).toBe(0);
    } finally {
      await withToken.close();
    }
  });
});
