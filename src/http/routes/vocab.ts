import { Hono } from 'hono';
import { adoptLicense, listLicenses } from '../../core/catalogue/licenses.js';
import { createType, getType, listTypes } from '../../core/catalogue/types.js';
import { listKeywords, resolveTerms, searchVocabulary } from '../../core/discovery/vocab-search.js';
import { readJson } from '../body.js';
import type { AppEnv } from '../env.js';

/**
 * Vocabulary endpoints: artifact types (`/api/v1/types`), term search and resolution (`/api/v1/vocab/*`), the
 * keyword list (`/api/v1/keywords`) and licences (`/api/v1/licenses`).
 */
export function vocabRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/api/v1/types', async (c) => c.json(await listTypes(c.get('core'))));
  app.post('/api/v1/types', async (c) =>
    c.json(await createType(c.get('core'), c.get('principal'), await readJson(c), c.get('requestId')), 201),
  );
  app.get('/api/v1/types/:id{.+}', async (c) => c.json(await getType(c.get('core'), c.req.param('id'))));
  app.get('/api/v1/vocab/search', async (c) =>
    c.json(
      await searchVocabulary(c.get('core'), {
        ...optional('q', c.req.query('q')),
        ...optional('branch', c.req.query('branch')),
        ...optional('limit', c.req.query('limit')),
      }),
    ),
  );
  app.get('/api/v1/vocab/resolve', async (c) =>
    c.json(await resolveTerms(c.get('core'), c.req.query('iris'))),
  );
  app.get('/api/v1/keywords', (c) => c.json(listKeywords(c.get('core'))));
  app.get('/api/v1/licenses', async (c) =>
    c.json(
      await listLicenses(c.get('core'), {
        ...optional('q', c.req.query('q')),
        ...optional('limit', c.req.query('limit')),
      }),
    ),
  );
  app.post('/api/v1/licenses', async (c) =>
    c.json(await adoptLicense(c.get('core'), c.get('principal'), await readJson(c), c.get('requestId')), 201),
  );
  return app;
}

function optional<K extends string>(name: K, value: string | undefined): Partial<Record<K, string>> {
  return (value === undefined ? {} : { [name]: value }) as Partial<Record<K, string>>;
}
