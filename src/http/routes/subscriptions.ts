import { Hono } from 'hono';
import {
  createSubscription,
  deleteSubscription,
  editSubscription,
  getSubscription,
  listSubscriptions,
} from '../../core/subscriptions/subscriptions.js';
import { acknowledgeCursor, pullDeliveries } from '../../core/subscriptions/subscription-deliveries.js';
import { getDeliveryLog, redeliver } from '../../core/subscriptions/delivery-log.js';
import { rotateSecret } from '../../core/subscriptions/secret-rotation.js';
import type { AppEnv } from '../env.js';
import type { Mounts } from '../mounts.js';
import { readJson, readOptionalJson } from '../body.js';

/**
 * `/api/v1/instances/{id}/subscriptions` and `/api/v1/subscriptions/{sid}`: subscribe a deployment to matching
 * artifacts, read and edit its subscriptions, pull or acknowledge their deliveries, read the log of webhook
 * attempts, redeliver one delivery and rotate the webhook secret.
 */
export function subscriptionRoutes(): Mounts {
  const instances = new Hono<AppEnv>();
  const subscriptions = new Hono<AppEnv>();
  instances.get('/:id/subscriptions', async (c) =>
    c.json(await listSubscriptions(c.get('core'), c.get('principal'), c.req.param('id'))),
  );
  instances.post('/:id/subscriptions', async (c) =>
    c.json(
      await createSubscription(c.get('core'), c.get('act'), c.req.param('id'), await readOptionalJson(c)),
      201,
    ),
  );
  subscriptions.get('/:id', (c) =>
    c.json(getSubscription(c.get('core'), c.get('principal'), c.req.param('id'))),
  );
  subscriptions.patch('/:id', async (c) =>
    c.json(await editSubscription(c.get('core'), c.get('act'), c.req.param('id'), await readJson(c))),
  );
  subscriptions.delete('/:id', (c) => {
    deleteSubscription(c.get('core'), c.get('act'), c.req.param('id'));
    return c.body(null, 204);
  });
  subscriptions.get('/:id/deliveries', async (c) =>
    c.json(
      await pullDeliveries(c.get('core'), c.get('act'), c.req.param('id'), {
        limit: c.req.query('limit'),
        cursor: c.req.query('cursor'),
        ack: c.req.query('ack'),
      }),
    ),
  );
  subscriptions.post('/:id/deliveries/ack', async (c) =>
    c.json(acknowledgeCursor(c.get('core'), c.get('act'), c.req.param('id'), await readJson(c))),
  );
  subscriptions.get('/:id/log', (c) =>
    c.json(
      getDeliveryLog(c.get('core'), c.get('principal'), c.req.param('id'), {
        limit: c.req.query('limit'),
        before: c.req.query('before'),
      }),
    ),
  );
  subscriptions.post('/:id/deliveries/:delivery/redeliver', (c) =>
    c.json(redeliver(c.get('core'), c.get('act'), c.req.param('id'), c.req.param('delivery')), 202),
  );
  subscriptions.post('/:id/secret', async (c) =>
    c.json(rotateSecret(c.get('core'), c.get('act'), c.req.param('id'), await readOptionalJson(c))),
  );
  return [
    ['/api/v1/instances', instances],
    ['/api/v1/subscriptions', subscriptions],
  ];
}
