import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';
import { apiOf, artifact, type Json } from '../support/api.js';

/*
 * /llms.txt: the registry described for language models, with its catalogue read through the API's own lists,
 * so that what it counts and leaves out (withdrawn records) agrees with them.
 */

const BASE = 'http://registry.test';
const LONG_TAGLINE = `A library ${'with a very long tagline '.repeat(12)}that ends here`;
let core: Core;
let app: ReturnType<typeof createApp>;
let api: ReturnType<typeof apiOf>;
let text: string;
let response: Response;
const records = {} as Record<'library' | 'hostile' | 'withdrawn' | 'instance' | 'advertised', Json>;

beforeAll(async () => {
  core = await openTestCore({ REG_OPERATOR: 'Example Institute' }, true);
  app = createApp(core);
  api = apiOf(app);
  records.library = await api.call('POST', '/api/v1/software', 201, {
    name: 'Listed library',
    tagline: LONG_TAGLINE,
    deployable: false,
  });
  records.hostile = await api.call('POST', '/api/v1/software', 201, {
    name: 'Tool](javascript:alert(1)) <b>bold</b>\n## injected',
    description: 'First line of the description\n\n# Not a heading',
  });
  records.withdrawn = await api.call('POST', '/api/v1/software', 201, { name: 'Withdrawn tool' });
  await api.call('DELETE', `/api/v1/software/${records.withdrawn.id as string}`, 204);
  const { instance, token } = await api.deployment(undefined, 'listed-deployment');
  records.instance = instance;
  const artifacts = Array.from({ length: 25 }, (_, index) => artifact(`Listed artifact ${index + 1}`));
  records.advertised = await api.advertise(token, 'produced', 'job-listed', artifacts);
  await api.advertise(token, 'produced', 'job-listed-2', [artifact('One more report')]);
  response = await app.request('/llms.txt');
  text = await response.text();
});
afterAll(async () => core.close());

/** The lines of one `##` section. */
function section(heading: string): string[] {
  const start = text.indexOf(`\n## ${heading}\n`);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const rest = text.slice(start + heading.length + 5);
  const end = rest.indexOf('\n## ');
  return (end < 0 ? rest : rest.slice(0, end)).split('\n').filter((line) => line !== '');
}

/** The list items of one section, as [label, target, note]. */
function entries(heading: string): [string, string, string][] {
  return section(heading)
    .filter((line) => line.startsWith('- '))
    .map((line) => {
      const match = /^- \[(.*)\]\(<([^>]*)>\)(?:: (.*))?$/.exec(line);
      expect(match, line).not.toBeNull();
      return [match![1]!, match![2]!, match![3] ?? ''];
    });
}

describe('/llms.txt', () => {
  it('is Markdown in the llms.txt layout: title, summary, then sections of links', () => {
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    const lines = text.split('\n');
    expect(lines[0]).toBe('# reg registry of Example Institute');
    expect(lines[1]).toBe('');
    expect(lines[2]).toMatch(/^> A registry of software.*, operated by Example Institute\.$/);
    expect(lines.filter((line) => line.startsWith('# '))).toHaveLength(1);
    expect(lines.filter((line) => line.startsWith('## '))).toEqual([
      '## Entry points',
      '## Software',
      '## Deployments',
      '## Artifacts',
      '## Runs',
    ]);
  });

  it('says how to read records and which rules an agent keeps', () => {
    const preamble = text.slice(0, text.indexOf('\n## '));
    expect(preamble).toContain('Append `.md` to a record IRI (or send `Accept: text/markdown`)');
    expect(preamble).toContain('`.ttl`');
    expect(preamble).toContain(`[${BASE}/api/v1](<${BASE}/api/v1>)`);
    expect(preamble).toContain('Never invent a type IRI');
    expect(preamble).toContain('vocabulary search');
    expect(preamble).toContain('Leave out what you cannot confirm');
    expect(preamble).toContain('"Withdrawn" is history');
    expect(preamble).toContain('Deployable: no — this software cannot be hosted');
  });

  it('names the entry points', () => {
    expect(entries('Entry points').map(([name, target]) => `${name} ${target}`)).toEqual([
      `Search ${BASE}/api/v1/search?q=`,
      `SPARQL ${BASE}/sparql`,
      `Vocabulary search ${BASE}/api/v1/vocab/search?q=`,
      `MCP server ${BASE}/mcp`,
      `OpenAPI description ${BASE}/api/v1/openapi.json`,
      `Registry description ${BASE}/.well-known/reg-registry`,
    ]);
  });

  it('lists the software the API lists, never a withdrawn one, each a link to its Markdown page', async () => {
    const listed = await api.call('GET', '/api/v1/software?registry=local&limit=100', 200);
    expect(listed.total).toBe(3);
    const software = entries('Software');
    expect(section('Software')[0]).toBe(
      `All ${listed.total as number}. Page through all of them with [the API list](<${BASE}/api/v1/software?registry=local>).`,
    );
    expect(software.map(([, target]) => target)).toEqual(
      (listed.items as Json[]).map((item) => `${item.iri as string}.md`),
    );
    expect(text).not.toContain('Withdrawn tool');
    expect(text).not.toContain(records.withdrawn.iri as string);
    const library = software.find(([name]) => name === 'Listed library')!;
    expect(library[2].startsWith('Deployable: no. A library with a very long tagline')).toBe(true);
    expect([...library[2]].length).toBeLessThanOrEqual(160);
    expect(library[2].endsWith('…')).toBe(true);
  });

  it('writes user text in notes and names as escaped single lines', () => {
    const hostile = entries('Software').find(
      ([, target]) => target === `${records.hostile.iri as string}.md`,
    )!;
    expect(hostile[0]).toBe('Tool\\]\\(javascript:alert\\(1\\)\\) \\<b\\>bold\\</b\\> \\#\\# injected');
    expect(hostile[2]).toBe('First line of the description');
    expect(text).not.toContain('](javascript:');
    expect(text.split('\n').filter((line) => line.startsWith('## injected'))).toEqual([]);
  });

  it('says how many of how many artifacts it shows: the newest 20, as the API lists them', async () => {
    const listed = await api.call('GET', '/api/v1/artifacts?registry=local&limit=20', 200);
    expect(listed.total).toBe(26);
    expect(section('Artifacts')[0]).toBe(
      `The most recent 20 of 26. Page through all of them with [the API list](<${BASE}/api/v1/artifacts?registry=local>).`,
    );
    const artifacts = entries('Artifacts');
    expect(artifacts).toHaveLength(20);
    expect(artifacts.map(([, target]) => target)).toEqual(
      (listed.items as Json[]).map((item) => `${item.iri as string}.md`),
    );
    expect(artifacts[0]![0]).toBe('One more report');
    expect(artifacts[0]![2]).toMatch(/^Data, public, \d{4}-/);
  });

  it('lists deployments and runs with their notes', () => {
    const deployments = entries('Deployments');
    expect(deployments).toEqual([
      [
        'listed-deployment',
        `${records.instance.iri as string}.md`,
        'deployment of software of listed-deployment; health unknown',
      ],
    ]);
    expect(section('Runs')[0]).toMatch(/^All 2\. /);
    const runs = entries('Runs');
    expect(runs.map(([name]) => name)).toEqual(['Run job-listed-2', 'Run job-listed']);
    expect(runs[1]![1]).toBe(`${records.advertised.run as string}.md`);
    expect(runs[1]![2]).toMatch(/^success by listed-deployment, started \d{4}-/);
  });

  it('is named in the registry description, with the hint for Markdown records', async () => {
    const description = await api.call('GET', '/.well-known/reg-registry', 200, undefined, null);
    expect(description.llms_txt).toBe(`${BASE}/llms.txt`);
    expect(description.record_markdown).toBe('append .md to any record IRI, or send Accept: text/markdown');
  });
});

describe('/llms.txt of a registry whose reads are not public', () => {
  it('needs a credential like the API', async () => {
    const closed = await openTestCore({ REG_PUBLIC_READ: 'false' }, true);
    try {
      const closedApp = createApp(closed);
      const anonymous = await closedApp.request('/llms.txt');
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('content-type')).toBe('application/problem+json');
      expect(((await anonymous.json()) as Json).status).toBe(401);
      const signedIn = await closedApp.request('/llms.txt', {
        headers: { authorization: `Bearer ${ROOT_TOKEN}` },
      });
      expect(signedIn.status).toBe(200);
      const body = await signedIn.text();
      expect(body).toMatch(/^# reg registry\n/);
      // An empty registry says so rather than listing nothing.
      expect(body).toContain(
        `## Runs\n\nNone yet; [the API list](<${BASE}/api/v1/runs?registry=local>) will list them.\n`,
      );
    } finally {
      await closed.close();
    }
  });
});

describe('/llms.txt of a large catalogue', () => {
  // 101 writes take about half a minute on the external store, so this test has more time than the default.
  it('lists the first 100 software and says of how many', async () => {
    const large = await openTestCore({}, true);
    try {
      const largeApi = apiOf(createApp(large));
      for (let index = 1; index <= 101; index += 1)
        await largeApi.call('POST', '/api/v1/software', 201, { name: `Tool ${index}` });
      const answer = await createApp(large).request('/llms.txt');
      const body = await answer.text();
      const software = body.slice(body.indexOf('\n## Software\n'), body.indexOf('\n## Deployments\n'));
      expect(software).toContain('The first 100 of 101. Page through all of them with');
      const listed = software.split('\n').filter((line) => line.startsWith('- ['));
      expect(listed).toHaveLength(100);
      // Newest first, as the API lists them: the first registered is the one left out.
      expect(listed[0]).toMatch(/^- \[Tool 101\]/);
      expect(software).not.toContain('[Tool 1]');
    } finally {
      await large.close();
    }
  }, 120_000);
});
