import { Hono } from 'hono';
import { adoptLicense, listLicenses } from '../../core/catalogue/licenses.js';
import { createType, getType, listTypes } from '../../core/catalogue/types.js';
import { listKeywords, resolveTerms, searchVocabulary } from '../../core/discovery/vocab-search.js';
import { readJson } from '../body.js';
import type { AppEnv } from '../env.js';
import type { Mounts } from '../mounts.js';

/**
 * Vocabulary endpoints: artifact types (`/api/v1/types`), term search and resolution (`/api/v1/vocab/*`), the
 * keyword list (`/api/v1/keywords`) and licences (`/api/v1/licenses`).
 */
export function vocabRoutes(): Mounts {
  const types = new Hono<AppEnv>();
  const vocab = new Hono<AppEnv>();
  const keywords = new Hono<AppEnv>();
  const licenses = new Hono<AppEnv>();
  types.get('/', async (c) => c.json(await listTypes(c.get('core'))));
  types.post('/', async (c) => c.json(await createType(c.get('core'), c.get('act'), await readJson(c)), 201));
  types.get('/:id{.+}', async (c) => c.json(await getType(c.get('core'), c.req.param('id'))));
  vocab.get('/search', async (c) =>
    c.json(
      await searchVocabulary(c.get('core'), {
        ...optional('q', c.req.query('q')),
        ...optional('branch', c.req.query('branch')),
        ...optional('limit', c.req.query('limit')),
      }),
    ),
  );
  vocab.get('/resolve', async (c) => c.json(await resolveTerms(c.get('core'), c.req.query('iris'))));
  keywords.get('/', (c) => c.json(listKeywords(c.get('core'))));
  licenses.get('/', async (c) =>
    c.json(
      await listLicenses(c.get('core'), {
        ...optional('q', c.req.query('q')),
        ...optional('limit', c.req.query('limit')),
      }),
    ),
  );
  licenses.post('/', async (c) =>
    c.json(await adoptLicense(c.get('core'), c.get('act'), await readJson(c)), 201),
  );
  return [
    ['/api/v1/types', types],
    ['/api/v1/vocab', vocab],
    ['/api/v1/keywords', keywords],
    ['/api/v1/licenses', licenses],
  ];
}

function optional<K extends string>(name: K, value: string | undefined): Partial<Record<K, string>> {
  return (value === undefined ? {} : { [name]: value }) as Partial<Record<K, string>>;
}
