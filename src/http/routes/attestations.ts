import { Hono } from 'hono';
import {
  artifactAttestations,
  attestationBytes,
  ingestAttestation,
  runAttestations,
} from '../../core/provenance/attestations.js';
import type { AppEnv } from '../env.js';
import type { Mounts } from '../mounts.js';
import { readJsonBytes } from '../body.js';
import { replyJson } from '../reply.js';

/**
 * Build attestations: `POST /api/v1/attestations` takes an in-toto statement, a DSSE envelope or a Sigstore bundle
 * as JSON (201 when recorded, 200 when the same statement was received before); `GET /api/v1/attestations/{id}`
 * serves it back byte for byte with its media type; runs and artifacts list the attestations that speak of them.
 */
export function attestationRoutes(): Mounts {
  const attestations = new Hono<AppEnv>();
  attestations.post('/', async (c) => {
    // Kept as the bytes received, so that a signature over them can be checked again later.
    const bytes = await readJsonBytes(c);
    const result = await ingestAttestation(c.get('core'), c.get('act'), bytes);
    return replyJson(c, result, result.replayed ? 200 : 201);
  });
  attestations.get('/:id', (c) => {
    const { body, mediaType } = attestationBytes(c.get('core'), c.req.param('id'));
    return c.body(new Uint8Array(body), 200, { 'content-type': mediaType });
  });
  const runs = new Hono<AppEnv>();
  runs.get('/:id/attestations', async (c) =>
    replyJson(c, await runAttestations(c.get('core'), c.req.param('id'))),
  );
  const artifacts = new Hono<AppEnv>();
  artifacts.get('/:id/attestations', async (c) =>
    replyJson(c, await artifactAttestations(c.get('core'), c.req.param('id'))),
  );
  return [
    ['/api/v1/attestations', attestations],
    ['/api/v1/runs', runs],
    ['/api/v1/artifacts', artifacts],
  ];
}
