import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.js';

/** Every TypeScript file under a folder of the repository, as paths relative to the root. */
function sources(folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (/\.tsx?$/.test(entry.name)) out.push(rel);
    }
  };
  walk(folder);
  return out.sort();
}

const text = (file: string): string => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** The module specifiers a file imports, resolved to paths relative to the root where they are relative. */
function importsOf(file: string): string[] {
  return [...text(file).matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+'([^']+)'/g)].map(([, spec]) =>
    spec!.startsWith('.') ? path.join(path.dirname(file), spec!) : spec!,
  );
}

describe('the layout of the code', () => {
  it('has one write path: only it calls the graph store’s commit', () => {
    const callers = sources('src')
      .filter((file) => !file.startsWith('src/core/store/'))
      .filter((file) => /\.graph\.commit\(|\bgraph\.commit\(/.test(text(file)));
    expect(callers).toEqual(['src/core/stored/write-path.ts']);
  });

  it('keeps drivers in the store layer', () => {
    const drivers = ['better-sqlite3', 'oxigraph'];
    const offenders = sources('src')
      .filter((file) => !file.startsWith('src/core/store/'))
      .filter((file) => importsOf(file).some((spec) => drivers.includes(spec)));
    expect(offenders).toEqual([]);
  });

  it('keeps the choice of graph backend inside the store layer and the core that builds it', () => {
    const asking = sources('src')
      .filter((file) => !file.startsWith('src/core/store/') && !file.startsWith('src/core/config/'))
      .filter((file) => file !== 'src/core/core.ts' && /\bgraph\.kind\b/.test(text(file)));
    expect(asking).toEqual([]);
    const offenders = sources('src')
      .filter((file) => !file.startsWith('src/core/store/') && file !== 'src/core/core.ts')
      .filter((file) =>
        importsOf(file).some((spec) => /src\/core\/store\/graph\/(embedded|external)\//.test(spec)),
      );
    expect(offenders).toEqual([]);
  });

  it('mounts each resource of the HTTP interface at its own prefix; only cross-cutting groups sit at the root', () => {
    const atRoot = [...text('src/http/app.ts').matchAll(/app\.route\(\s*'\/',\s*([A-Za-z.]+)\(/g)].map(
      ([, group]) => group,
    );
    expect(atRoot.sort()).toEqual(['recordRoutes', 'signpostedReads', 'web.routes']);
    for (const file of sources('src/http/routes').filter((name) => !name.endsWith('records.ts')))
      expect(text(file), file).not.toMatch(/\.(get|post|put|patch|delete)\(\s*['`]\/api\/v1\//);
  });

  it('keeps each folder of the core to one concept of at most about twenty files, each saying what it owns', () => {
    const core = path.join(ROOT, 'src/core');
    for (const entry of fs.readdirSync(core, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const files = fs.readdirSync(path.join(core, entry.name)).filter((name) => name.endsWith('.ts'));
      expect(files.length, `src/core/${entry.name}`).toBeLessThanOrEqual(20);
      expect(
        fs.existsSync(path.join(core, entry.name, 'README.md')),
        `src/core/${entry.name}/README.md`,
      ).toBe(true);
    }
  });
});
