import { describe, expect, it } from 'vitest';
import * as activity from '../../src/core/records/activity-specs.js';
import {
  COUNTED_KINDS,
  DEREFERENCEABLE,
  KINDS,
  kindOfClass,
  recordIri,
  SEARCH_KINDS,
  SEARCH_READER,
} from '../../src/core/records/kind-registry.js';
import { kindOfTypes } from '../../src/core/records/kinds.js';
import type { RecordSpec } from '../../src/core/records/schema.js';
import * as specs from '../../src/core/records/specs.js';
import * as typeSpecs from '../../src/core/records/type-specs.js';
import { kindOfLines } from '../../src/core/ops/restore-sink.js';
import { GRAPHS, RDFS, REG, SCHEMA } from '../../src/core/ns.js';
import { parseNQuads } from '../../src/core/store/nquads.js';

/** Every record spec the mapper knows: exported objects with a kind and a minted path. */
const RECORD_SPECS = [
  ...Object.values(specs),
  ...Object.values(activity),
  ...Object.values(typeSpecs),
].filter(
  (value): value is RecordSpec =>
    typeof value === 'object' && value !== null && 'kind' in value && 'path' in value && 'types' in value,
);

describe('the record kinds, declared once', () => {
  it('declares every record spec, each under its own kind and marked by a class of its own', () => {
    expect(RECORD_SPECS.length).toBeGreaterThanOrEqual(8);
    for (const spec of RECORD_SPECS) expect(KINDS.find((entry) => entry.spec === spec)?.kind).toBe(spec.kind);
    const markers = KINDS.map((entry) => entry.marker);
    expect(new Set(markers).size).toBe(markers.length);
    for (const entry of KINDS) expect(kindOfClass(entry.marker)).toBe(entry.kind);
  });

  it('derives where records dereference, what is counted and how an id becomes an IRI', () => {
    expect([...DEREFERENCEABLE.keys()].sort()).toEqual([
      'artifact',
      'instance',
      'release',
      'run',
      'software',
      'type',
    ]);
    expect(DEREFERENCEABLE.get('instance')).toMatchObject({ segment: 'instance', aliases: ['instances'] });
    expect(COUNTED_KINDS.map(([kind]) => kind)).toEqual([
      'software',
      'release',
      'instance',
      'artifact',
      'run',
    ]);
    expect(recordIri('https://reg.example', 'run', 'abc')).toBe('https://reg.example/run/abc');
    expect(recordIri('https://reg.example', 'run', 'https://other.example/run/1')).toBe(
      'https://other.example/run/1',
    );
    expect(() => recordIri('https://reg.example', 'software', 'not an id')).toThrow(
      /software must be a registry id/,
    );
  });

  it('gives a restored record the kind the write path stores, artifact series included', () => {
    const series = 'https://reg.example/artifact-series/s1';
    const line = `<${series}> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <${activity.ARTIFACT_SERIES.types[0]}> <urn:reg:local> .`;
    expect(kindOfLines(series, [line])).toBe(activity.ARTIFACT_SERIES.kind);
    expect(kindOfTypes([...specs.SOFTWARE.types])).toBe('software');
  });

  it('derives what search finds and reads from the fields each kind declares, legacy predicates included', () => {
    expect(SEARCH_KINDS).toEqual(['software', 'instance', 'artifact', 'run']);
    expect(SEARCH_READER.kinds).toEqual(SEARCH_KINDS);
    const run = 'https://reg.example/run/r1';
    const quads = parseNQuads(
      [
        `<${run}> <${RDFS('label')}> "nightly build" <${GRAPHS.local}> .`,
        `<${run}> <${SCHEMA('identifier')}> "job-42" <${GRAPHS.local}> .`,
        `<${run}> <${REG('externalKey')}> "legacy-key" <${GRAPHS.local}> .`,
      ].join('\n'),
    );
    const entry = SEARCH_READER.entryOf(GRAPHS.local, run, 'run', quads);
    expect(entry).toMatchObject({ kind: 'run', title: 'nightly build', body: 'job-42\nlegacy-key' });
    expect(SEARCH_READER.entryOf(GRAPHS.local, run, 'release', quads)).toBeUndefined();
    expect(SEARCH_READER.entryOf('urn:reg:other', run, 'run', quads)).toBeUndefined();
  });
});
