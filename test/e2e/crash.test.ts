import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCore } from '../../src/core/core.js';
import { silentLogger } from '../../src/core/log.js';
import { GRAPHS } from '../../src/core/ns.js';
import { listAudit } from '../../src/core/store/audit.js';
import { ROOT, testConfig, testEnv } from '../helpers.js';

describe('crash safety', () => {
  it('keeps every acknowledged write and no half-written one after kill -9 mid-stream', async () => {
    const env = testEnv();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'test', 'fixtures', 'crash-writer.ts')],
      {
        env: { PATH: process.env.PATH ?? '', ...env },
      },
    );
    let acked = -1;
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('close', (_code, signal) => resolve(signal)),
    );
    await new Promise<void>((resolve, reject) => {
      let buffer = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        buffer += chunk;
        for (const match of buffer.matchAll(/ack (\d+)\n/g)) acked = Math.max(acked, Number(match[1]));
        buffer = buffer.slice(buffer.lastIndexOf('\n') + 1);
        if (acked >= 150 && child.exitCode === null && !child.killed) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      void exited.then(() =>
        acked >= 150 ? resolve() : reject(new Error(`writer ended early:\n${stderr}`)),
      );
    });
    expect(await exited).toBe('SIGKILL');

    const core = await openCore(testConfig({ REG_DATA_DIR: env.REG_DATA_DIR! }), silentLogger);
    try {
      const audited = new Set(
        listAudit(core.db, { limit: 100_000, action: 'crash.write' }).map((entry) => entry.target),
      );
      let present = 0;
      for (let i = 0; ; i++) {
        const subject = `${core.config.baseIri}/crash/${i}`;
        const record = await core.graph.readRecord(GRAPHS.local, subject);
        if (i <= acked) {
          expect(record, `acknowledged write ${i} lost`).toBeDefined();
        }
        if (record === undefined) {
          expect(audited.has(subject), `audit entry ${i} without its record`).toBe(false);
          if (i > acked) break;
          continue;
        }
        expect(record.trim().split('\n'), `record ${i} half-written`).toHaveLength(20);
        expect(audited.has(subject), `record ${i} without its audit entry`).toBe(true);
        present++;
      }
      expect(present).toBeGreaterThanOrEqual(acked + 1);
      expect(audited.size).toBe(present);
    } finally {
      await core.close();
    }
  });
});
