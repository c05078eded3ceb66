import { readFileSync } from 'node:fs';
import { DataFactory, Parser, Store } from 'n3';
import { describe, expect, it } from 'vitest';
import { OWL, PREFIXES, RDF, RDFS, REG, SH, XSD } from '../../src/core/ns.js';
import { createValidator, reportTurtle } from '../../src/core/validate/index.js';
import { buildBundles } from '../../src/core/vocab/bundles.js';

const namedNode = (iri: string) => DataFactory.namedNode(iri);
const shapesTtl = readFileSync(new URL('../../shapes/registry-shapes.ttl', import.meta.url), 'utf8');
const vocabTtl = readFileSync(new URL('../../shapes/vocab.ttl', import.meta.url), 'utf8');

function store(turtle: string): Store {
  return new Store(new Parser({ format: 'text/turtle' }).parse(turtle));
}

describe('registry-shapes.ttl', () => {
  const shapes = store(shapesTtl);

  it('parses, and compiles into a validator from Turtle as well as from the bundle', () => {
    expect(shapes.size).toBeGreaterThan(500);
    expect(() => createValidator(shapesTtl)).not.toThrow();
    expect(() => createValidator('<urn:x> <urn:y> <urn:z> .')).toThrow(/jsonField/);
  });

  it('gives every property shape a JSON field and a message that starts with it', () => {
    const propertyShapes = shapes.getObjects(null, namedNode(SH('property')), null);
    expect(propertyShapes.length).toBeGreaterThan(100);
    const problems: string[] = [];
    for (const shape of propertyShapes) {
      const field = shapes.getObjects(shape, namedNode(REG('jsonField')), null)[0]?.value;
      const message = shapes.getObjects(shape, namedNode(SH('message')), null)[0]?.value;
      const path = shapes.getObjects(shape, namedNode(SH('path')), null)[0]?.value;
      if (field === undefined || message === undefined || !message.startsWith(`${field} `)) {
        problems.push(`${path}: field ${field}, message ${message}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('gives every node shape with a node-level constraint a JSON field', () => {
    for (const shape of shapes.getSubjects(namedNode(SH('or')), null, null)) {
      if (shapes.getSubjects(null, null, shape).length > 0) continue; // nested, reported by its parent
      const field = shapes.getObjects(shape, namedNode(REG('jsonField')), null)[0]?.value;
      const message = shapes.getObjects(shape, namedNode(SH('message')), null)[0]?.value ?? '';
      expect(field, shape.value).toBeDefined();
      expect(message.startsWith(`${field} `), shape.value).toBe(true);
    }
  });

  it('uses only registry terms that the registry vocabulary declares', () => {
    const vocab = store(vocabTtl);
    const used = new Set<string>();
    for (const quad of shapes) {
      for (const term of [quad.predicate, quad.object]) {
        if (term.termType === 'NamedNode' && term.value.startsWith(PREFIXES.reg)) used.add(term.value);
      }
    }
    const shapeNames = new Set(
      shapes.getSubjects(namedNode(RDF('type')), namedNode(SH('NodeShape')), null).map((t) => t.value),
    );
    const undeclared = [...used].filter(
      (iri) =>
        !shapeNames.has(iri) &&
        vocab.getQuads(namedNode(iri), namedNode(RDF('type')), null, null).length === 0,
    );
    expect(used.size).toBeGreaterThan(40);
    expect(undeclared).toEqual([]);
    // Retired terms must never be required by a shape.
    const retiredUsed = [...used].filter((iri) =>
      vocab.has(
        DataFactory.quad(
          namedNode(iri),
          namedNode(OWL('deprecated')),
          DataFactory.literal('true', namedNode(XSD('boolean'))),
        ),
      ),
    );
    expect(retiredUsed).toEqual([]);
  });
});

describe('reportTurtle', () => {
  it('writes an sh:ValidationReport with one result per problem, each naming its JSON field', async () => {
    const shapes = buildBundles('https://reg.example.org').find((b) => b.name === 'shapes');
    const validator = createValidator(shapes?.ntriples ?? '');
    const data = new Parser().parse(`
      <https://reg.example.org/software/s1> a <${REG('Software')}> ;
        <https://schema.org/applicationCategory> "daemon" .`);
    const report = await validator.validate(data);
    expect(report.results.map((r) => r.field)).toEqual(['kinds', 'name', 'license']);

    const turtle = reportTurtle(report);
    expect(turtle).toContain('@prefix sh: <http://www.w3.org/ns/shacl#>');
    expect(turtle).toContain('@prefix reg: <https://w3id.org/reg/ns#>');
    const parsed = store(turtle);
    const results = parsed.getObjects(null, namedNode(SH('result')), null);
    expect(results).toHaveLength(3);
    const fields = results
      .map((r) => parsed.getObjects(r, namedNode(REG('jsonField')), null)[0]?.value)
      .sort();
    expect(fields).toEqual(['kinds', 'license', 'name']);
    const conforms = parsed.getObjects(null, namedNode(SH('conforms')), null)[0];
    expect(conforms?.value).toBe('false');
    const kinds = results.find(
      (r) => parsed.getObjects(r, namedNode(REG('jsonField')), null)[0]?.value === 'kinds',
    );
    expect(parsed.getObjects(kinds ?? null, namedNode(SH('value')), null)[0]?.value).toBe('daemon');
    expect(parsed.getObjects(kinds ?? null, namedNode(SH('resultPath')), null)[0]?.value).toBe(
      'https://schema.org/applicationCategory',
    );
    const severities = results.map(
      (r) => parsed.getObjects(r, namedNode(SH('resultSeverity')), null)[0]?.value,
    );
    expect(severities.filter((s) => s === SH('Warning'))).toHaveLength(1);
    expect(parsed.getObjects(null, namedNode(RDFS('label')), null)).toHaveLength(0);
  });

  it('reports an empty report as conforming', () => {
    const parsed = store(reportTurtle({ conforms: true, results: [] }));
    expect(parsed.getObjects(null, namedNode(SH('conforms')), null)[0]?.value).toBe('true');
    expect(parsed.getObjects(null, namedNode(SH('result')), null)).toHaveLength(0);
  });
});
