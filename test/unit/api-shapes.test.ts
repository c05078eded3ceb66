import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACK_RESULT,
  CONTENT_IDENTITY,
  DIGEST_IDENTITY,
  ADVERTISE_ANSWER,
  AGENT,
  DELIVERY_PAGE,
  MINTED_TOKEN,
  PEER_LIST,
  SUBSCRIPTION_DETAIL,
  SUBSCRIPTION_LIST,
  SUBSCRIPTION_WRITTEN,
  TOKEN_LIST,
  WHOAMI,
  CAPABILITY_MATCHES,
  GRAPH_ANSWER,
  LINEAGE_ANSWER,
  LIST_PAGE,
  PROBLEM,
  READ_SHAPES,
  readSchema,
  REGISTRY_DESCRIPTION,
  SEARCH_ANSWER,
  TERM,
  VOCAB_HIT,
  WARNINGS,
  type JsonSchema,
} from '../../src/api/index.js';
import type { Core } from '../../src/core/core.js';
import { DEREFERENCEABLE, KINDS } from '../../src/core/records/kind-registry.js';
import { AGENT_FIELDS } from '../../src/core/records/mapper.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT } from '../helpers.js';
import { apiOf, type Json } from '../support/api.js';

/**
 * Where a JSON value departs from a schema of `src/api`: a member the schema does not declare (objects are
 * closed unless they say `additionalProperties`), a required member missing, a value of another type or outside
 * its `enum`/`const`. Empty when the value fits.
 */
function departures(value: unknown, schema: JsonSchema, at = '$'): string[] {
  if (schema.anyOf !== undefined) {
    const each = schema.anyOf.map((option) => departures(value, option, at));
    return each.some((found) => found.length === 0)
      ? []
      : [`${at}: fits none of anyOf (${each.flat().join('; ')})`];
  }
  if (schema.const !== undefined && value !== schema.const)
    return [`${at}: is ${JSON.stringify(value)}, not const`];
  if (schema.enum !== undefined && !schema.enum.includes(value as string))
    return [`${at}: ${JSON.stringify(value)} is not one of ${schema.enum.join(', ')}`];
  const types =
    schema.type === undefined ? [] : typeof schema.type === 'string' ? [schema.type] : schema.type;
  const kind =
    value === null
      ? 'null'
      : Array.isArray(value)
        ? 'array'
        : typeof value === 'number'
          ? Number.isInteger(value)
            ? 'integer'
            : 'number'
          : typeof value;
  if (types.length > 0 && !types.some((type) => type === kind || (type === 'number' && kind === 'integer')))
    return [`${at}: is ${kind}, declared ${types.join(' or ')}`];
  if (Array.isArray(value) && schema.items !== undefined)
    return value.flatMap((item, index) => departures(item, schema.items!, `${at}[${index}]`));
  if (kind === 'object' && schema.properties !== undefined) {
    const object = value as Record<string, unknown>;
    const found: string[] = [];
    for (const [member, item] of Object.entries(object)) {
      const declared = schema.properties[member];
      if (declared !== undefined) found.push(...departures(item, declared, `${at}.${member}`));
      else if (schema.additionalProperties !== true) found.push(`${at}.${member}: not declared`);
    }
    for (const member of schema.required ?? [])
      if (!(member in object)) found.push(`${at}.${member}: missing`);
    return found;
  }
  return [];
}

/** A page of a list whose items fit `items`. */
const page = (items: JsonSchema): JsonSchema => ({
  ...LIST_PAGE,
  properties: { ...LIST_PAGE.properties, items: { type: 'array', items } },
});

/** The schema of a record kind as a read returns it. */
function recordRead(kind: keyof typeof READ_SHAPES): JsonSchema {
  const spec = KINDS.find((entry) => entry.kind === kind)?.spec;
  if (spec === undefined) throw new Error(`no spec for ${kind}`);
  return readSchema(spec, READ_SHAPES[kind]);
}

const TYPE = 'http://edamontology.org/data_0006';
const FOREIGN = 'https://other-registry.example.org/artifact/01J7ZQK8W0RXAB3M2C7YQ1V4TD';
const SHA = 'a'.repeat(64);

let core: Core;
let api: ReturnType<typeof apiOf>;
const read: Record<string, Json> = {};
const answers: Record<string, Json> = {};

beforeAll(async () => {
  core = await openTestCore({}, true);
  api = apiOf(createApp(core));
  const { call, send, advertise } = api;
  const topic = core.reference.index.termsOfClass('https://w3id.org/reg/ns#ResearchTopic')[0]!.iri;
  const software = await call('POST', '/api/v1/software', 201, {
    name: 'shape-checker',
    tagline: 'Holds answers to their declared shapes',
    kinds: ['library', 'service'],
    license: 'https://spdx.org/licenses/Apache-2.0',
    topics: [topic],
    keywords: ['shapes'],
    homepage: 'https://example.org/shape-checker',
    screenshots: ['https://example.org/shot.png'],
    publisher: { name: 'Example Lab', kind: 'organization', identifier: 'https://ror.org/02jz4aj89' },
    contact: { name: 'Ada', kind: 'person', email: 'ada@example.org' },
    api_docs: [{ url: 'https://example.org/openapi.json', format: 'openapi', title: 'API' }],
    capability: { produces: [TYPE], consumes: [] },
    colour: 'blue',
  });
  answers.softwareWrite = software;
  const release = await call('POST', `/api/v1/software/${software.id}/releases`, 201, {
    version: '1.0.0',
    date_published: '2026-01-31',
    downloads: [
      { url: 'https://example.org/shape-checker-1.0.0.tar.gz', availability: 'public', byte_size: 10 },
    ],
    capability: { produces: [TYPE] },
  });
  const { instance, token } = await api.deployment(software, 'shapes.example.org');
  await call('PATCH', `/api/v1/instances/${instance.id}`, 200, {
    release: release.iri,
    endpoint_url: 'https://shapes.example.org/api',
    operator: { name: 'Example Lab', kind: 'organization' },
    availability: 'public',
    allowed_scopes: ['advertise:produce', 'advertise:consume'],
    capability: { consumes: [TYPE] },
  });
  const produced = await advertise(token, 'produced', 'ci/1', [
    {
      title: 'Shapes report',
      conforms_to: TYPE,
      keywords: ['report'],
      distributions: [
        {
          download_url: 'https://data.example.org/report.ttl',
          media_type: 'text/turtle',
          checksum: { algorithm: 'SHA-256', value: SHA },
          availability: 'restricted',
        },
      ],
      produced_by: { name: 'shape-checker', version: '1.0.0' },
      produced_by_user: { name: 'Ada', identifier: 'https://orcid.org/0000-0002-1825-0097' },
      creators: [{ name: 'Ada', kind: 'person' }],
    },
  ]);
  answers.advertise = produced;
  const consumed = await advertise(token, 'consumed', 'ci/2', [
    { iri: produced.artifacts[0] },
    { iri: FOREIGN },
  ]);
  const type = await call('POST', '/api/v1/types', 201, { label: 'Shapes report', slug: 'shapes-report' });
  read.software = await call('GET', `/api/v1/software/${software.id}`, 200);
  read.release = await call('GET', `/api/v1/software/${software.id}/releases/${release.id}`, 200);
  read.instance = await call('GET', `/api/v1/instances/${instance.id}`, 200);
  read.run = await call('GET', `/api/v1/runs/${encodeURIComponent(consumed.run)}`, 200);
  read.artifact = await call('GET', `/api/v1/artifacts/${encodeURIComponent(produced.artifacts[0])}`, 200);
  read.type = await call('GET', `/api/v1/types/${type.id}`, 200);
  read.bundledType = await call('GET', `/api/v1/types/${encodeURIComponent(TYPE)}`, 200);
  answers.softwareList = await call('GET', '/api/v1/software?limit=1', 200);
  answers.releaseList = await call('GET', `/api/v1/software/${software.id}/releases`, 200);
  answers.instanceList = await call('GET', '/api/v1/instances', 200);
  answers.runList = await call('GET', '/api/v1/runs', 200);
  answers.artifactList = await call('GET', '/api/v1/artifacts', 200);
  answers.typeList = await call('GET', '/api/v1/types', 200);
  answers.search = await call('GET', '/api/v1/search?q=shape', 200);
  answers.lineage = await call(
    'GET',
    `/api/v1/artifacts/${encodeURIComponent(produced.artifacts[0])}/lineage?depth=2`,
    200,
  );
  answers.graph = await call('GET', `/api/v1/graph?iri=${encodeURIComponent(consumed.run)}`, 200);
  answers.capabilities = await call('GET', `/api/v1/capabilities?produces=${encodeURIComponent(TYPE)}`, 200);
  answers.vocab = await call('GET', '/api/v1/vocab/search?q=data', 200);
  answers.registry = await call('GET', '/.well-known/reg-registry', 200, undefined, null);
  answers.notFound = await api.expectStatus(await send('GET', '/api/v1/software/no-such-software'), 404);
  answers.refused = await api.expectStatus(await send('POST', '/api/v1/software', { name: 7 }), 422);
  answers.tokenMinted = await call('POST', `/api/v1/instances/${instance.id}/tokens`, 201, {
    label: 'shapes',
  });
  answers.tokenList = await call('GET', `/api/v1/instances/${instance.id}/tokens`, 200);
  answers.whoamiRoot = await call('GET', '/api/v1/whoami', 200);
  answers.whoamiDeployment = await call('GET', '/api/v1/whoami', 200, undefined, token);
  answers.whoamiAnonymous = await call('GET', '/api/v1/whoami', 200, undefined, null);
  const subscriptions = `/api/v1/instances/${instance.id}/subscriptions`;
  answers.subscriptionWritten = await call(
    'POST',
    subscriptions,
    201,
    { label: 'shapes', filter: { conforms_to: [TYPE], exclude_own: false } },
    token,
  );
  const subscription = `/api/v1/subscriptions/${answers.subscriptionWritten.subscription.id}`;
  await advertise(token, 'produced', 'ci/3', [{ title: 'Another report', conforms_to: TYPE }]);
  answers.deliveries = await call('GET', `${subscription}/deliveries`, 200, undefined, token);
  answers.ack = await call(
    'POST',
    `${subscription}/deliveries/ack`,
    200,
    { cursor: answers.deliveries.next_cursor },
    token,
  );
  answers.subscriptionList = await call('GET', subscriptions, 200, undefined, token);
  answers.subscriptionDetail = await call('GET', subscription, 200, undefined, token);
  answers.peers = await call('GET', '/api/v1/peers', 200);
  answers.identify = await call('GET', `/api/v1/identify?id=sha256:${SHA}`, 200);
  answers.digestIdentity = await call('GET', `/api/v1/artifacts/identify?algorithm=sha256&value=${SHA}`, 200);
});
afterAll(async () => core.close());

describe('the answers of the API fit the shapes src/api declares', () => {
  it('declares a read shape for every record kind the API serves', () => {
    expect(Object.keys(READ_SHAPES).sort()).toEqual([...DEREFERENCEABLE.keys()].sort());
  });

  it.each(['software', 'release', 'instance', 'run', 'artifact', 'type'] as const)(
    'a %s read carries only the members its shape declares, and all it says are always there',
    (kind) => {
      expect(departures(read[kind], recordRead(kind))).toEqual([]);
    },
  );

  it('reads of records exercise the members the read shapes add', () => {
    expect(read.software!.topics[0]).toMatchObject({ source: 'bundled' });
    expect(read.software!.capability.produces).toHaveLength(1);
    expect(read.instance!.software_name).toBe('shape-checker');
    expect(read.run!.used.some((ref: Json) => ref.unresolved === true)).toBe(true);
    expect(read.artifact!.produced_by).toMatchObject({ name: 'shape-checker' });
    expect(departures(read.bundledType, recordRead('type'))).toEqual([]);
  });

  it('list pages hold records of their kind', () => {
    for (const [answer, kind] of [
      ['softwareList', 'software'],
      ['releaseList', 'release'],
      ['instanceList', 'instance'],
      ['runList', 'run'],
      ['artifactList', 'artifact'],
      ['typeList', 'type'],
    ] as const) {
      expect(answers[answer]!.items.length, answer).toBeGreaterThan(0);
      expect(departures(answers[answer], page(recordRead(kind))), answer).toEqual([]);
    }
    expect(answers.softwareList!.facets.length).toBeGreaterThan(0);
  });

  it('search, lineage, the graph, capability matches and vocabulary hits fit their envelopes', () => {
    expect(answers.search!.hits.length).toBeGreaterThan(0);
    expect(departures(answers.search, SEARCH_ANSWER)).toEqual([]);
    expect(answers.lineage!.nodes.length).toBeGreaterThan(1);
    expect(departures(answers.lineage, LINEAGE_ANSWER)).toEqual([]);
    expect(answers.graph!.edges.length).toBeGreaterThan(0);
    expect(departures(answers.graph, GRAPH_ANSWER)).toEqual([]);
    expect(answers.capabilities!.items.length).toBeGreaterThan(0);
    expect(departures(answers.capabilities, CAPABILITY_MATCHES)).toEqual([]);
    expect(answers.vocab!.items.length).toBeGreaterThan(0);
    expect(departures(answers.vocab, page(VOCAB_HIT))).toEqual([]);
    expect(departures(answers.registry, REGISTRY_DESCRIPTION)).toEqual([]);
  });

  it('tokens, who the caller is, subscriptions with their deliveries, peers and content identity fit theirs', () => {
    expect(departures(answers.tokenMinted, MINTED_TOKEN)).toEqual([]);
    expect(answers.tokenList!.items.length).toBeGreaterThan(1);
    expect(departures(answers.tokenList, TOKEN_LIST)).toEqual([]);
    for (const who of [answers.whoamiRoot, answers.whoamiDeployment, answers.whoamiAnonymous])
      expect(departures(who, WHOAMI)).toEqual([]);
    expect(answers.whoamiDeployment!.instance).not.toBeNull();
    expect(departures(answers.subscriptionWritten, SUBSCRIPTION_WRITTEN)).toEqual([]);
    expect(answers.deliveries!.items.length).toBe(1);
    expect(answers.deliveries!.items[0].notification).not.toBeNull();
    expect(departures(answers.deliveries, DELIVERY_PAGE)).toEqual([]);
    expect(departures(answers.ack, ACK_RESULT)).toEqual([]);
    expect(answers.subscriptionList!.items).toHaveLength(1);
    expect(departures(answers.subscriptionList, SUBSCRIPTION_LIST)).toEqual([]);
    expect(answers.subscriptionDetail!.recent_deliveries).toHaveLength(1);
    expect(departures(answers.subscriptionDetail, SUBSCRIPTION_DETAIL)).toEqual([]);
    expect(departures(answers.peers, PEER_LIST)).toEqual([]);
    expect(answers.identify!.matches.length).toBeGreaterThan(0);
    expect(departures(answers.identify, CONTENT_IDENTITY)).toEqual([]);
    expect(departures(answers.digestIdentity, DIGEST_IDENTITY)).toEqual([]);
  });

  it('writes answer with their warnings, advertisements with the advertisement envelope', () => {
    expect(answers.softwareWrite!.warnings).toHaveLength(1);
    const { warnings, ...record } = answers.softwareWrite!;
    expect(departures({ warnings }, WARNINGS)).toEqual([]);
    expect(departures(record, recordRead('software'))).toEqual([]);
    expect(departures(answers.advertise, ADVERTISE_ANSWER)).toEqual([]);
  });

  it('problems fit the problem envelope, field errors included', () => {
    expect(departures(answers.notFound, PROBLEM)).toEqual([]);
    expect(answers.refused!.errors.length).toBeGreaterThan(0);
    expect(departures(answers.refused, PROBLEM)).toEqual([]);
  });

  it('declares the members an agent and a term may have as the mapper and the term reader write them', () => {
    expect(Object.keys(AGENT.properties).sort()).toEqual([...AGENT_FIELDS].sort());
    expect(Object.keys(TERM.properties).sort()).toEqual(['definition', 'iri', 'label', 'source']);
  });

  it('finds a member a shape does not declare, and a required one missing', () => {
    const { origin: _origin, ...withoutOrigin } = read.software!;
    expect(departures({ ...read.software, colour: 'blue' }, recordRead('software'))).toEqual([
      '$.colour: not declared',
    ]);
    expect(departures(withoutOrigin, recordRead('software'))).toEqual(['$.origin: missing']);
  });
});

/** Every TypeScript file under a folder, relative to the repository root. */
function sources(folder: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.tsx?$/.test(name))
    .map((name) => path.join(folder, name))
    .sort();
}

/** The names `src/api` exports. */
const API_NAMES = new Set(
  sources('src/api').flatMap((file) =>
    [
      ...fs.readFileSync(path.join(ROOT, file), 'utf8').matchAll(/export (?:type|interface|const) (\w+)/g),
    ].map(([, name]) => name!),
  ),
);

/** Names the client and the page used for their own copies of the API's shapes. */
const RETIRED = [
  'Agent',
  'ApiDoc',
  'ApiGraph',
  'ApiLineage',
  'ApiLineageNode',
  'ApiRun',
  'ApiRunLink',
  'Artifact',
  'ArtifactRef',
  'ArtifactType',
  'Capability',
  'Distribution',
  'Download',
  'Instance',
  'InstanceRecord',
  'LineageJson',
  'Origin',
  'Page',
  'RecordJson',
  'Release',
  'Run',
  'SearchJson',
  'Software',
  'SoftwareItem',
  'SoftwareRecord',
  'TermRef',
  'TypeRef',
  'AdvertiseResultJson',
];

describe('the CLI client and the web page take the API shapes from src/api', () => {
  it('declares no interface or type of its own for a record or an answer of the API', () => {
    expect(API_NAMES.has('SoftwareJson') && API_NAMES.has('Problem') && API_NAMES.has('ListPage')).toBe(true);
    const offenders = [...sources('src/cli/client'), ...sources('ui/src')].flatMap((file) =>
      [
        ...fs
          .readFileSync(path.join(ROOT, file), 'utf8')
          .matchAll(/^\s*(?:export\s+)?(?:interface\s+(\w+)|type\s+(\w+)\s*(?:<[^=]*>)?\s*=)/gm),
      ]
        .map(([, iface, alias]) => (iface ?? alias)!)
        .filter((name) => API_NAMES.has(name) || RETIRED.includes(name))
        .map((name) => `${file}: ${name}`),
    );
    expect(offenders).toEqual([]);
  });

  it('keeps src/api importable by the web page: no Node module, and only types from the rest of the code', () => {
    for (const file of sources('src/api')) {
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      for (const [statement, from] of text.matchAll(/^(?:import|export)[^;]*?from '([^']+)';/gms)) {
        expect(from, `${file}: ${statement}`).not.toMatch(/^node:|^[^.]/);
        if (!from!.startsWith('./')) expect(statement, file).toMatch(/^import type /);
      }
    }
  });

  it('reads record and answer types from src/api', () => {
    const importers = [...sources('src/cli/client'), ...sources('ui/src')].filter((file) =>
      /from '(?:\.\.\/)+(?:src\/)?api\/index\.js'/.test(fs.readFileSync(path.join(ROOT, file), 'utf8')),
    );
    expect(importers).toEqual(expect.arrayContaining(['src/cli/client/registry.ts', 'ui/src/api.ts']));
  });
});
