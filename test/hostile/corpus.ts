/**
 * The hostile-input corpus: every write endpoint and every query parameter of the HTTP API (as listed in
 * src/http/routes/*.ts), each fed wrong types, huge and deeply nested values, control characters, lone
 * surrogates, bytes that are not UTF-8, strings that are not IRIs and attempts to break out of the SPARQL the
 * server builds. Generated in memory, the same every run; `{software}` and the like in paths are filled in from
 * the records the test creates first.
 */
import {
  CONTROLS,
  deepList,
  deepObject,
  hostileIris,
  hostileTexts,
  INJECTIONS,
  LONE_SURROGATES,
  notUtf8,
  rotate,
  WRONG_TYPES,
} from './values.js';
import { BODY_ENDPOINTS, type BodyEndpoint, type FieldKind } from './endpoints.js';
import { PATH_READS, QUERY_PARAMS } from './parameters.js';

/** Who sends a request. */
export type Credential = 'root' | 'deployment' | 'anonymous';

/** What a case must get: any answer below 500, a refusal (4xx), or a refusal with this status and code. */
export type Expectation = 'no-5xx' | 'refused' | { readonly status: number; readonly code: string };

/** One request of the corpus. */
export interface HostileCase {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly credential: Credential;
  readonly body?: string | Uint8Array;
  /** The body's media type, when it is not JSON. */
  readonly contentType?: string;
  readonly expect: Expectation;
}

/** The list limit of the test registry (REG_MAX_LIST_ITEMS, its default). */
export const LIST_LIMIT = 1000;

const TOO_DEEP = { status: 400, code: 'too-deep' } as const;
const NOT_UTF8 = { status: 400, code: 'invalid-utf8' } as const;
const NOT_TEXT = { status: 422, code: 'invalid-text' } as const;
const TOO_MANY = { status: 422, code: 'too-many-items' } as const;

/** Sets `value` at a dotted path with list indexes (`distributions[0].url`) in a copy of `base`. */
function withValue(base: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(base);
  const steps = path.split('.').flatMap((step) => {
    const match = /^([^[]+)\[(\d+)\]$/.exec(step);
    return match === null ? [step] : [match[1]!, Number(match[2])];
  });
  let node: any = copy;
  steps.forEach((step, at) => {
    if (at === steps.length - 1) node[step] = value;
    else {
      node[step] ??= typeof steps[at + 1] === 'number' ? [] : {};
      node = node[step];
    }
  });
  return copy;
}

/** Hostile values for one field, with what each must get. */
function valuesFor(
  kind: FieldKind,
  offset: number,
  iriBase: string,
  records: boolean,
): [unknown, Expectation][] {
  const long: Expectation = records ? TOO_MANY : 'no-5xx';
  const iris = hostileIris(iriBase);
  const texts = hostileTexts();
  const surrogate = rotate(LONE_SURROGATES, offset, 1)[0]!;
  switch (kind) {
    case 'iri':
      return [
        ...rotate(iris, offset * 3, 3).map((value): [unknown, Expectation] => [value, 'refused']),
        [`${iriBase}${surrogate}`, NOT_TEXT],
        [rotate(WRONG_TYPES, offset, 1)[0], 'no-5xx'],
      ];
    case 'iris':
      return [
        [rotate(iris, offset * 2, 2), 'refused'],
        [[`${iriBase}ok`, `${iriBase}${surrogate}`], NOT_TEXT],
        [Array.from({ length: LIST_LIMIT + 1 }, (_, at) => `${iriBase}item/${at}`), long],
        [rotate(WRONG_TYPES, offset + 3, 1)[0], 'no-5xx'],
      ];
    case 'text':
      return [
        ...rotate(texts, offset * 2, 2).map((value): [unknown, Expectation] => [value, 'no-5xx']),
        [`text ${surrogate}`, NOT_TEXT],
        [rotate(WRONG_TYPES, offset + 5, 1)[0], 'no-5xx'],
      ];
    case 'texts':
      return [
        [rotate(texts, offset, 3), 'no-5xx'],
        [['ok', surrogate], NOT_TEXT],
        [Array.from({ length: LIST_LIMIT + 1 }, (_, at) => `item ${at}`), long],
      ];
    case 'other':
      return rotate(WRONG_TYPES, offset, 3).map((value): [unknown, Expectation] => [value, 'no-5xx']);
  }
}

/** Cases of one endpoint that takes a JSON body: each field mutated, then the body as a whole. */
function bodyCases(endpoint: BodyEndpoint, offset: number): HostileCase[] {
  const cases: HostileCase[] = [];
  const at = `${endpoint.method} ${endpoint.path}`;
  const send = (name: string, body: string | Uint8Array, expect: Expectation): void => {
    cases.push({
      name: `${at} ${name}`,
      method: endpoint.method,
      path: endpoint.path,
      credential: endpoint.credential,
      body,
      expect,
    });
  };
  Object.entries(endpoint.fields).forEach(([field, kind], index) => {
    for (const [value, expect] of valuesFor(
      kind,
      offset + index,
      endpoint.iriBase ?? 'http://attacker.test/',
      endpoint.records === true,
    )) {
      const shown = JSON.stringify(value)?.slice(0, 40) ?? String(value);
      send(`${field}=${shown}`, JSON.stringify(withValue(endpoint.base, field, value)), expect);
    }
  });
  const json = JSON.stringify(endpoint.base);
  send('body not UTF-8', notUtf8(json === '{}' ? '{"label":"x"}' : json), NOT_UTF8);
  send('objects 5,000 deep', deepObject(5000), TOO_DEEP);
  send('lists 100,000 deep', deepList(100_000), TOO_DEEP);
  send(
    'members 65 deep',
    JSON.stringify(withValue(endpoint.base, 'x', JSON.parse(deepObject(64)))),
    TOO_DEEP,
  );
  send(
    'a member name with a lone surrogate',
    `{"a\\ud800b": 1${json === '{}' ? '' : `, ${json.slice(1, -1)}`}}`,
    NOT_TEXT,
  );
  for (const text of ['[]', '42', '"text"', '{"a":', '{}{}', '\u0000'])
    send(`body ${JSON.stringify(text)}`, text, 'refused');
  // Some endpoints take an absent body as all defaults, and null may read as absent.
  send('body null', 'null', 'no-5xx');
  return cases;
}

/** Values for one query parameter, percent-encoded (plus raw escapes that decode to no text at all). */
function queryValues(offset: number, iriBase: string): string[] {
  const encodable = [...hostileIris(iriBase), ...INJECTIONS, ...CONTROLS.map((char) => `a${char}b`)];
  const raw = ['%ED%A0%80', '%FF', '%zz', '%', '%C0%AF', 'x'.repeat(5000)];
  return [...rotate(encodable, offset * 4, 4).map(encodeURIComponent), 'a%00b', ...rotate(raw, offset, 1)];
}

/** Cases of every query parameter, and of path segments naming records. */
function readCases(): HostileCase[] {
  const cases: HostileCase[] = [];
  let offset = 0;
  for (const { path, params, credential, iriParams } of QUERY_PARAMS) {
    for (const param of params) {
      for (const value of queryValues(offset++, 'http://attacker.test/')) {
        const takesIri = iriParams?.includes(param) === true;
        // Hostile IRIs in a parameter that takes one are refused (400), never searched for.
        const expect: Expectation =
          takesIri && !value.startsWith('x') ? { status: 400, code: 'bad-request' } : 'no-5xx';
        cases.push({
          name: `GET ${path}?${param}=${value.slice(0, 40)}`,
          method: 'GET',
          path: `${path}${path.includes('?') ? '&' : '?'}${param}=${value}`,
          credential,
          expect,
        });
      }
    }
  }
  for (const { method, path } of PATH_READS) {
    for (const value of queryValues(offset++, 'http://attacker.test/')) {
      cases.push({
        name: `${method} ${path.replace('{}', value.slice(0, 40))}`,
        method,
        path: path.replace('{}', value),
        credential: 'root',
        expect: 'no-5xx',
      });
    }
  }
  return cases;
}

const SERVICE_QUERY = 'SELECT * WHERE { SERVICE <http://127.0.0.1:1/sparql> { ?s ?p ?o } }';

/** The requests a review found answered with 500, or refused after they were committed, as they were sent. */
function reportedCases(): HostileCase[] {
  const anonymous = { credential: 'anonymous' as const, expect: 'no-5xx' as const };
  return [
    { name: 'search for a%00b', method: 'GET', path: '/api/v1/search?q=a%00b', ...anonymous },
    { name: 'search for a NUL alone', method: 'GET', path: '/api/v1/search?q=%00%00%00', ...anonymous },
    {
      name: 'SERVICE in a GET query',
      method: 'GET',
      path: `/sparql?query=${encodeURIComponent(SERVICE_QUERY)}`,
      credential: 'anonymous',
      expect: 'refused',
    },
    {
      name: 'SERVICE in a POST query',
      method: 'POST',
      path: '/sparql',
      credential: 'anonymous',
      body: SERVICE_QUERY,
      expect: 'refused',
    },
    {
      name: 'capability nested 5,000 deep in a PATCH',
      method: 'PATCH',
      path: '/api/v1/software/{software}',
      credential: 'root',
      body: `{"capability":${deepObject(5000)}}`,
      expect: TOO_DEEP,
    },
    {
      name: 'an OpenLineage event 100,000 deep',
      method: 'POST',
      path: '/api/v1/openlineage',
      credential: 'deployment',
      body: `{"run":${deepList(100_000)}}`,
      expect: TOO_DEEP,
    },
    {
      name: 'a type adopted under an IRI with a lone surrogate',
      method: 'POST',
      path: '/api/v1/types',
      credential: 'root',
      body: '{"label":"Surrogate","iri":"http://a.test/type/\\ud800"}',
      expect: NOT_TEXT,
    },
    ...['\\u0000', '\\u001f', '\\u007f', '\\u0085', '\\ufffd', '%zz'].map((char): HostileCase => ({
      name: `a homepage holding ${char}`,
      method: 'POST',
      path: '/api/v1/software',
      credential: 'root',
      body: `{"name":"x","homepage":"https://a.test/${char}"}`,
      expect: { status: 422, code: 'shacl-validation-failed' },
    })),
  ];
}

/** The whole corpus, in a fixed order. */
export function hostileCorpus(): HostileCase[] {
  return [
    ...reportedCases(),
    ...BODY_ENDPOINTS.flatMap((endpoint, index) => bodyCases(endpoint, index * 7)),
    ...readCases(),
  ];
}
