import fs from 'node:fs';
import path from 'node:path';
import { isMap, parseDocument, type Document } from 'yaml';
import type { ConfigPlaces } from './config-file.js';
import { ProfileError } from './errors.js';

/** The user's own config files, in the order they are read; the first that exists is the one written. */
const USER_FILES = (places: ConfigPlaces): string[] => [
  ...['config.json', 'config.yaml', 'config.yml'].map((name) => path.join(places.configHome, 'reg', name)),
  ...['.regrc', '.regrc.json', '.regrc.yaml', '.regrc.yml'].map((name) => path.join(places.home, name)),
];

/** The user's config file that a login writes to: the first that exists, else `<configHome>/reg/config.yaml`. */
export function userConfigFile(places: ConfigPlaces): { readonly file: string; readonly exists: boolean } {
  const existing = USER_FILES(places).find((file) => {
    try {
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  });
  return existing === undefined
    ? { file: path.join(places.configHome, 'reg', 'config.yaml'), exists: false }
    : { file: existing, exists: true };
}

/** Where a token went: the file and the named profile (none for the file's top-level settings). */
export interface ProfileEntry {
  readonly file: string;
  readonly profile: string | undefined;
}

/** An open config file, edited as a YAML document (JSON is YAML too) so that comments and order are kept. */
class ConfigDocument {
  private constructor(
    readonly file: string,
    private readonly doc: Document,
  ) {}

  static open(file: string): ConfigDocument {
    let text = '';
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new ProfileError(`the reg config file ${file} cannot be read: ${firstLine(error)}`);
      }
    }
    const doc = parseDocument(text.trim() === '' ? '{}' : text);
    if (doc.errors.length > 0) {
      throw new ProfileError(`the reg config file ${file} cannot be read: ${firstLine(doc.errors[0])}`);
    }
    if (!isMap(doc.contents)) throw new ProfileError(`${file} must hold an object (url, token or profiles)`);
    return new ConfigDocument(file, doc);
  }

  /** The named profile the settings go to, chosen as the client chooses the one it reads. */
  entryFor(wanted: string | undefined): string | undefined {
    if (wanted !== undefined) return wanted;
    const fallback = this.doc.get('default');
    if (typeof fallback === 'string' && fallback.trim() !== '') return fallback.trim();
    const profiles = this.doc.get('profiles');
    const names = isMap(profiles) ? profiles.items.map((pair) => String(pair.key)) : [];
    if (this.doc.get('url') !== undefined) return undefined;
    // A profile called "default", else the only one there is.
    return names.includes('default') ? 'default' : names.length === 1 ? names[0] : undefined;
  }

  get(profile: string | undefined, key: string): unknown {
    return this.doc.getIn(profile === undefined ? [key] : ['profiles', profile, key]);
  }

  set(profile: string | undefined, key: string, value: unknown): void {
    this.doc.setIn(profile === undefined ? [key] : ['profiles', profile, key], value);
  }

  delete(profile: string | undefined, key: string): boolean {
    const at = profile === undefined ? [key] : ['profiles', profile, key];
    return this.doc.hasIn(at) && this.doc.deleteIn(at);
  }

  /** Writes the file readable by its owner only, creating its directory (0700) when it is missing. */
  save(): void {
    const dir = path.dirname(this.file);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const text = this.file.endsWith('.json')
      ? `${JSON.stringify(this.doc.toJSON(), null, 2)}\n`
      : this.doc.toString();
    // A new file is complete before it takes the old one's place, and never readable by others meanwhile.
    const temporary = path.join(dir, `.${path.basename(this.file)}.${process.pid}.tmp`);
    fs.writeFileSync(temporary, text, { mode: 0o600 });
    fs.chmodSync(temporary, 0o600);
    fs.renameSync(temporary, this.file);
  }
}

/**
 * Stores a registry URL and token in the user's config file (see `userConfigFile`), in the named profile or the
 * one the file makes the default, keeping every other profile and key. A token file named there before is
 * dropped, since a profile gives its token one way.
 */
export function storeToken(
  places: ConfigPlaces,
  settings: { readonly profile: string | undefined; readonly url: string; readonly token: string },
): ProfileEntry {
  const { file } = userConfigFile(places);
  const doc = ConfigDocument.open(file);
  const profile = doc.entryFor(settings.profile);
  doc.set(profile, 'url', settings.url);
  doc.set(profile, 'token', settings.token);
  doc.delete(profile, 'token_file');
  doc.save();
  return { file, profile };
}

/** The URL the user's config file holds for a profile, if it has one. */
export function storedUrl(places: ConfigPlaces, wanted: string | undefined): string | undefined {
  const { file, exists } = userConfigFile(places);
  if (!exists) return undefined;
  const doc = ConfigDocument.open(file);
  const url = doc.get(doc.entryFor(wanted), 'url');
  return typeof url === 'string' && url.trim() !== '' ? url.trim() : undefined;
}

/** Removes the token (or token file) of a profile from the user's config file; false when there was none. */
export function removeToken(
  places: ConfigPlaces,
  wanted: string | undefined,
): ProfileEntry & { readonly removed: boolean } {
  const { file, exists } = userConfigFile(places);
  if (!exists) return { file, profile: wanted, removed: false };
  const doc = ConfigDocument.open(file);
  const profile = doc.entryFor(wanted);
  const removed = [doc.delete(profile, 'token'), doc.delete(profile, 'token_file')].some(Boolean);
  if (removed) doc.save();
  return { file, profile, removed };
}

/**
 * Keeps (or, given undefined, forgets) the refresh token of a profile entry. Refresh tokens live apart from the
 * config file, in `<configHome>/reg/refresh-tokens.json` (0600), keyed by file and profile, since the config file
 * holds only what every client command reads.
 */
export function keepRefreshToken(
  places: ConfigPlaces,
  entry: ProfileEntry,
  token: string | undefined,
): string {
  const file = path.join(places.configHome, 'reg', 'refresh-tokens.json');
  let kept: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) kept = { ...parsed };
  } catch {
    // Missing or unreadable: started afresh, as nothing in it can be used anyway.
  }
  const key = `${entry.file}#${entry.profile ?? ''}`;
  if (token === undefined) {
    if (!(key in kept)) return file;
    delete kept[key];
  } else {
    kept[key] = token;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(kept, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(temporary, 0o600);
  fs.renameSync(temporary, file);
  return file;
}

const firstLine = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
