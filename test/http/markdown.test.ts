import MarkdownIt from 'markdown-it';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';
import { apiOf, artifact, CC_BY, TYPE, type Json } from '../support/api.js';

/*
 * The Markdown representation of record IRIs (`.md`, or Accept: text/markdown): each kind's page holds the
 * values its JSON holds, withdrawn records say so, the entity tag and the Link header behave as for the other
 * forms, and text users wrote cannot add structure or links of its own.
 */

const BASE = 'http://registry.test';
const AUTH = { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' };
const SHA = 'ab'.repeat(32);
let core: Core;
let app: ReturnType<typeof createApp>;
let api: ReturnType<typeof apiOf>;
const records = {} as Record<
  'software' | 'release' | 'instance' | 'run' | 'artifact' | 'type' | 'library' | 'withdrawn',
  Json
>;

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
  api = apiOf(app);
  records.software = await api.call('POST', '/api/v1/software', 201, {
    name: 'Paged tool',
    tagline: 'Turns samples into reports',
    description: 'First paragraph.\n\nSecond paragraph.',
    code_repository: 'https://example.org/paged-tool',
    homepage: 'https://paged.example.org',
    license: 'https://spdx.org/licenses/Apache-2.0',
    kinds: ['service'],
    keywords: ['sequencing'],
    api_docs: [{ url: 'https://paged.example.org/openapi.json', format: 'openapi', title: 'Paged API' }],
    capability: { produces: [TYPE] },
  });
  const softwareId = records.software.id as string;
  records.release = await api.call('POST', `/api/v1/software/${softwareId}/releases`, 201, {
    version: '2.1.0',
    install_command: 'pip install paged-tool==2.1.0',
    downloads: [{ url: 'https://example.org/dl/paged-2.1.0.tar.gz', platform: 'linux' }],
  });
  const { instance, token } = await api.deployment(records.software, 'paged-1');
  records.instance = await api.call('PATCH', `/api/v1/instances/${instance.id}`, 200, {
    endpoint_url: 'https://paged-1.example.org',
  });
  const advertised = await api.advertise(token, 'produced', 'job-paged', [
    artifact('Paged report', {
      license: CC_BY,
      distributions: [
        {
          download_url: 'https://data.example.org/paged-report.csv',
          media_type: 'text/csv',
          availability: 'restricted',
          checksum: { algorithm: 'sha256', value: SHA },
        },
      ],
    }),
  ]);
  records.run = await api.call('GET', `/api/v1/runs/${encodeURIComponent(advertised.run as string)}`, 200);
  records.artifact = await api.call(
    'GET',
    `/api/v1/artifacts/${encodeURIComponent((advertised.artifacts as string[])[0]!)}`,
    200,
  );
  records.type = await api.call('POST', '/api/v1/types', 201, {
    slug: 'paged-table',
    label: 'Paged table',
    definition: 'A table split into pages.',
  });
  records.library = await api.call('POST', '/api/v1/software', 201, {
    name: 'Paged library',
    kinds: ['library'],
    deployable: false,
  });
  records.withdrawn = await api.call('POST', '/api/v1/software', 201, { name: 'Retired tool' });
  await api.call('DELETE', `/api/v1/software/${records.withdrawn.id as string}`, 204);
});
afterAll(async () => core.close());

const pathOf = (record: Json): string => new URL(record.iri as string).pathname;

/** The page at `<IRI>.md`, checked to be the one `Accept: text/markdown` gets too. */
async function page(record: Json): Promise<string> {
  const byExtension = await app.request(`${pathOf(record)}.md`);
  expect(byExtension.status).toBe(200);
  expect(byExtension.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
  expect(byExtension.headers.get('vary')).toBe('Accept');
  const text = await byExtension.text();
  const negotiated = await app.request(pathOf(record), {
    headers: { accept: 'text/html;q=0.5, text/markdown' },
  });
  expect(negotiated.status).toBe(200);
  expect(negotiated.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
  expect(await negotiated.text()).toBe(text);
  return text;
}

/** The lines of one `##` section of a page. */
function section(text: string, heading: string): string {
  const start = text.indexOf(`\n## ${heading}\n`);
  expect(start, `section ${heading}`).toBeGreaterThanOrEqual(0);
  const rest = text.slice(start + heading.length + 5);
  const end = rest.indexOf('\n## ');
  return end < 0 ? rest : rest.slice(0, end);
}

describe('the Markdown page of each kind', () => {
  it('gives a software its title, IRI, other forms and the sections of its JSON', async () => {
    const text = await page(records.software);
    const iri = records.software.iri as string;
    expect(text.startsWith('# Paged tool\n')).toBe(true);
    expect(text).toContain(`IRI: [${iri}](<${iri}>)`);
    for (const extension of ['json', 'ttl', 'jsonld', 'nq', 'html'])
      expect(text).toContain(`(<${iri}.${extension}>)`);
    expect(text).toContain('*Turns samples into reports*');
    expect(text).toContain('Deployable: yes');
    expect(section(text, 'Summary')).toContain(
      '[Apache License 2.0](<https://spdx.org/licenses/Apache-2.0>)',
    );
    expect(section(text, 'Summary')).toContain('- **Keywords:** sequencing');
    expect(section(text, 'Description')).toBe('\n> First paragraph.\n>\n> Second paragraph.\n');
    expect(section(text, 'Where to get it')).toContain('(<https://example.org/paged-tool>)');
    expect(section(text, 'Where to get it')).toContain(`[2.1.0](<${records.release.iri as string}.md>)`);
    expect(section(text, 'Capability')).toContain(`- **Produces:** [Data](<${TYPE}>)`);
    expect(section(text, 'API documentation')).toContain(
      '- [Paged API](<https://paged.example.org/openapi.json>): openapi',
    );
    const json = await api.call('GET', `/api/v1/software/${records.software.id as string}`, 200);
    expect(section(text, 'Activity')).toContain(`- **Deployments:** ${json.instance_count as number}`);
    expect(section(text, 'Activity')).toContain(`- **Runs in the last 30 days:** ${json.runs_30d as number}`);
    expect(section(text, 'Releases')).toContain(
      `${BASE}/api/v1/software/${records.software.id as string}/releases`,
    );
    expect(section(text, 'Deployments')).toContain('1 deployment: [the API list]');
  });

  it('says plainly that software which cannot be deployed cannot be hosted', async () => {
    const text = await page(records.library);
    expect(text).toContain('**Deployable: no — this software cannot be hosted**');
    expect(section(text, 'Deployments')).toContain('Deployable: no — this software cannot be hosted');
    expect(text).not.toContain('Deployable: yes');
  });

  it('gives a release its software, version, install command and downloads', async () => {
    const text = await page(records.release);
    expect(text.startsWith('# Paged tool 2.1.0\n')).toBe(true);
    expect(section(text, 'Release')).toContain(`[Paged tool](<${records.software.iri as string}.md>)`);
    expect(section(text, 'Install')).toContain('```\npip install paged-tool==2.1.0\n```');
    expect(section(text, 'Where to get it')).toContain(
      '- [https://example.org/dl/paged-2.1.0.tar.gz](<https://example.org/dl/paged-2.1.0.tar.gz>) (linux',
    );
  });

  it('gives a deployment its software, endpoint, health and activity', async () => {
    const text = await page(records.instance);
    expect(text.startsWith('# paged-1\n')).toBe(true);
    expect(section(text, 'Deployment')).toContain(`[Paged tool](<${records.software.iri as string}.md>)`);
    expect(section(text, 'Deployment')).toContain(
      '- **Endpoint:** [https://paged-1.example.org](<https://paged-1.example.org>)',
    );
    expect(section(text, 'Health')).toContain('- **Health:** unknown');
    expect(section(text, 'Activity')).toContain('- **Artifacts:** 1');
  });

  it('gives an artifact its type, distributions with availability and digest, and its run', async () => {
    const text = await page(records.artifact);
    expect(text.startsWith('# Paged report\n')).toBe(true);
    expect(section(text, 'Summary')).toContain(`- **Type:** [Data](<${TYPE}>)`);
    expect(section(text, 'Summary')).toContain('- **Availability:** restricted');
    const distributions = section(text, 'Distributions');
    expect(distributions).toContain('(<https://data.example.org/paged-report.csv>)');
    expect(distributions).toContain('  - **Availability:** restricted');
    expect(distributions).toContain('  - **Media type:** text/csv');
    expect(distributions).toContain(`  - **Digest:** sha256 ${SHA}`);
    const [name] = records.artifact.content_identifiers as string[];
    expect(section(text, 'Content identity')).toContain(`- ${name!}`);
    expect(section(text, 'Lineage')).toContain(`(<${records.run.iri as string}.md>)`);
    expect(section(text, 'Lineage')).toContain('/lineage?direction=both');
  });

  it('gives a run its deployment, status, times and what it generated', async () => {
    const text = await page(records.run);
    expect(text.startsWith('# Run job-paged\n')).toBe(true);
    const run = section(text, 'Run');
    expect(run).toContain(`[paged-1](<${records.instance.iri as string}.md>)`);
    expect(run).toContain(`- **Status:** ${records.run.status as string}`);
    expect(run).toContain(`- **Started:** ${records.run.started_at as string}`);
    expect(section(text, 'Used')).toBe('\n0 artifacts.\n');
    expect(section(text, 'Generated')).toContain(
      `- [Paged report](<${records.artifact.iri as string}.md>) (restricted)`,
    );
  });

  it('gives an artifact type its label, where it is held, its count and definition', async () => {
    const text = await page(records.type);
    expect(text.startsWith('# Paged table\n')).toBe(true);
    expect(text).toContain('Artifact type · IRI:');
    expect(section(text, 'Type')).toContain('- **Held:** local');
    expect(section(text, 'Type')).toContain('- **Artifacts of this type:** 0');
    expect(section(text, 'Definition')).toContain('> A table split into pages.');
  });

  it('marks a withdrawn record, which still dereferences', async () => {
    const text = await page(records.withdrawn);
    expect(text).toMatch(/^# Retired tool\n\n> \*\*Withdrawn\.\*\*/);
    expect(await page(records.software)).not.toContain('Withdrawn.**');
  });

  it('answers an unknown id with a 404 problem', async () => {
    for (const path of ['/software/0190aaaa-0000-7000-8000-000000000000.md', '/run/no-such-run.md']) {
      const response = await app.request(path);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(((await response.json()) as Json).code).toBe('not-found');
    }
    const negotiated = await app.request('/artifact/0190aaaa-0000-7000-8000-000000000000', {
      headers: { accept: 'text/markdown' },
    });
    expect(negotiated.status).toBe(404);
  });
});

describe('entity tags and links of the Markdown page', () => {
  it('answers 304 for the page the client holds, and 200 once something it shows changed', async () => {
    const cached = await api.call('POST', '/api/v1/software', 201, { name: 'Cached tool' });
    const path = `${pathOf(cached)}.md`;
    const first = await app.request(path);
    const tag = first.headers.get('etag') as string;
    const version = (
      (await app.request(pathOf(cached), { headers: { accept: 'application/json' } })).headers.get(
        'etag',
      ) as string
    ).slice(1, -1);
    expect(tag).toMatch(new RegExp(`^"${version}\\.md\\.[A-Za-z0-9_-]{16}"$`));
    const again = await app.request(path, { headers: { 'if-none-match': tag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(tag);
    expect(await again.text()).toBe('');
    // A new release changes the page (its counts) but not the stored software record.
    await api.call('POST', `/api/v1/software/${cached.id as string}/releases`, 201, {
      version: '1.0.0',
    });
    const changed = await app.request(path, { headers: { 'if-none-match': tag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(tag);
    expect(section(await changed.text(), 'Releases')).toContain('1 release; the latest is [1.0.0]');
  });

  it('is a tag an edit may name in If-Match, as the tag of any form of the version', async () => {
    const created = await api.call('POST', '/api/v1/software', 201, { name: 'Tagged by its page' });
    const tag = (await app.request(`${pathOf(created)}.md`)).headers.get('etag') as string;
    const path = `/api/v1/software/${created.id as string}`;
    const patch = (description: string) =>
      app.request(path, {
        method: 'PATCH',
        headers: { ...AUTH, 'if-match': tag },
        body: JSON.stringify({ description }),
      });
    expect((await patch('first edit')).status).toBe(200);
    expect((await patch('second edit')).status).toBe(412);
  });

  it('names the Markdown page as an alternate in the Link header of the IRI and the API read', async () => {
    const iri = records.artifact.iri as string;
    const alternate = `<${iri}.md>; rel="alternate"; type="text/markdown"`;
    expect((await app.request(`${pathOf(records.artifact)}.md`)).headers.get('link')).toContain(alternate);
    expect((await app.request(pathOf(records.artifact))).headers.get('link')).toContain(alternate);
    const read = await app.request(`/api/v1/artifacts/${records.artifact.id as string}`);
    expect(read.headers.get('link')).toContain(alternate);
  });
});

describe('text users wrote', () => {
  const HOSTILE_NAME = 'Evil](javascript:alert(1)) # `tick` <script>alert(2)</script> *bold* & &amp; |x|';
  const HOSTILE_TEXT = [
    '# Not a heading',
    '- not a list',
    '1. not a list either',
    '[a link](https://evil.example.org) and ![an image](https://evil.example.org/x.png)',
    '<img src=x onerror=alert(3)>',
    '    not code',
    '```',
    'still text',
    '===',
  ].join('\n');

  it('cannot add headings, links, images, HTML or code to a page', async () => {
    const software = await api.call('POST', '/api/v1/software', 201, {
      name: HOSTILE_NAME,
      tagline: 'Tag [line](javascript:alert(4))',
      description: HOSTILE_TEXT,
      readme: HOSTILE_TEXT,
    });
    const text = await page(software);
    const tokens = new MarkdownIt({ html: true }).parse(text, {});
    const flat = tokens.flatMap((token) => [token, ...(token.children ?? [])]);
    const hrefs = flat
      .filter((token) => token.type === 'link_open')
      .map((token) => String(token.attrGet('href') ?? ''));
    for (const href of hrefs) expect(href).toMatch(/^(http:\/\/registry\.test\/|https:\/\/spdx\.org\/)/);
    expect(flat.filter((token) => token.type === 'image')).toEqual([]);
    expect(flat.filter((token) => token.type.startsWith('html'))).toEqual([]);
    expect(flat.filter((token) => ['code_inline', 'code_block', 'fence'].includes(token.type))).toEqual([]);
    expect(
      flat.filter((token) => token.type.startsWith('bullet_list') || token.type.startsWith('ordered_list'))
        .length,
    ).toBeGreaterThan(0);
    const headings = tokens
      .map((token, index) =>
        token.type === 'heading_open'
          ? `${token.tag} ${token.tag === 'h1' ? '' : tokens[index + 1]!.content}`
          : undefined,
      )
      .filter((heading) => heading !== undefined);
    expect(headings).toEqual([
      'h1 ',
      'h2 Summary',
      'h2 Description',
      'h2 Activity',
      'h2 Releases',
      'h2 Deployments',
      'h2 README',
    ]);
    // A renderer that turns bare URLs into links shows each such link as its own URL, never as other text.
    const linkified = new MarkdownIt({ linkify: true })
      .parse(text, {})
      .flatMap((token) => token.children ?? [])
      .flatMap((token, index, all) =>
        token.type === 'link_open' && !/^http:\/\/registry\.test\//.test(String(token.attrGet('href') ?? ''))
          ? [{ href: String(token.attrGet('href') ?? ''), label: all[index + 1]?.content }]
          : [],
      );
    expect(linkified.length).toBeGreaterThan(0);
    for (const { href, label } of linkified) expect(decodeURI(href)).toBe(label);
    // Read back as Markdown, each value is the text the user wrote.
    const rendered = new MarkdownIt().renderInline(text.split('\n')[0]!.slice(2));
    expect(rendered).toContain('Evil](javascript:alert(1)) # `tick` &lt;script&gt;');
    // No list of the user's own: every list item is one the page writes.
    const description = section(text, 'Description');
    expect(description.split('\n').filter((line) => line.startsWith('>'))).toHaveLength(9);
    expect(description).toContain('> \\# Not a heading');
    expect(description).toContain('> \\- not a list');
    expect(description).toContain('> 1\\. not a list either');
  });
});
