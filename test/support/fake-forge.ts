/**
 * A loopback HTTP server that answers like the GitHub REST API v3 (under `/github`) and the GitLab REST API v4
 * (under `/gitlab/api/v4`): repositories and projects, READMEs, licences, topics and releases, with ETags and 304
 * answers to `If-None-Match`, private repositories that only a bearer token may see, and rate-limit answers on
 * demand. It stands for the outside internet; every request it gets is recorded.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A GitHub repository as the fake serves it. */
export interface FakeGitHubRepo {
  /** The body of `GET /repos/{owner}/{repo}` (owner, html_url and default_branch are filled in when absent). */
  repo: Record<string, unknown>;
  readme?: string;
  releases?: Record<string, unknown>[];
  private?: boolean;
}

/** A GitLab project as the fake serves it. */
export interface FakeGitLabProject {
  /** The body of `GET /projects/:id` (web_url, default_branch and readme_url are filled in when absent). */
  project: Record<string, unknown>;
  readme?: string;
  readmePath?: string;
  releases?: Record<string, unknown>[];
  private?: boolean;
}

/** One request the fake received. */
export interface ForgeRequest {
  readonly path: string;
  readonly authorization: string | undefined;
  readonly ifNoneMatch: string | undefined;
  readonly status: number;
}

/** A rate-limit answer given to every request while set. */
export interface FakeLimit {
  readonly status: number;
  readonly headers: Record<string, string>;
}

/** The running fake forge. */
export interface FakeForge {
  readonly githubApi: string;
  readonly gitlabApi: string;
  readonly github: Map<string, FakeGitHubRepo>;
  readonly gitlab: Map<string, FakeGitLabProject>;
  readonly requests: ForgeRequest[];
  /** The bearer token that opens private repositories (any other token is refused with 401). */
  token: string | undefined;
  limit: FakeLimit | undefined;
  stop(): Promise<void>;
}

const etagOf = (body: string): string => `"${createHash('sha1').update(body).digest('hex')}"`;

/** Starts the fake forge on 127.0.0.1. */
export async function startFakeForge(): Promise<FakeForge> {
  const requests: ForgeRequest[] = [];
  const state = {
    github: new Map<string, FakeGitHubRepo>(),
    gitlab: new Map<string, FakeGitLabProject>(),
    token: undefined as string | undefined,
    limit: undefined as FakeLimit | undefined,
  };
  let base = '';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', base);
    const authorization = req.headers.authorization;
    const ifNoneMatch = req.headers['if-none-match'];
    const answer = (status: number, body = '', headers: Record<string, string> = {}): void => {
      requests.push({ path: `${url.pathname}${url.search}`, authorization, ifNoneMatch, status });
      res.writeHead(status, headers).end(body);
    };
    if (state.limit !== undefined) {
      answer(state.limit.status, JSON.stringify({ message: 'API rate limit exceeded' }), {
        'content-type': 'application/json',
        ...state.limit.headers,
      });
      return;
    }
    if (authorization !== undefined && authorization !== `Bearer ${state.token}`) {
      answer(401, JSON.stringify({ message: 'Bad credentials' }), { 'content-type': 'application/json' });
      return;
    }
    const found = route(url, authorization !== undefined, state, base);
    if (found === undefined) {
      answer(404, JSON.stringify({ message: 'Not Found' }), { 'content-type': 'application/json' });
      return;
    }
    const etag = etagOf(found.body);
    if (ifNoneMatch === etag) {
      answer(304, '', { etag });
      return;
    }
    answer(200, found.body, { 'content-type': found.type, etag, 'x-ratelimit-remaining': '59' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    githubApi: `${base}/github`,
    gitlabApi: `${base}/gitlab/api/v4`,
    github: state.github,
    gitlab: state.gitlab,
    requests,
    get token() {
      return state.token;
    },
    set token(value) {
      state.token = value;
    },
    get limit() {
      return state.limit;
    },
    set limit(value) {
      state.limit = value;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type State = {
  github: Map<string, FakeGitHubRepo>;
  gitlab: Map<string, FakeGitLabProject>;
};

function route(
  url: URL,
  authorised: boolean,
  state: State,
  base: string,
): { body: string; type: string } | undefined {
  const json = (value: unknown) => ({ body: JSON.stringify(value), type: 'application/json' });
  const github = /^\/github\/repos\/([^/]+)\/([^/]+)(\/readme|\/releases)?$/.exec(url.pathname);
  if (github !== null) {
    const name = `${decodeURIComponent(github[1]!)}/${decodeURIComponent(github[2]!)}`;
    const repo = state.github.get(name);
    if (repo === undefined || (repo.private === true && !authorised)) return undefined;
    const raw = `${base}/raw/${name}/main`;
    switch (github[3]) {
      case undefined:
        return json({
          full_name: name,
          html_url: `https://github.example/${name}`,
          default_branch: 'main',
          owner: { login: name.split('/')[0], avatar_url: `https://avatars.example/${name.split('/')[0]}` },
          private: repo.private === true,
          ...repo.repo,
        });
      case '/readme':
        if (repo.readme === undefined) return undefined;
        return json({
          name: 'README.md',
          path: 'README.md',
          encoding: 'base64',
          content: Buffer.from(repo.readme, 'utf8').toString('base64'),
          download_url: `${raw}/README.md`,
        });
      default:
        return json(repo.releases ?? []);
    }
  }
  const gitlab = /^\/gitlab\/api\/v4\/projects\/([^/]+)(\/releases|\/repository\/files\/([^/]+)\/raw)?$/.exec(
    // Node keeps %2F in the path as sent, which is how GitLab's URL-encoded project paths arrive.
    url.pathname,
  );
  if (gitlab !== null) {
    const name = decodeURIComponent(gitlab[1]!);
    const project = state.gitlab.get(name);
    if (project === undefined || (project.private === true && !authorised)) return undefined;
    const readmePath = project.readmePath ?? 'README.md';
    if (gitlab[2] === undefined) {
      return json({
        path_with_namespace: name,
        web_url: `https://gitlab.example/${name}`,
        default_branch: 'main',
        readme_url:
          project.readme === undefined ? null : `https://gitlab.example/${name}/-/blob/main/${readmePath}`,
        visibility: project.private === true ? 'private' : 'public',
        ...project.project,
      });
    }
    if (gitlab[2] === '/releases') return json(project.releases ?? []);
    const file = decodeURIComponent(gitlab[3]!);
    if (project.readme === undefined || file !== readmePath || url.searchParams.get('ref') !== 'main')
      return undefined;
    return { body: project.readme, type: 'text/plain; charset=utf-8' };
  }
  return undefined;
}
