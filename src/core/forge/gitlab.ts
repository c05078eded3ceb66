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

const JSON_ACCEPT = 'application/json';

/**
 * GitLab's REST API v4: `GET /projects/:path?license=true` (the path URL-encoded, so nested groups work;
 * description, licence, topics, archived, avatar, README location), the repository files API for the README's
 * raw text, and `/releases` (upcoming releases left out). GitLab projects have no homepage field.
 */
export class GitLabForge implements Forge {
  readonly source = 'gitlab';

  constructor(
    private readonly http: ForgeHttp,
    /** Whether a token is sent, for the wording of a 404. */
    private readonly authenticated: boolean,
  ) {}

  async snapshot(repo: string, wants: ForgeWants): Promise<ForgeSnapshot> {
    const project = `/projects/${encodeURIComponent(repo)}`;
    const path = `${project}?license=true`;
    const text = await this.http.get(path, JSON_ACCEPT);
    if (text === undefined) {
      throw new ForgeError(
        'not-found',
        `GitLab has no project ${repo} this registry can read (404): it does not exist, or it is private and ${
          this.authenticated
            ? 'the forge token cannot read it'
            : 'no forge token is set (REG_FORGE_GITLAB_TOKEN)'
        }`,
      );
    }
    const data = parseObject(text, this.http.url(path), 'GitLab');
    const description = textOf(data.description);
    const image = textOf(data.avatar_url) ?? textOf(objectOf(data.namespace)?.avatar_url);
    const license = licenseOf(data.license);
    const topics = stringsOf(data.topics);
    return {
      ...(description === undefined ? {} : { description }),
      ...(license === undefined ? {} : { license }),
      ...(image === undefined ? {} : { image }),
      topics: topics.length > 0 ? topics : stringsOf(data.tag_list),
      archived: data.archived === true,
      ...(wants.readme ? { readme: await this.readme(project, data) } : {}),
      ...(wants.releases ? { releases: await this.releases(project) } : {}),
    };
  }

  private async readme(project: string, data: Loose): Promise<ForgeReadme | null> {
    const readmeUrl = textOf(data.readme_url);
    const branch = textOf(data.default_branch) ?? 'main';
    if (readmeUrl === undefined) return null;
    const file = filePathOf(readmeUrl, branch);
    const path = `${project}/repository/files/${encodeURIComponent(file)}/raw?ref=${encodeURIComponent(branch)}`;
    const text = await this.http.get(path, 'text/plain, */*');
    if (text === undefined) return null;
    const web = textOf(data.web_url);
    const baseUrl =
      web === undefined ? undefined : directoryOf(`${web}/-/raw/${encodeURI(branch)}/${encodeURI(file)}`);
    return { text, ...(baseUrl === undefined ? {} : { baseUrl }) };
  }

  private async releases(project: string): Promise<ForgeRelease[]> {
    const path = `${project}/releases?per_page=100`;
    const text = await this.http.get(path, JSON_ACCEPT);
    if (text === undefined) return [];
    return parseList(text, this.http.url(path), 'GitLab')
      .filter((release) => release.upcoming_release !== true)
      .flatMap((release) => releaseOf(release));
  }
}

/** The README's path in the repository, read from its web URL `…/-/blob/<branch>/<path>`. */
function filePathOf(readmeUrl: string, branch: string): string {
  const marker = '/-/blob/';
  const at = readmeUrl.indexOf(marker);
  if (at < 0) return 'README.md';
  const rest = decodeURIComponent(readmeUrl.slice(at + marker.length).split(/[?#]/)[0] ?? '');
  if (rest.startsWith(`${branch}/`)) return rest.slice(branch.length + 1);
  return rest.slice(rest.indexOf('/') + 1) || 'README.md';
}

function licenseOf(value: unknown): ForgeLicense | undefined {
  const license = objectOf(value);
  if (license === undefined) return undefined;
  const key = textOf(license.key);
  if (key === undefined || key === 'other')
    return { kind: 'unidentified', name: textOf(license.name) ?? key ?? 'unnamed licence' };
  return { kind: 'spdx', id: key };
}

function releaseOf(release: Loose): ForgeRelease[] {
  const tag = textOf(release.tag_name);
  if (tag === undefined) return [];
  const date = dateOf(release.released_at) ?? dateOf(release.created_at);
  const url = textOf(objectOf(release._links)?.self);
  return [{ tag, ...(date === undefined ? {} : { date }), ...(url === undefined ? {} : { url }) }];
}
