import ox from 'oxigraph';
import { describe, expect, it } from 'vitest';
import { limitSolutions, scanQuery } from '../../src/core/discovery/sparql-scan.js';

/** Runs a query on an empty oxigraph store: it throws on a syntax error. */
function parses(query: string): boolean {
  new ox.Store().query(query);
  return true;
}

describe('scanQuery', () => {
  it('measures nesting over groups, brackets and parentheses, not over text in literals, IRIs or comments', () => {
    expect(scanQuery('SELECT * WHERE { { ?s ?p [ ?q (1 2) ] } }').depth).toBe(4);
    const quoted = `SELECT * WHERE { ?s ?p "{{{{ ((" . ?s ?p '''}}}
]]''' . ?s ?p <http://x/(([[> # {{{{{{
}`;
    expect(scanQuery(quoted).depth).toBe(1);
  });

  it('counts syntax elements after the prologue, leaving out VALUES data', () => {
    const prologue = 'PREFIX a: <http://a/> PREFIX b: <http://b/#x>\nBASE <http://c/>\n';
    expect(scanQuery(`${prologue}ASK { ?s a:p ?o }`).tokens).toBe(6);
    const values = scanQuery('SELECT ?x WHERE { VALUES (?x ?y) { (1 2) (3 4) (5 UNDEF) } }');
    // SELECT ?x WHERE { VALUES ( ?x ?y ) } }, the data block's contents not counted.
    expect(values.tokens).toBe(11);
    expect(values.trailingValues).toBeUndefined();
  });

  it('finds SERVICE as a keyword only', () => {
    expect(scanQuery('SELECT * { SeRvIcE <http://x> { ?s ?p ?o } }').service).toBe(true);
    expect(scanQuery('SELECT * { ?s <http://x/SERVICE> "SERVICE", ex:SERVICE, ?service }').service).toBe(
      false,
    );
  });

  it('finds the top-level LIMIT and a trailing VALUES, not those of a subquery', () => {
    const text =
      'SELECT * { { SELECT ?s { ?s ?p ?o } LIMIT 5 } } ORDER BY ?s LIMIT 70 OFFSET 2 VALUES ?s { <x> }';
    const shape = scanQuery(text);
    expect(text.slice(shape.limit!.start, shape.limit!.end)).toBe('70');
    expect(shape.limit!.value).toBe(70);
    expect(text.slice(shape.trailingValues)).toBe('VALUES ?s { <x> }');
  });
});

describe('limitSolutions', () => {
  const cap = (text: string, n: number) => limitSolutions(text, scanQuery(text), n);

  it('adds a LIMIT that a trailing comment cannot swallow, before a trailing VALUES', () => {
    const commented = cap('SELECT * { ?s ?p ?o } # the end', 11);
    expect(commented).toBe('SELECT * { ?s ?p ?o } # the end\nLIMIT 11\n');
    expect(parses(commented)).toBe(true);
    const values = cap('SELECT * { ?s ?p ?o } OFFSET 3 VALUES ?s { <http://x> }', 11);
    expect(values).toContain('OFFSET 3 \nLIMIT 11\nVALUES');
    expect(parses(values)).toBe(true);
  });

  it('lowers a larger LIMIT and keeps a smaller one', () => {
    expect(cap('SELECT * { ?s ?p ?o } LIMIT 500', 11)).toBe('SELECT * { ?s ?p ?o } LIMIT 11');
    expect(cap('SELECT * { ?s ?p ?o } limit 4', 11)).toBe('SELECT * { ?s ?p ?o } limit 4');
  });

  it('gives every query form a LIMIT the engine accepts', () => {
    for (const query of [
      'CONSTRUCT WHERE { ?s ?p ?o }',
      'CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o } ORDER BY ?s',
      'DESCRIBE <http://example.org/x>',
      'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }',
      'SELECT ?p (COUNT(*) AS ?n) WHERE { ?s ?p ?o } GROUP BY ?p HAVING (COUNT(*) > 1)',
    ])
      expect(parses(cap(query, 10)), query).toBe(true);
  });
});
