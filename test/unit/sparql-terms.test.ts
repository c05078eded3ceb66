import { describe, expect, it } from 'vitest';
import { showEndpoint } from '../../src/core/net/http-client.js';
import { normaliseBinding } from '../../src/core/store/graph/sparql-terms.js';
import {
  dataOperations,
  lineOfSolution,
  mayBeRewritten,
  pairRewrites,
} from '../../src/core/store/graph/sparql-terms.js';
import { factory, quadToLine } from '../../src/core/store/nquads.js';

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const G = 'urn:reg:local';

describe('lines and solutions', () => {
  it('turns a solution into the line quadToLine writes for the same quad', () => {
    const { namedNode, literal, quad } = factory;
    const expected = quadToLine(
      quad(
        namedNode('http://a.test/s'),
        namedNode('http://a.test/p'),
        literal('x "y"\n\u0001', 'en-GB'),
        namedNode(G),
      ),
    );
    const line = lineOfSolution(
      { type: 'uri', value: 'http://a.test/s' },
      { type: 'uri', value: 'http://a.test/p' },
      { type: 'literal', value: 'x "y"\n\u0001', 'xml:lang': 'en-GB' },
      G,
    );
    expect(line).toBe(expected);
    expect(
      lineOfSolution(
        { type: 'uri', value: 'http://a.test/s' },
        { type: 'uri', value: 'http://a.test/p' },
        { type: 'typed-literal', value: '5', datatype: `${XSD}integer` },
        G,
      ),
    ).toBe(`<http://a.test/s> <http://a.test/p> "5"^^<${XSD}integer> <${G}> .`);
  });

  it('pairs the forms a server keeps with the forms written, by value', () => {
    const s = '<http://a.test/s>';
    const written = new Set([
      `${s} <http://a.test/flag> "true"^^<${XSD}boolean> <${G}> .`,
      `${s} <http://a.test/at> "2026-01-02T03:04:05.000Z"^^<${XSD}dateTime> <${G}> .`,
      `${s} <http://a.test/size> "100"^^<${XSD}decimal> <${G}> .`,
      `${s} <http://a.test/label> "Hallo"@de-CH <${G}> .`,
      `${s} <http://a.test/name> "same" <${G}> .`,
      `${s} <http://a.test/lost> "gone" <${G}> .`,
    ]);
    const got = new Set([
      `${s} <http://a.test/flag> "1"^^<${XSD}boolean> <${G}> .`,
      `${s} <http://a.test/at> "2026-01-02T03:04:05Z"^^<${XSD}dateTime> <${G}> .`,
      `${s} <http://a.test/size> "100"^^<${XSD}integer> <${G}> .`,
      `${s} <http://a.test/label> "Hallo"@de-ch <${G}> .`,
      `${s} <http://a.test/name> "same" <${G}> .`,
      `${s} <http://a.test/other> "someone else's" <${G}> .`,
    ]);
    const { pairs, missing } = pairRewrites(written, got);
    expect(new Map(pairs)).toEqual(
      new Map([
        [
          `${s} <http://a.test/flag> "1"^^<${XSD}boolean> <${G}> .`,
          `${s} <http://a.test/flag> "true"^^<${XSD}boolean> <${G}> .`,
        ],
        [
          `${s} <http://a.test/at> "2026-01-02T03:04:05Z"^^<${XSD}dateTime> <${G}> .`,
          `${s} <http://a.test/at> "2026-01-02T03:04:05.000Z"^^<${XSD}dateTime> <${G}> .`,
        ],
        [
          `${s} <http://a.test/size> "100"^^<${XSD}integer> <${G}> .`,
          `${s} <http://a.test/size> "100"^^<${XSD}decimal> <${G}> .`,
        ],
        [
          `${s} <http://a.test/label> "Hallo"@de-ch <${G}> .`,
          `${s} <http://a.test/label> "Hallo"@de-CH <${G}> .`,
        ],
      ]),
    );
    expect(missing).toEqual([`${s} <http://a.test/lost> "gone" <${G}> .`]);
    expect(mayBeRewritten(`${s} <http://a.test/flag> "true"^^<${XSD}boolean> <${G}> .`)).toBe(true);
    expect(mayBeRewritten(`${s} <http://a.test/label> "Hallo"@de-CH <${G}> .`)).toBe(true);
    expect(mayBeRewritten(`${s} <http://a.test/name> "ends with \\"@en\\" ." <${G}> .`)).toBe(false);
    expect(mayBeRewritten(`${s} <http://a.test/p> <http://a.test/o> <${G}> .`)).toBe(false);
  });

  it('splits large data blocks into several operations of one request', () => {
    const lines = Array.from(
      { length: 1200 },
      (_, i) => `<http://a.test/s${i}> <http://a.test/p> "${i}" <${G}> .`,
    );
    const operations = dataOperations('INSERT DATA', new Map([[G, lines]]));
    expect(operations).toHaveLength(3);
    expect(operations[0]).toMatch(
      /^INSERT DATA \{\nGRAPH <urn:reg:local> \{\n<http:\/\/a\.test\/s0> <http:\/\/a\.test\/p> "0" \.\n/,
    );
    expect(operations.join('').match(/ \.\n/g)).toHaveLength(1200);
  });
});

describe('answers from a server', () => {
  it('are read in the forms the registry writes', () => {
    expect(
      normaliseBinding({
        b: { type: 'typed-literal', datatype: `${XSD}boolean`, value: '0' },
        t: { type: 'typed-literal', datatype: `${XSD}dateTime`, value: '2026-01-02T03:04:05.1Z' },
        s: { type: 'typed-literal', datatype: `${XSD}string`, value: 'plain' },
        u: { type: 'uri', value: 'http://a.test/x' },
      }),
    ).toEqual({
      b: { type: 'literal', datatype: `${XSD}boolean`, value: 'false' },
      t: { type: 'literal', datatype: `${XSD}dateTime`, value: '2026-01-02T03:04:05.100Z' },
      s: { type: 'literal', value: 'plain' },
      u: { type: 'uri', value: 'http://a.test/x' },
    });
  });

  it('name the endpoint without its credentials or query', () => {
    expect(showEndpoint('https://user:secret@store.example.org:8443/sparql?token=abc')).toBe(
      'https://store.example.org:8443/sparql',
    );
  });
});
