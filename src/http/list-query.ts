import type { Context } from 'hono';
import { listParamNames, type ListedKind, type ListParams } from '../core/records/kind-registry.js';
import type { AppEnv } from './env.js';

/** The query parameters of a kind's API list the request carries: its declared filters, paging and origin. */
export function listQuery<K extends ListedKind>(c: Context<AppEnv>, kind: K): ListParams<K> {
  const params: Record<string, string> = {};
  for (const name of listParamNames(kind)) {
    const value = c.req.query(String(name));
    if (value !== undefined) params[String(name)] = value;
  }
  return params as ListParams<K>;
}
