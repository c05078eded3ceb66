// The baseline server: a bare Hono JSON route on @hono/node-server, printing its URL once listening.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const app = new Hono();
app.get('/json', (c) =>
  c.json({ iri: 'http://bench.test/software/1', name: 'baseline', kinds: ['service'] }),
);
const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
  process.stdout.write(`http://127.0.0.1:${info.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
