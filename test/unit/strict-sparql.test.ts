import { describe, expect, it } from 'vitest';
import { nonStandard } from '../support/strict-sparql.js';

/* The checker every external-store test runs on what the registry sent: standard text passes, vendor text fails. */
describe('the strict SPARQL 1.1 check', () => {
  it('passes standard queries and updates', () => {
    expect(
      nonStandard({
        kind: 'query',
        text: 'SELECT ?s WHERE { GRAPH <urn:g> { ?s ?p ?o FILTER(?o > 1) } } ORDER BY DESC(?s) LIMIT 10',
      }),
    ).toBeUndefined();
    expect(
      nonStandard({ kind: 'update', text: 'INSERT DATA { GRAPH <urn:g> { <urn:s> <urn:p> "o" } }' }),
    ).toBeUndefined();
    expect(
      nonStandard({
        kind: 'update',
        text: 'DELETE WHERE { GRAPH <urn:g> { <urn:s> ?p ?o } }; DROP SILENT GRAPH <urn:h>',
      }),
    ).toBeUndefined();
  });

  it('fails Virtuoso pragmas, built-in functions, SPARQL-star and undeclared prefixes', () => {
    expect(
      nonStandard({ kind: 'query', text: 'DEFINE input:inference "r" SELECT * WHERE { ?s ?p ?o }' }),
    ).toBeDefined();
    expect(
      nonStandard({ kind: 'query', text: 'SELECT * WHERE { ?s ?p ?o . ?o bif:contains "x" }' }),
    ).toBeDefined();
    expect(nonStandard({ kind: 'query', text: 'SELECT * WHERE { << ?s ?p ?o >> ?q ?r }' })).toBeDefined();
    expect(
      nonStandard({ kind: 'update', text: 'INSERT DATA { <urn:s> <urn:p> "o" } LIMIT 5' }),
    ).toBeDefined();
  });

  it('fails a request sent as the other kind', () => {
    expect(nonStandard({ kind: 'update', text: 'SELECT * WHERE { ?s ?p ?o }' })).toMatch(/parses as a query/);
    expect(nonStandard({ kind: 'query', text: 'CLEAR GRAPH <urn:g>' })).toMatch(/parses as an update/);
  });
});
