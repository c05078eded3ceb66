import fs from 'node:fs';
import { finished } from 'node:stream/promises';
import { Flags } from '@oclif/core';
import { openCore } from '../core/core.js';
import { BadRequestError } from '../core/errors.js';
import { silentLogger } from '../core/log.js';
import { dumpDataset, dumpSize } from '../core/ops/dump.js';
import { RegCommand } from '../cli/base-command.js';
import { formatBytes, formatNumber, startProgress, type ProgressLine } from '../cli/progress.js';

/** What a dump wrote, printed under --json. */
export interface DumpResult {
  readonly output: string;
  readonly bytes: number;
  readonly lines: number;
  readonly graph: string | null;
}

export default class Dump extends RegCommand {
  static override summary = 'Write every graph as N-Quads, or one graph as N-Triples.';
  static override description = `Writes the whole dataset (records, peer stubs, reference bundles and their catalogue) as N-Quads to
standard output, or to --output. With --graph, writes only that graph as N-Triples: not a backup format,
since restoring it puts the triples in the default graph.

The registry must be stopped: the data directory is single-writer, so this fails at once while a server
holds it (use GET /admin/dump on a live registry).`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> > backup.nq',
    '<%= config.bin %> <%= command.id %> --graph urn:reg:local > local.nt',
    '<%= config.bin %> <%= command.id %> --output backup.nq --json',
  ];
  static override flags = {
    graph: Flags.string({ description: 'dump only this named graph, as N-Triples' }),
    output: Flags.string({ char: 'o', description: 'write to this file instead of standard output' }),
  };

  async run(): Promise<DumpResult> {
    const { flags } = await this.parse(Dump);
    if (this.jsonEnabled() && flags.output === undefined) {
      throw new BadRequestError('--json needs --output: without it the dump itself goes to standard output');
    }
    const config = this.loadConfig();
    const core = await openCore(config, silentLogger);
    const options = flags.graph === undefined ? {} : { graph: flags.graph };
    let progress: ProgressLine | undefined;
    try {
      const chunks = dumpDataset(core, options);
      const total = await dumpSize(core, options);
      // Dump lines on a terminal are the output itself: a progress line there would be drawn over them.
      const onScreen = flags.output === undefined && process.stdout.isTTY === true;
      progress = await startProgress('dump', 'quads', {
        json: this.jsonEnabled() || onScreen,
        plain: true,
        total,
      });
      const sink = flags.output === undefined ? process.stdout : fs.createWriteStream(flags.output);
      let bytes = 0;
      let lines = 0;
      // Every line is a quad but the comments that mark where each record starts.
      let comments = 0;
      let lineStart = true;
      for await (const chunk of chunks) {
        bytes += Buffer.byteLength(chunk);
        if (lineStart && chunk.startsWith('#')) comments++;
        for (let at = chunk.indexOf('\n'); at >= 0; at = chunk.indexOf('\n', at + 1)) {
          lines++;
          if (chunk[at + 1] === '#') comments++;
        }
        lineStart = chunk.endsWith('\n');
        const quads = lines - comments;
        if (!sink.write(chunk)) await new Promise<void>((resolve) => sink.once('drain', () => resolve()));
        progress.update(quads);
      }
      if (sink !== process.stdout) {
        sink.end();
        await finished(sink);
      }
      const where = flags.output ?? 'standard output';
      progress.finish(`${formatNumber(lines - comments)} quads (${formatBytes(bytes)}) to ${where}`);
      return { output: flags.output ?? '-', bytes, lines, graph: flags.graph ?? null };
    } finally {
      progress?.stop();
      await core.close();
    }
  }
}
