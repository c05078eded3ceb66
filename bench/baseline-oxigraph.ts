import { runTimed } from './children.js';
import { CHUNK_BYTES } from './line-chunks.js';
import { ROOT } from './reg-cli.js';

/**
 * The child's script, plain CommonJS run by `node -e` from the repository root so that no loader (tsx) inflates
 * its memory: loads FILE into a fresh oxigraph Store in ~1 MiB line-aligned chunks and prints one JSON line.
 */
const LOAD_SCRIPT = `
const fs = require('node:fs');
const ox = require('oxigraph');
const memory = () => {
  const status = fs.readFileSync('/proc/self/status', 'utf8');
  const kb = (field) => Number(new RegExp('^' + field + ':\\\\s+(\\\\d+) kB', 'm').exec(status)[1]);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
};
(async () => {
  const before = memory();
  const store = new ox.Store();
  const started = performance.now();
  let loadMs = 0;
  let rest = '';
  const load = (text) => {
    const loading = performance.now();
    store.load(text, { format: 'application/n-quads' });
    loadMs += performance.now() - loading;
  };
  for await (const piece of fs.createReadStream(process.argv[1], { encoding: 'utf8', highWaterMark: ${CHUNK_BYTES} })) {
    const text = rest + piece;
    const end = text.lastIndexOf('\\n') + 1;
    rest = text.slice(end);
    if (end > 0) load(text.slice(0, end));
  }
  if (rest.length > 0) load(rest);
  const ms = performance.now() - started;
  const after = memory();
  console.log(JSON.stringify({ quads: store.size, ms, loadMs, rssBeforeMb: before.rssMb, rssMb: after.rssMb, peakMb: after.peakMb }));
})();`;

/** A raw oxigraph load of an N-Quads file, the floor of the query index load. */
export interface OxigraphBaseline {
  readonly quads: number;
  /** Reading the file and loading it, in ~1 MiB chunks, in a fresh process. */
  readonly ms: number;
  /** The `load()` calls alone. */
  readonly loadMs: number;
  /** Process memory (MiB) after importing oxigraph, after the load, and its peak. */
  readonly rssBeforeMb: number;
  readonly rssMb: number;
  readonly peakMb: number;
}

/** Loads `file` into a bare oxigraph Store in a child process of its own and returns its figures. */
export async function measureOxigraphLoad(file: string): Promise<OxigraphBaseline> {
  const result = await runTimed(process.execPath, ['-e', LOAD_SCRIPT, file], { cwd: ROOT });
  if (result.code !== 0) throw new Error(`the oxigraph baseline failed (${result.code}):\n${result.stderr}`);
  return JSON.parse(result.stdout) as OxigraphBaseline;
}
