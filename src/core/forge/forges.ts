import type { Database } from '../store/database.js';
import { GitHubForge, GITHUB_API_HEADERS } from './github.js';
import { GitLabForge } from './gitlab.js';
import { ForgeHttp, type ForgeCredential } from './http.js';
import type { Forge, ForgeSource } from './types.js';

/** What opening a forge client needs. */
export interface OpenForgeOptions {
  readonly db: Database;
  readonly source: ForgeSource;
  /** Base URL of the forge's REST API (`REG_FORGE_GITHUB_API`, `REG_FORGE_GITLAB_API`). */
  readonly apiBase: string;
  readonly credential: ForgeCredential;
  readonly userAgent: string;
  readonly now: () => Date;
  /** Awaited before every request (the scheduler's pacing). */
  readonly pace?: () => Promise<void>;
  readonly signal?: AbortSignal;
}

/** Opens the client of one forge's REST API. */
export function openForge(options: OpenForgeOptions): Forge {
  const authenticated = options.credential.token !== undefined;
  const common = {
    db: options.db,
    apiBase: options.apiBase,
    credential: options.credential,
    userAgent: options.userAgent,
    now: options.now,
    ...(options.pace === undefined ? {} : { pace: options.pace }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
  switch (options.source) {
    case 'github':
      return new GitHubForge(
        new ForgeHttp({ ...common, forgeName: 'GitHub', headers: GITHUB_API_HEADERS }),
        authenticated,
      );
    case 'gitlab':
      return new GitLabForge(new ForgeHttp({ ...common, forgeName: 'GitLab' }), authenticated);
  }
}
