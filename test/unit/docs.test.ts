import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderDocs } from '../../scripts/docs.js';
import { ROOT } from '../helpers.js';

describe('generated documentation', () => {
  it('is current: man pages and the README command reference match the command definitions', async () => {
    const files = await renderDocs();
    expect(files.size).toBeGreaterThan(5);
    for (const [file, content] of files) {
      const onDisk = fs.existsSync(path.join(ROOT, file))
        ? fs.readFileSync(path.join(ROOT, file), 'utf8')
        : '';
      expect(onDisk, `${file} is stale: run npm run docs`).toBe(content);
    }
  });
});
