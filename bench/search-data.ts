import fs from 'node:fs';
import { finished } from 'node:stream/promises';
import { BASE_IRI } from './reg-cli.js';

/*
 * A generated registry for the search figures: equal numbers of software, deployments, artifacts and runs, with
 * titles and descriptions drawn from small word lists, so that queries of every selectivity exist (one hit, a
 * few hundred, tens of thousands) and capabilities that a matchmaking query finds tens of records for.
 */

const G = '<urn:reg:local>';
const P = {
  type: '<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>',
  name: '<https://schema.org/name>',
  abstract: '<http://purl.org/dc/terms/abstract>',
  description: '<http://purl.org/dc/terms/description>',
  title: '<http://purl.org/dc/terms/title>',
  label: '<http://www.w3.org/2000/01/rdf-schema#label>',
  identifier: '<http://purl.org/dc/terms/identifier>',
  hasCapability: '<https://w3id.org/reg/ns#hasCapability>',
  produces: '<https://w3id.org/reg/ns#produces>',
  consumes: '<https://w3id.org/reg/ns#consumes>',
  instanceOf: '<https://w3id.org/reg/ns#instanceOf>',
  status: '<https://w3id.org/reg/ns#status>',
  conformsTo: '<http://purl.org/dc/terms/conformsTo>',
  associated: '<http://www.w3.org/ns/prov#wasAssociatedWith>',
  started: '<http://www.w3.org/ns/prov#startedAtTime>',
};
const C = {
  software: '<https://w3id.org/reg/ns#Software>',
  instance: '<https://w3id.org/reg/ns#Instance>',
  capability: '<https://w3id.org/reg/ns#Capability>',
  dataset: '<http://www.w3.org/ns/dcat#Dataset>',
  activity: '<http://www.w3.org/ns/prov#Activity>',
};

const ADJECTIVES = [
  'fast',
  'lazy',
  'robust',
  'tiny',
  'parallel',
  'streaming',
  'open',
  'secure',
  'smart',
  'deep',
];
const NOUNS = [
  'aligner',
  'validator',
  'converter',
  'mapper',
  'indexer',
  'annotator',
  'assembler',
  'profiler',
];
const TOPICS = ['genomics', 'proteomics', 'ontology', 'imaging', 'climate', 'linked data', 'metabolomics'];
const OUTPUTS = ['variant', 'quality', 'coverage', 'validation', 'alignment', 'mapping'];
const SITES = ['cluster', 'cloud', 'laptop', 'campus', 'edge'];

/** Number of artifact types capabilities are drawn from: a matchmaking query finds about records/4/400×1.25. */
export const TYPE_COUNT = 400;

/** The IRI of generated artifact type `k`. */
export const typeIri = (k: number): string => `${BASE_IRI}/type/t${k}`;

const pick = <T>(list: readonly T[], n: number): T => list[n % list.length]!;
const literal = (text: string): string => JSON.stringify(text);

/** The name of generated software `n`, as a query for one exact hit would ask for it. */
export const softwareName = (n: number): string =>
  `${pick(ADJECTIVES, n)}-${pick(NOUNS, Math.floor(n / ADJECTIVES.length))}-${n}`;

/** The N-Quads lines of the `n`th group of four records: a software, a deployment of it, a run and an artifact. */
function group(n: number): string[] {
  const software = `<${BASE_IRI}/software/s${n}>`;
  const capability = `<${BASE_IRI}/software/s${n}#capability>`;
  const instance = `<${BASE_IRI}/instance/i${n}>`;
  const run = `<${BASE_IRI}/run/r${n}>`;
  const artifact = `<${BASE_IRI}/artifact/a${n}>`;
  const topic = pick(TOPICS, n * 3);
  const name = softwareName(n);
  const lines = [
    [software, P.type, C.software],
    [software, P.name, literal(name)],
    [software, P.abstract, literal(`A ${pick(ADJECTIVES, n * 7)} ${pick(NOUNS, n)} for ${topic} data`)],
    [software, P.description, literal(`Generated record ${n}: reads, checks and publishes ${topic} files.`)],
    [software, P.hasCapability, capability],
    [capability, P.type, C.capability],
    [capability, P.produces, `<${typeIri(n % TYPE_COUNT)}>`],
    [capability, P.consumes, `<${typeIri((n * 7 + 3) % TYPE_COUNT)}>`],
    [instance, P.type, C.instance],
    [instance, P.label, literal(`${name} on the ${pick(SITES, n)}`)],
    [instance, P.description, literal(`Deployment ${n} serving ${topic} requests`)],
    [instance, P.instanceOf, software],
    [run, P.type, C.activity],
    [run, P.label, literal(`nightly ${topic} run ${n}`)],
    [run, P.identifier, literal(`gh-actions/${n}/attempt-1`)],
    [run, P.status, literal('success')],
    [run, P.associated, instance],
    [run, P.started, '"2026-01-01T00:00:00Z"^^<http://www.w3.org/2001/XMLSchema#dateTime>'],
    [artifact, P.type, C.dataset],
    [artifact, P.title, literal(`${pick(OUTPUTS, n * 5)} report ${n}`)],
    [artifact, P.description, literal(`Output of ${name} for ${topic}`)],
    [artifact, P.conformsTo, `<${typeIri(n % TYPE_COUNT)}>`],
  ];
  if (n % 4 === 0) {
    const own = `<${BASE_IRI}/instance/i${n}#capability>`;
    lines.push([instance, P.hasCapability, own], [own, P.type, C.capability]);
    lines.push([own, P.produces, `<${typeIri(n % TYPE_COUNT)}>`]);
  }
  return lines.map((parts) => `${parts.join(' ')} ${G} .`);
}

/** Writes `records` records (rounded up to groups of four) to `file`; returns the number of quads. */
export async function generateSearchData(file: string, records: number): Promise<number> {
  const out = fs.createWriteStream(file);
  let quads = 0;
  let chunk: string[] = [];
  for (let n = 0; n < Math.ceil(records / 4); n++) {
    const lines = group(n);
    quads += lines.length;
    chunk.push(...lines);
    if (chunk.length >= 20_000) {
      if (!out.write(`${chunk.join('\n')}\n`))
        await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      chunk = [];
    }
  }
  out.end(`${chunk.join('\n')}\n`);
  await finished(out);
  return quads;
}

/** A query mix of every kind of match, `n` varying the record it aims at. */
export function searchQuery(n: number, groups: number): string {
  const target = (n * 7919) % groups;
  const queries = [
    softwareName(target), // one exact title
    `${pick(ADJECTIVES, n)}-${pick(NOUNS, n)}`.slice(0, 8), // a title prefix shared by thousands
    pick(NOUNS, n), // a word of thousands of titles
    pick(NOUNS, n + 3).slice(2, 7), // a substring of thousands of titles
    pick(TOPICS, n), // only in descriptions (and run labels)
    `gh-actions/${target}/`, // one run, by its identifier
    `${pick(OUTPUTS, n)} report`, // two words
    pick(ADJECTIVES, n).slice(0, 2), // two characters
    `zq${n}xv`, // nothing
  ];
  return queries[n % queries.length]!;
}
