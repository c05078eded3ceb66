import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { killChildren } from './children.js';

/**
 * One temporary directory for everything the benchmark writes. `cleanUp` kills any child still running and
 * removes the directory; it runs on normal exit, on an error and on SIGINT/SIGTERM.
 */
export class Workspace {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reg-bench-'));
  private cleaned = false;

  constructor() {
    process.once('exit', () => this.cleanUp());
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        this.cleanUp();
        process.stderr.write(`bench: stopped by ${signal}\n`);
        process.exit(130);
      });
    }
  }

  /** A path inside the workspace. */
  path(name: string): string {
    return path.join(this.dir, name);
  }

  /** A fresh empty directory inside the workspace. */
  freshDir(name: string): string {
    const dir = this.path(name);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir);
    return dir;
  }

  /** A view of the workspace whose directories are named after `prefix`, so two runs never share one. */
  scope(prefix: string): Workspace {
    return Object.assign(Object.create(Workspace.prototype) as Workspace, {
      dir: this.dir,
      path: (name: string) => this.path(`${prefix}-${name}`),
      freshDir: (name: string) => this.freshDir(`${prefix}-${name}`),
      remove: (...names: string[]) => this.remove(...names.map((name) => `${prefix}-${name}`)),
      cleanUp: () => this.cleanUp(),
    });
  }

  /** Removes files or directories of the workspace that are no longer needed, to keep the disk footprint small. */
  remove(...names: string[]): void {
    for (const name of names) fs.rmSync(this.path(name), { recursive: true, force: true });
  }

  cleanUp(): void {
    if (this.cleaned) return;
    this.cleaned = true;
    killChildren();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
