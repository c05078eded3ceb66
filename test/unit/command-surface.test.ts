import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderDocs, SURFACE } from '../../scripts/docs.js';
import { ROOT } from '../helpers.js';

interface Surface {
  commands: {
    id: string;
    summary: string;
    args: { name: string; required: boolean }[];
    flags: {
      name: string;
      char?: string;
      type: string;
      env?: string;
      options?: string[];
      default?: string;
    }[];
    examples: number;
  }[];
}

const render = async (): Promise<string> => (await renderDocs()).get(SURFACE) ?? '';

describe('the command surface', () => {
  it(`is current: ${SURFACE} matches the command definitions (a change to the surface is a visible diff)`, async () => {
    const file = path.join(ROOT, SURFACE);
    const onDisk = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    expect(onDisk, `${SURFACE} is stale: run npm run docs and review the diff`).toBe(await render());
  });

  it('lists every command in order, each with a summary and at least one example', async () => {
    const surface = JSON.parse(await render()) as Surface;
    const ids = surface.commands.map((command) => command.id);
    expect(ids).toEqual([...ids].sort());
    expect(ids).toEqual(expect.arrayContaining(['serve', 'version', 'software list', 'tokens create']));
    for (const command of surface.commands) {
      expect(command.summary, command.id).not.toBe('');
      expect(command.summary, command.id).not.toContain('\n');
      expect(command.examples, command.id).toBeGreaterThanOrEqual(1);
      const names = command.flags.map((flag) => flag.name);
      expect(names, command.id).toEqual([...names].sort());
      expect(names, command.id).toContain('json');
      // -h and -v belong to help and version everywhere.
      for (const flag of command.flags)
        expect(['h', 'v'], `${command.id} --${flag.name}`).not.toContain(flag.char);
    }
  });
});
