import ox from 'oxigraph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { hostileCorpus, type HostileCase } from '../hostile/corpus.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';
import { apiOf, artifact } from '../support/api.js';

/*
 * The hostile-input corpus (test/hostile) against a real core: no answer is a 5xx, every refusal is problem+json
 * with a code, a refused request writes nothing, and whatever was stored reads back through a strict parser.
 */

let core: Core;
let app: ReturnType<typeof createApp>;
const fill = new Map<string, string>();
let deploymentToken = '';

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
  const api = apiOf(app);
  const { software, instance, token } = await api.deployment(undefined, 'hostile corpus');
  deploymentToken = token;
  await api.call('POST', `/api/v1/software/${software.id}/releases`, 201, { version: '1.0.0' });
  const advertised = await api.advertise(token, 'produced', 'corpus-fixture', [artifact('corpus fixture')]);
  const subscription = await api.call('POST', `/api/v1/instances/${instance.id}/subscriptions`, 201, {
    label: 'fixture',
  });
  fill.set('{software}', software.id as string);
  fill.set('{software_iri}', software.iri as string);
  fill.set('{instance}', instance.id as string);
  fill.set('{artifact}', (advertised.artifacts[0] as string).split('/').pop()!);
  fill.set('{artifact_iri}', advertised.artifacts[0] as string);
  fill.set('{subscription}', subscription.id as string);
});
afterAll(async () => core.close());

let unique = 0;

/** The text with the fixture's ids in place of their placeholders, and `{unique}` a number of its own. */
function filled(text: string): string {
  let out = text.replaceAll('{unique}', String(100_000_000_000 + ++unique));
  for (const [placeholder, value] of fill) out = out.replaceAll(placeholder, value);
  return out;
}

/** The body with placeholders filled in; raw bytes keep their bytes (placeholders are ASCII). */
function bodyOf(body: string | Uint8Array | undefined): string | Uint8Array | undefined {
  if (body === undefined || typeof body === 'string') return body === undefined ? undefined : filled(body);
  return Buffer.from(filled(Buffer.from(body).toString('latin1')), 'latin1');
}

function headersOf(item: HostileCase): Record<string, string> {
  const headers: Record<string, string> = {};
  if (item.body !== undefined) headers['content-type'] = item.contentType ?? 'application/json';
  if (item.credential === 'root') headers.authorization = `Bearer ${ROOT_TOKEN}`;
  if (item.credential === 'deployment') headers.authorization = `Bearer ${deploymentToken}`;
  return headers;
}

const TABLES = [
  'record',
  'external_record',
  'audit',
  'api_token',
  'subscription',
  'peer',
  'delivery',
  'run_key',
];

/** What a write would change: rows and versions of the records, and rows of the operational tables. */
function snapshot(): string {
  const parts = TABLES.map((table) =>
    JSON.stringify(core.db.prepare(`SELECT count(*) AS n, max(rowid) AS last FROM ${table}`).get()),
  );
  parts.push(JSON.stringify(core.db.prepare('SELECT total(version) AS v FROM record').get()));
  parts.push(JSON.stringify(core.db.prepare('SELECT total(version) AS v FROM external_record').get()));
  return parts.join(' ');
}

/** Why an answer breaks the contract, or undefined when it keeps it. */
function breach(
  item: HostileCase,
  status: number,
  type: string,
  text: string,
  wrote: boolean,
): string | undefined {
  if (status >= 500) return `answered ${status}: ${text.slice(0, 200)}`;
  if (status < 400) {
    return item.expect === 'no-5xx' ? undefined : `was accepted (${status}); expected a refusal`;
  }
  if (!type.startsWith('application/problem+json')) return `refused ${status} as ${type}`;
  const code = (JSON.parse(text) as { code?: unknown }).code;
  if (typeof code !== 'string' || code === '') return `refused ${status} without a code`;
  if (wrote) return `refused ${status} ${code} but wrote`;
  if (typeof item.expect === 'object' && (item.expect.status !== status || item.expect.code !== code))
    return `refused ${status} ${code}; expected ${item.expect.status} ${item.expect.code}`;
  return undefined;
}

/** Runs the corpus once; each test below judges one side of what happened. */
async function runCorpus(): Promise<{ breaches: string[]; refused: number; total: number }> {
  const corpus = hostileCorpus();
  const breaches: string[] = [];
  let refused = 0;
  for (const item of corpus) {
    const before = snapshot();
    const body = bodyOf(item.body);
    const response = await app.request(filled(item.path), {
      method: item.method,
      headers: headersOf(item),
      ...(body === undefined ? {} : { body }),
    });
    const text = await response.text();
    if (response.status >= 400) refused++;
    const type = response.headers.get('content-type') ?? '';
    const problem = breach(item, response.status, type, text, snapshot() !== before);
    if (problem !== undefined) breaches.push(`${item.name.slice(0, 120)}: ${problem}`);
  }
  return { breaches, refused, total: corpus.length };
}

let outcome: Awaited<ReturnType<typeof runCorpus>>;
beforeAll(async () => {
  outcome = await runCorpus();
});

describe('the hostile-input corpus', () => {
  it('is answered below 500, refused as problem+json with a code, and nothing refused is written', () => {
    expect(outcome.total).toBeGreaterThan(500);
    expect(outcome.breaches.slice(0, 40)).toEqual([]);
    expect(outcome.refused).toBeGreaterThan(outcome.total / 2);
  });

  it('leaves only what a strict parser reads: IRIs by RFC 3987, text without lone surrogates or U+FFFD', async () => {
    const rows = core.db.prepare('SELECT nquads FROM record').all() as { nquads: string }[];
    const texts = rows.map((row) => row.nquads);
    for await (const chunk of core.graph.dump({ graph: 'urn:reg:local' })) texts.push(chunk);
    // The fixture and the accepted part of the corpus: hundreds of statements to read back.
    expect(texts.join('').split('\n').length).toBeGreaterThan(500);
    for (const text of texts) {
      expect(() => ox.parse(text, { format: 'application/n-quads' }), text.slice(0, 200)).not.toThrow();
      expect(text).not.toMatch(/\p{Cs}|\ufffd/u);
    }
  });
});
