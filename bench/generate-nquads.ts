import fs from 'node:fs';
import { finished } from 'node:stream/promises';

/** Quads written per generated record. */
export const QUADS_PER_RECORD = 10;

const GRAPH = '<urn:reg:local>';
const BASE = 'http://bench.test';
const RDF_TYPE = '<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>';
const REG = 'https://w3id.org/reg/ns#';
const SCHEMA = 'https://schema.org/';
const DCT = 'http://purl.org/dc/terms/';
const PROV_DERIVED = '<http://www.w3.org/ns/prov#wasDerivedFrom>';
const XSD_DATETIME = '<http://www.w3.org/2001/XMLSchema#dateTime>';
const EPOCH = Date.UTC(2024, 0, 1);

/**
 * Data types the generated capabilities produce: active EDAM data terms the registry bundles, so that each
 * record conforms to today's shapes and vocabulary, as a registry's own dump does (a restore then checks each
 * record on the validator's fast path, and reports none as stranded).
 */
const DATA_TYPES = [
  '0006',
  '0856',
  '0871',
  '0888',
  '0907',
  '0925',
  '0943',
  '0957',
  '0971',
  '0989',
  '0999',
  '1008',
  '1020',
  '1033',
  '1042',
  '1051',
  '1063',
  '1074',
  '1083',
  '1093',
  '1105',
  '1119',
  '1132',
].map((id) => `<http://edamontology.org/data_${id}>`);

/** The IRI of generated record `n`. */
const software = (n: number): string => `<${BASE}/software/${n}>`;

/** The ten N-Quads lines of record `n`, shaped like a registry software record. */
export function recordLines(n: number): string {
  const s = software(n);
  const capability = `<${BASE}/software/${n}#capability>`;
  // Each record derives from one of the ten before it, so lineage chains are long and branching.
  const parent = n === 0 ? `<${BASE}/upstream>` : software(n - 1 - ((n * 7919) % Math.min(n, 10)));
  const created = new Date(EPOCH + n * 60_000).toISOString();
  return [
    `${s} ${RDF_TYPE} <${REG}Software> ${GRAPH} .`,
    `${s} <${SCHEMA}name> "Bench software ${n}" ${GRAPH} .`,
    `${s} <${DCT}description> "Generated record ${n} for the start-up benchmark: parses, converts and publishes data." ${GRAPH} .`,
    `${s} <${DCT}identifier> "bench-${n}" ${GRAPH} .`,
    `${s} <${SCHEMA}keywords> "topic-${n % 97}" ${GRAPH} .`,
    `${s} <${REG}hasCapability> ${capability} ${GRAPH} .`,
    `${capability} ${RDF_TYPE} <${REG}Capability> ${GRAPH} .`,
    `${capability} <${REG}produces> ${DATA_TYPES[n % DATA_TYPES.length]} ${GRAPH} .`,
    `${s} <${DCT}created> "${created}"^^${XSD_DATETIME} ${GRAPH} .`,
    `${s} ${PROV_DERIVED} ${parent} ${GRAPH} .`,
    '',
  ].join('\n');
}

/**
 * Streams `quads` registry-like quads (rounded up to whole records) to `file`, writing about 1 MiB at a time and
 * waiting for the stream to drain, so memory stays flat at any size. Returns the number of quads written.
 */
export async function generateNQuads(
  file: string,
  quads: number,
  onProgress: (written: number) => void = () => undefined,
): Promise<number> {
  const records = Math.ceil(quads / QUADS_PER_RECORD);
  const out = fs.createWriteStream(file);
  let batch: string[] = [];
  let bytes = 0;
  for (let n = 0; n < records; n++) {
    const text = recordLines(n);
    batch.push(text);
    bytes += text.length;
    if (bytes >= 1 << 20 || n === records - 1) {
      if (!out.write(batch.join('')))
        await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      batch = [];
      bytes = 0;
      onProgress((n + 1) * QUADS_PER_RECORD);
    }
  }
  out.end();
  await finished(out);
  return records * QUADS_PER_RECORD;
}
