import { Hono } from 'hono';
import { requireAdmin } from '../../core/access/policy.js';
import { BadRequestError } from '../../core/errors.js';
import { listAuditEntries } from '../../core/ops/audit.js';
import { dumpDataset } from '../../core/ops/dump.js';
import {
  BACKUP_MANIFEST_HEADER,
  BACKUP_MEDIA_TYPE,
  backupFileName,
  prepareBackup,
} from '../../core/ops/backup.js';
import { Readable } from 'node:stream';
import type { AppEnv } from '../env.js';
import type { Mounts } from '../mounts.js';

/** Administrator endpoints: the live dump, the whole-registry backup and the audit log. */
export function adminRoutes(): Mounts {
  const admin = new Hono<AppEnv>();
  const audit = new Hono<AppEnv>();
  admin.get('/dump', (c) => {
    requireAdmin(c.get('principal'));
    const graph = c.req.query('graph');
    const chunks = dumpDataset(c.get('core'), graph === undefined ? {} : { graph });
    const iterator = chunks[Symbol.asyncIterator]();
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await iterator.next();
        if (next.done === true) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
      async cancel() {
        await iterator.return?.();
      },
    });
    return new Response(body, {
      headers: { 'content-type': graph === undefined ? 'application/n-quads' : 'application/n-triples' },
    });
  });
  admin.get('/backup', async (c) => {
    requireAdmin(c.get('principal'));
    const backup = await prepareBackup(c.get('core'));
    return new Response(Readable.toWeb(backup.stream()) as ReadableStream<Uint8Array>, {
      headers: {
        'content-type': BACKUP_MEDIA_TYPE,
        'content-disposition': `attachment; filename="${backupFileName(backup.manifest.created)}"`,
        'cache-control': 'no-store',
        [BACKUP_MANIFEST_HEADER]: JSON.stringify(backup.manifest),
      },
    });
  });
  audit.get('/', (c) => {
    requireAdmin(c.get('principal'));
    const number = (name: string): number | undefined => {
      const raw = c.req.query(name);
      if (raw === undefined) return undefined;
      if (!/^\d+$/.test(raw)) throw new BadRequestError(`${name} must be a whole number, got "${raw}"`);
      return Number(raw);
    };
    const limit = number('limit');
    const cursor = number('cursor');
    const action = c.req.query('action');
    return c.json(
      listAuditEntries(c.get('core'), {
        ...(limit === undefined ? {} : { limit }),
        ...(cursor === undefined ? {} : { cursor }),
        ...(action === undefined ? {} : { action }),
      }),
    );
  });
  return [
    ['/admin', admin],
    ['/api/v1/audit', audit],
  ];
}
