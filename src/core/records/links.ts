import type { LinkRule } from './schema.js';

/** Web pages and APIs: what a browser or an HTTP client opens. */
export const WEB_LINK: LinkRule = { schemes: ['http', 'https'] };
/** Source repositories, which are also cloned over git and SSH. */
export const REPOSITORY_LINK: LinkRule = { schemes: ['http', 'https', 'git', 'ssh', 'git+ssh', 'git+https'] };
/** Files to download. */
export const DOWNLOAD_LINK: LinkRule = { schemes: ['http', 'https', 'ftp', 'ftps', 'sftp'] };
/** Where access to data is asked for: a form, or an e-mail to its steward. */
export const REQUEST_LINK: LinkRule = { schemes: ['http', 'https', 'mailto'] };
/** Service endpoints: HTTP and WebSocket. */
export const ENDPOINT_LINK: LinkRule = { schemes: ['http', 'https', 'ws', 'wss'] };
/**
 * Places data is kept (`s3:`, `postgres:`, `kafka:`, ... as OpenLineage data sources name them): any scheme but
 * those a browser would run or inline when the link is followed.
 */
export const DATA_LINK: LinkRule = {
  except: ['javascript', 'vbscript', 'data', 'blob', 'about', 'filesystem'],
};
