import { Hono } from 'hono';
import { renderLlmsTxt } from '../../core/discovery/llms-txt.js';
import { MARKDOWN_CONTENT_TYPE } from '../../core/discovery/markdown.js';
import type { AppEnv } from '../env.js';
import type { Mounts } from '../mounts.js';

/** `/llms.txt`: the registry described for language models; a read like any other (a credential when reads are not public). */
export function llmsTxtRoutes(): Mounts {
  const llms = new Hono<AppEnv>();
  llms.get('/', async (c) =>
    c.body(await renderLlmsTxt(c.get('core')), 200, { 'content-type': MARKDOWN_CONTENT_TYPE }),
  );
  return [['/llms.txt', llms]];
}
