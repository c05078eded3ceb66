import { Hono, type Context } from 'hono';
import { BadRequestError, InvalidEncodingError, NotAcceptableError } from '../../core/errors.js';
import { lineageOptions } from '../../core/provenance/lineage.js';
import { parseLimitedJson } from '../../core/records/json.js';
import { citationOf, CFF_MEDIA_TYPE } from '../../core/packaging/citation.js';
import { codeMetaOf, readSoftwareAndRelease } from '../../core/packaging/codemeta.js';
import { datasetSeries } from '../../core/packaging/dataset-series.js';
import { cratePreview } from '../../core/packaging/preview.js';
import { artifactCrate, runCrate, type CrateDocument } from '../../core/packaging/ro-crate-export.js';
import { importCrate } from '../../core/packaging/ro-crate-import.js';
import { RO_CRATE } from '../../core/packaging/terms.js';
import { readZip, writeZip } from '../../core/packaging/zip.js';
import { preferred } from '../accept.js';
import { readJson } from '../body.js';
import type { AppEnv } from '../env.js';
import type { Mounts } from '../mounts.js';

/** Most entries an archive sent to `POST /api/v1/ro-crate` may list. */
const MAX_ZIP_ENTRIES = 10_000;

/**
 * Packaging formats: a run, or the runs around an artifact, as a Workflow Run RO-Crate (`application/ld+json`, or
 * `application/zip` with `?format=zip` or by `Accept`); a crate recorded as runs (`POST /api/v1/ro-crate`, by a
 * deployment); a software record or release as CodeMeta 3 and as `CITATION.cff`; an artifact series as a DCAT 3
 * dataset series.
 */
export function packagingRoutes(): Mounts {
  const runs = new Hono<AppEnv>();
  runs.get('/:id/ro-crate', async (c) =>
    crateReply(c, await runCrate(c.get('core'), c.req.param('id')), 'run'),
  );
  const artifacts = new Hono<AppEnv>();
  artifacts.get('/:id/ro-crate', async (c) => {
    const options = lineageOptions(c.req.query());
    return crateReply(c, await artifactCrate(c.get('core'), c.req.param('id'), options), 'artifact');
  });
  const crates = new Hono<AppEnv>();
  crates.post('/', async (c) => {
    const document = await crateBody(c);
    const result = await importCrate(c.get('core'), c.get('act'), document);
    return c.json(result, result.created ? 201 : 200);
  });
  const software = new Hono<AppEnv>();
  const codemeta = async (c: Context<AppEnv>) => {
    const read = await readSoftwareAndRelease(
      c.get('core'),
      c.req.param('id') ?? '',
      c.req.param('release_id'),
    );
    return c.body(JSON.stringify(codeMetaOf(read), null, 2), 200, {
      'content-type': 'application/ld+json; charset=utf-8',
    });
  };
  const citation = async (c: Context<AppEnv>) => {
    const read = await readSoftwareAndRelease(
      c.get('core'),
      c.req.param('id') ?? '',
      c.req.param('release_id'),
    );
    return c.body(citationOf(read), 200, { 'content-type': CFF_MEDIA_TYPE });
  };
  for (const path of ['/:id', '/:id/releases/:release_id']) {
    software.get(`${path}/codemeta.json`, codemeta);
    software.get(`${path}/codemeta`, codemeta);
    software.get(`${path}/citation.cff`, citation);
    software.get(`${path}/CITATION.cff`, citation);
  }
  // An artifact series (the versions of one artifact) as a DCAT 3 dataset series.
  const series = new Hono<AppEnv>();
  series.get('/:id', async (c) =>
    c.body(JSON.stringify(await datasetSeries(c.get('core'), c.req.param('id')), null, 2), 200, {
      'content-type': 'application/ld+json; charset=utf-8',
    }),
  );
  return [
    ['/api/v1/artifact-series', series],
    ['/api/v1/runs', runs],
    ['/api/v1/artifacts', artifacts],
    ['/api/v1/ro-crate', crates],
    ['/api/v1/software', software],
  ];
}

/** A crate as JSON-LD or as a ZIP archive holding it and its preview, as `?format=` or `Accept` asks. */
function crateReply(c: Context<AppEnv>, crate: CrateDocument, kind: string): Response {
  const format = c.req.query('format');
  let as: 'json' | 'zip' | undefined;
  if (format === 'zip') as = 'zip';
  else if (format === 'json' || format === 'jsonld') as = 'json';
  else if (format !== undefined && format !== '')
    throw new BadRequestError(`format must be json or zip, not "${format}"`, {
      errors: [{ field: 'format', message: `format must be json or zip, not "${format}"` }],
    });
  else
    as = preferred(c.req.header('accept'), [
      ['json', ['application/ld+json', 'application/json']],
      ['zip', ['application/zip']],
    ] as const);
  if (as === undefined)
    throw new NotAcceptableError('a crate is served as application/ld+json or application/zip');
  const json = JSON.stringify(crate, null, 2);
  if (as === 'json')
    return c.body(json, 200, { 'content-type': 'application/ld+json; charset=utf-8', vary: 'accept' });
  const archive = writeZip(
    [
      { name: RO_CRATE.metadataFile, data: Buffer.from(json, 'utf8') },
      { name: RO_CRATE.previewFile, data: Buffer.from(cratePreview(crate), 'utf8') },
    ],
    new Date(),
  );
  const id = (c.req.param('id') ?? 'crate').replace(/[^A-Za-z0-9._-]/g, '_');
  return c.body(new Uint8Array(archive), 200, {
    'content-type': 'application/zip',
    'content-disposition': `attachment; filename="${kind}-${id}-ro-crate.zip"`,
    vary: 'accept',
  });
}

/**
 * The metadata document of a crate sent as JSON (`application/ld+json` or `application/json`) or as a ZIP
 * archive holding `ro-crate-metadata.json` at its top (or in its one top-level folder), read within the size and
 * depth limits of any JSON body.
 */
async function crateBody(c: Context<AppEnv>): Promise<unknown> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type !== 'application/zip') return readJson(c);
  const core = c.get('core');
  const bytes = Buffer.from(await c.req.arrayBuffer());
  await c.get('largeWrites')?.take(c, bytes.byteLength);
  const entries = readZip(bytes, (name) => /^([^/]+\/)?ro-crate-metadata\.json$/.test(name), {
    maxBytes: core.config.maxPayloadBytes,
    maxEntries: MAX_ZIP_ENTRIES,
  });
  const top = entries.find((entry) => entry.name === RO_CRATE.metadataFile);
  const chosen = top ?? (entries.length === 1 ? entries[0] : undefined);
  if (chosen === undefined)
    throw new BadRequestError(
      entries.length === 0
        ? `the archive holds no ${RO_CRATE.metadataFile}`
        : `the archive holds ${entries.length} ${RO_CRATE.metadataFile} files in different folders; send one crate`,
    );
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(chosen.data);
  } catch {
    throw new InvalidEncodingError(`${chosen.name} in the archive is not valid UTF-8`);
  }
  return parseLimitedJson(
    text,
    core.config.maxJsonDepth,
    (message) => new BadRequestError(`${chosen.name} in the archive is not valid JSON: ${message}`),
  );
}
