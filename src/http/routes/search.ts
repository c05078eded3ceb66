import { Hono } from 'hono';
import { matchCapabilities } from '../../core/discovery/capabilities.js';
import { graphAround, graphOptions } from '../../core/discovery/graph.js';
import { federatedSearch, wantsFederation } from '../../core/federation/federated-search.js';
import { search } from '../../core/discovery/search.js';
import type { AppEnv } from '../env.js';
import { replyJson } from '../reply.js';
import type { Mounts } from '../mounts.js';

/**
 * Finding things: free-text search (`/api/v1/search`), capability matchmaking (`/api/v1/capabilities`) and the
 * graph around a node (`/api/v1/graph`).
 */
export function searchRoutes(): Mounts {
  const searchApi = new Hono<AppEnv>();
  const capabilities = new Hono<AppEnv>();
  const graph = new Hono<AppEnv>();
  searchApi.get('/', async (c) => {
    const params = {
      q: c.req.query('q'),
      type: c.req.queries('type'),
      limit: c.req.query('limit'),
      federated: c.req.query('federated'),
      fed_id: c.req.query('fed_id'),
      fed_hops: c.req.query('fed_hops'),
      fed_budget_ms: c.req.query('fed_budget_ms'),
      fed_origin: c.req.query('fed_origin'),
      fed_path: c.req.queries('fed_path'),
    };
    const core = c.get('core');
    return c.json(wantsFederation(params) ? await federatedSearch(core, params) : search(core, params));
  });
  capabilities.get('/', async (c) =>
    replyJson(
      c,
      await matchCapabilities(c.get('core'), {
        produces: c.req.queries('produces'),
        consumes: c.req.queries('consumes'),
        basis: c.req.query('basis'),
        artifact: c.req.query('artifact'),
      }),
    ),
  );
  graph.get('/', async (c) =>
    replyJson(c, await graphAround(c.get('core'), graphOptions(c.req.query('iri'), c.req.query('depth')))),
  );
  return [
    ['/api/v1/search', searchApi],
    ['/api/v1/capabilities', capabilities],
    ['/api/v1/graph', graph],
  ];
}
