import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { ArtifactJson, ListPage } from '../../api/index.js';
import { MalformedInputError } from '../../core/errors.js';
import { NAMING_ALGORITHMS } from '../../core/records/content-id.js';
import type { HttpClient } from './http.js';
import { listPath } from './registry.js';
import { LookupError, tailOf } from './runs.js';
import type { Column } from './table.js';
import type { DigestIdentity } from '../../api/index.js';

export type { ArtifactJson } from '../../api/index.js';

/** The checksum algorithms whose digests name content (RFC 6920), as `reg artifacts identify` takes them. */
export const CONTENT_ALGORITHMS: readonly string[] = Object.keys(NAMING_ALGORITHMS);

/** The digest of some local bytes: what identifying them sends instead of the bytes. */
export interface LocalDigest {
  readonly algorithm: string;
  readonly hex: string;
  readonly byteSize: number;
}

/** The result of `reg artifacts identify`: the local bytes, their content identifier and the artifacts that carry it. */
export interface IdentifyResult {
  readonly source: string;
  readonly byte_size: number;
  readonly content_identifier: string;
  readonly algorithm: string;
  readonly digest_hex: string;
  readonly items: readonly ArtifactJson[];
  readonly total: number;
}

/**
 * Digests a file, or standard input when the name is `-`, as a stream: the bytes never leave this process and
 * a file of any size costs constant memory. An unreadable source is malformed input (exit 5).
 */
export async function digestSource(source: string, algorithm: string): Promise<LocalDigest> {
  const hash = createHash(algorithm);
  let byteSize = 0;
  const where = source === '-' ? 'standard input' : source;
  try {
    if (source === '-') {
      if (process.stdin.isTTY === true) throw new Error('it is a terminal; pipe the bytes in');
    } else if (!(await fs.promises.stat(source)).isFile()) {
      throw new Error('it is not a regular file');
    }
    const stream = source === '-' ? process.stdin : fs.createReadStream(source);
    for await (const chunk of stream) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      byteSize += bytes.length;
      hash.update(bytes);
    }
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new MalformedInputError(`${where} cannot be read: ${reason}`);
  }
  return { algorithm, hex: hash.digest('hex'), byteSize };
}

/**
 * Asks the registry for the content identifier of a digest (`POST /api/v1/artifacts/identify`), then for
 * every artifact with a distribution of that content. None is a 404 LookupError naming the identifier.
 */
export async function identifyContent(
  http: HttpClient,
  source: string,
  digest: LocalDigest,
): Promise<IdentifyResult> {
  const identity = await http.request<DigestIdentity>('POST', '/api/v1/artifacts/identify', {
    body: { algorithm: digest.algorithm, value: digest.hex },
  });
  const page = await listPath<ArtifactJson>(
    http,
    '/api/v1/artifacts',
    { content: identity.content_identifier, limit: 200 },
    true,
  );
  if (page.items.length === 0) {
    throw new LookupError(
      404,
      'not-found',
      `no artifact of this registry carries ${identity.content_identifier} (${source === '-' ? 'standard input' : source})`,
    );
  }
  return {
    source,
    byte_size: digest.byteSize,
    content_identifier: identity.content_identifier,
    algorithm: identity.algorithm,
    digest_hex: identity.digest_hex,
    items: page.items,
    total: page.total,
  };
}

/** One page of artifacts, or every page with `all`. */
export function listArtifacts(
  http: HttpClient,
  query: Readonly<Record<string, string | number | undefined>>,
  all: boolean,
): Promise<ListPage<ArtifactJson>> {
  return listPath<ArtifactJson>(http, '/api/v1/artifacts', query, all);
}

/** One artifact by id or IRI. */
export function getArtifact(http: HttpClient, id: string): Promise<ArtifactJson> {
  return http.request<ArtifactJson>('GET', `/api/v1/artifacts/${encodeURIComponent(id)}`);
}

/** Columns of `reg artifacts list` and `reg artifacts identify`. */
export const ARTIFACT_COLUMNS: readonly Column<ArtifactJson>[] = [
  { header: 'TITLE', value: (row) => row.title, min: 16 },
  { header: 'TYPE', value: (row) => row.conforms_to?.label ?? tailOf(row.conforms_to?.iri), min: 8 },
  { header: 'AVAILABILITY', value: (row) => row.availability },
  { header: 'ISSUED', value: (row) => row.issued ?? row.created, min: 10 },
  { header: 'RUN', value: (row) => tailOf(row.was_generated_by), min: 12 },
  { header: 'ID', value: (row) => row.id, min: 36 },
];
