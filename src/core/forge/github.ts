import type { ForgeHttp } from './http.js';
import {
  dateOf,
  directoryOf,
  objectOf,
  parseList,
  parseObject,
  stringsOf,
  textOf,
  type Loose,
} from './read.js';
import {
  ForgeError,
  type Forge,
  type ForgeLicense,
  type ForgeReadme,
  type ForgeRelease,
  type ForgeSnapshot,
  type ForgeWants,
} from './types.js';

const JSON_ACCEPT = 'application/vnd.github+json';
/** The REST API version these requests are written against. */
export const GITHUB_API_HEADERS = { 'x-github-api-version': '2022-11-28' } as const;

/**
 * GitHub's REST API v3: `GET /repos/{owner}/{repo}` (description, homepage, licence, topics, archived, the
 * owner's avatar), `/readme` (base64 content and its raw download URL) and `/releases` (drafts left out).
 */
export class GitHubForge implements Forge {
  readonly source = 'github';

  constructor(
    private readonly http: ForgeHttp,
    /** Whether a token is sent, for the wording of a 404. */
    private readonly authenticated: boolean,
  ) {}

  async snapshot(repo: string, wants: ForgeWants): Promise<ForgeSnapshot> {
    const [owner = '', name = ''] = repo.split('/');
    const path = `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
    const text = await this.http.get(path, JSON_ACCEPT);
    if (text === undefined) {
      throw new ForgeError(
        'not-found',
        `GitHub has no repository ${repo} this registry can read (404): it does not exist, or it is private and ${
          this.authenticated ? 'the forge token cannot read it' : 'no forge token is set (REG_FORGE_TOKEN)'
        }`,
      );
    }
    const data = parseObject(text, this.http.url(path), 'GitHub');
    const description = textOf(data.description);
    const homepage = textOf(data.homepage);
    const image = textOf(objectOf(data.owner)?.avatar_url);
    const license = licenseOf(data.license);
    return {
      ...(description === undefined ? {} : { description }),
      ...(homepage === undefined ? {} : { homepage }),
      ...(license === undefined ? {} : { license }),
      ...(image === undefined ? {} : { image }),
      topics: stringsOf(data.topics),
      archived: data.archived === true,
      ...(wants.readme ? { readme: await this.readme(path) } : {}),
      ...(wants.releases ? { releases: await this.releases(path) } : {}),
    };
  }

  private async readme(repoPath: string): Promise<ForgeReadme | null> {
    const path = `${repoPath}/readme`;
    const text = await this.http.get(path, JSON_ACCEPT);
    if (text === undefined) return null;
    const data = parseObject(text, this.http.url(path), 'GitHub');
    if (data.encoding === 'none') {
      // GitHub sends no content for files over 1 MB through this endpoint.
      throw new ForgeError(
        'failed',
        'the README is too large for GitHub to serve through its API (over 1 MB)',
      );
    }
    const content = typeof data.content === 'string' ? data.content : '';
    const decoded = data.encoding === 'base64' ? Buffer.from(content, 'base64').toString('utf8') : content;
    const download = textOf(data.download_url);
    const baseUrl = download === undefined ? undefined : directoryOf(download);
    return { text: decoded, ...(baseUrl === undefined ? {} : { baseUrl }) };
  }

  private async releases(repoPath: string): Promise<ForgeRelease[]> {
    const path = `${repoPath}/releases?per_page=100`;
    const text = await this.http.get(path, JSON_ACCEPT);
    if (text === undefined) return [];
    return parseList(text, this.http.url(path), 'GitHub')
      .filter((release) => release.draft !== true)
      .flatMap((release) => releaseOf(release));
  }
}

function licenseOf(value: unknown): ForgeLicense | undefined {
  const license = objectOf(value);
  if (license === undefined) return undefined;
  const id = textOf(license.spdx_id);
  if (id === undefined || id === 'NOASSERTION')
    return { kind: 'unidentified', name: textOf(license.name) ?? id ?? 'unnamed licence' };
  return { kind: 'spdx', id };
}

function releaseOf(release: Loose): ForgeRelease[] {
  const tag = textOf(release.tag_name);
  if (tag === undefined) return [];
  const date = dateOf(release.published_at) ?? dateOf(release.created_at);
  const url = textOf(release.html_url);
  return [{ tag, ...(date === undefined ? {} : { date }), ...(url === undefined ? {} : { url }) }];
}
