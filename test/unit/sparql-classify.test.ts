import { describe, expect, it } from 'vitest';
import { classifySparql } from '../../src/core/discovery/sparql.js';

describe('classifySparql', () => {
  it('finds the query form after comments, BASE and PREFIX declarations', () => {
    expect(classifySparql('SELECT * WHERE { ?s ?p ?o }')).toEqual({ kind: 'query', form: 'SELECT' });
    expect(
      classifySparql('# note\nPREFIX ex: <http://ex.org/a#b>\nbase <http://x/#>\n  ask { ?s ex:p ?o }'),
    ).toEqual({ kind: 'query', form: 'ASK' });
    expect(classifySparql('PREFIX : <http://x/>\nCONSTRUCT WHERE { ?s ?p ?o }')).toEqual({
      kind: 'query',
      form: 'CONSTRUCT',
    });
    expect(classifySparql('describe <http://x>')).toEqual({ kind: 'query', form: 'DESCRIBE' });
  });

  it('recognises updates, even behind a prologue', () => {
    expect(classifySparql('INSERT DATA { <a> <b> <c> }')).toEqual({ kind: 'update' });
    expect(classifySparql('PREFIX ex: <http://ex.org/#> # c\nDELETE WHERE { ?s ?p ?o }')).toEqual({
      kind: 'update',
    });
    expect(classifySparql('WITH <g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }')).toEqual({ kind: 'update' });
    expect(classifySparql('drop all')).toEqual({ kind: 'update' });
  });

  it('calls anything else unknown', () => {
    expect(classifySparql('SELEC ?x')).toEqual({ kind: 'unknown' });
    expect(classifySparql('PREFIX ex <http://x>')).toEqual({ kind: 'unknown' });
    expect(classifySparql('')).toEqual({ kind: 'unknown' });
  });
});
