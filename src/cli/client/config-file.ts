import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultLoaders } from 'cosmiconfig';
import { ProfileError } from './errors.js';

/**
 * The places a connection config file is looked for. Only data is read (JSON or YAML, never a script), and
 * only from the working directory itself and the user's own directories: a file in a parent folder of a CI
 * checkout is nobody's to trust. cosmiconfig's search is not used because it runs `.js`/`.ts` configs, walks up
 * every parent, and loads a `.config/config.js` of the working directory before any search starts.
 */
export interface ConfigPlaces {
  /** The working directory, whose project files come first. */
  readonly cwd: string;
  /** The user's configuration directory (`$XDG_CONFIG_HOME`, else `~/.config`). */
  readonly configHome: string;
  /** The home directory, for a `~/.regrc`. */
  readonly home: string;
}

/** A config file found and parsed: its content (for package.json, the "reg" member) and where it is. */
export interface ConfigFile {
  readonly config: unknown;
  readonly filepath: string;
}

/** Project files of the working directory, in the order they are tried; package.json counts only with "reg". */
const PROJECT_FILES = ['package.json', '.regrc', '.regrc.json', '.regrc.yaml', '.regrc.yml'];
/** Files of the user's configuration directory, under `reg/`. */
const USER_FILES = ['config.json', 'config.yaml', 'config.yml'];
/** Files of the home directory. */
const HOME_FILES = ['.regrc', '.regrc.json', '.regrc.yaml', '.regrc.yml'];

/** The default places: the process's working directory, `$XDG_CONFIG_HOME` (if absolute) or `~/.config`, `~`. */
export function configPlaces(overrides: Partial<ConfigPlaces> = {}): ConfigPlaces {
  const home = overrides.home ?? os.homedir();
  const xdg = process.env.XDG_CONFIG_HOME;
  // The XDG base directory specification says a relative value is invalid and is to be ignored.
  const configHome = xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(home, '.config');
  return { cwd: overrides.cwd ?? process.cwd(), configHome: overrides.configHome ?? configHome, home };
}

/**
 * The first config file found, in order: the working directory's project files, then `<configHome>/reg/config.*`,
 * then `~/.regrc*`; undefined when there is none. Empty files are skipped, as if absent.
 */
export async function findConfigFile(places: ConfigPlaces): Promise<ConfigFile | undefined> {
  const candidates = [
    ...PROJECT_FILES.map((name) => path.join(places.cwd, name)),
    ...USER_FILES.map((name) => path.join(places.configHome, 'reg', name)),
    ...HOME_FILES.map((name) => path.join(places.home, name)),
  ];
  for (const filepath of candidates) {
    const text = readIfFile(filepath);
    if (text === undefined || text.trim() === '') continue;
    const parsed = await parse(filepath, text);
    if (path.basename(filepath) !== 'package.json') {
      if (parsed !== undefined && parsed !== null) return { config: parsed, filepath };
      continue;
    }
    const member = isObject(parsed) ? parsed.reg : undefined;
    if (member !== undefined) return { config: member, filepath };
  }
  return undefined;
}

function readIfFile(filepath: string): string | undefined {
  try {
    return fs.statSync(filepath).isFile() ? fs.readFileSync(filepath, 'utf8') : undefined;
  } catch (error) {
    if (['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw new ProfileError(`the reg config file ${filepath} cannot be read: ${firstLine(error)}`);
  }
}

// `.json` files and package.json are JSON; `.yaml`, `.yml` and the extensionless `.regrc` are YAML, which JSON
// text is too. cosmiconfig's YAML loader is js-yaml's default schema: plain data, no code.
async function parse(filepath: string, text: string): Promise<unknown> {
  try {
    if (filepath.endsWith('.json')) return JSON.parse(text) as unknown;
    return await defaultLoaders['.yaml'](filepath, text);
  } catch (error) {
    throw new ProfileError(`the reg config file ${filepath} cannot be read: ${reason(error)}`);
  }
}

// cosmiconfig's loader puts "YAML Error in <file>:" on a line of its own before js-yaml's message.
function reason(error: unknown): string {
  const lines = (error instanceof Error ? error.message : String(error))
    .split('\n')
    .filter((line) => line.trim() !== '');
  return (/^YAML Error in /.test(lines[0] ?? '') ? lines[1] : lines[0]) ?? 'unreadable';
}

const firstLine = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
