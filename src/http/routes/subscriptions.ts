import { Hono, type Context } from 'hono';
import {
  createSubscription,
  deleteSubscription,
  editSubscription,
  getSubscription,
  listSubscriptions,
} from '../../core/subscriptions/subscriptions.js';
import { acknowledgeCursor, pullDeliveries } from '../../core/subscriptions/subscription-deliveries.js';
import type { AppEnv } from '../env.js';
import type { Mounts } from '../mounts.js';
import { readJson, readOptionalJson } from '../body.js';

/**
 * `/api/v1/instances/{id}/subscriptions` and `/api/v1/subscriptions/{sid}`: subscribe a deployment to matching
 * artifacts, read and edit its subscriptions, and pull or acknowledge their deliveries.
 */
export function subscriptionRoutes(): Mounts {
  const instances = new Hono<AppEnv>();
  const subscriptions = new Hono<AppEnv>();
  const who = (c: Context<AppEnv>) => [c.get('core'), c.get('principal'), c.req.param('id') ?? ''] as const;
  const options = (c: Context<AppEnv>) => ({ requestId: c.get('requestId') });

  instances.get('/:id/subscriptions', async (c) => c.json(await listSubscriptions(...who(c))));
  instances.post('/:id/subscriptions', async (c) =>
    c.json(await createSubscription(...who(c), await readOptionalJson(c), options(c)), 201),
  );
  subscriptions.get('/:id', (c) => c.json(getSubscription(...who(c))));
  subscriptions.patch('/:id', async (c) =>
    c.json(await editSubscription(...who(c), await readJson(c), options(c))),
  );
  subscriptions.delete('/:id', (c) => {
    deleteSubscription(...who(c), options(c));
    return c.body(null, 204);
  });
  subscriptions.get('/:id/deliveries', async (c) =>
    c.json(
      await pullDeliveries(...who(c), {
        limit: c.req.query('limit'),
        cursor: c.req.query('cursor'),
        ack: c.req.query('ack'),
      }),
    ),
  );
  subscriptions.post('/:id/deliveries/ack', async (c) =>
    c.json(acknowledgeCursor(...who(c), await readJson(c))),
  );
  return [
    ['/api/v1/instances', instances],
    ['/api/v1/subscriptions', subscriptions],
  ];
}
