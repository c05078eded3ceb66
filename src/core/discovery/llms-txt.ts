/**
 * `/llms.txt` (https://llmstxt.org): what the registry is, how to read its records, where its entry points are,
 * the rules an agent must keep, and its catalogue. The lists are read through the same list services as the
 * API's lists (this registry's records only), so withdrawn records and the counts agree with those lists.
 */
import type { ArtifactJson, InstanceJson, RunJson, SoftwareJson } from '../../api/records.js';
import type { Core } from '../core.js';
import { listInstances } from '../catalogue/instance-list.js';
import { listSoftware } from '../catalogue/software.js';
import { registryTitle } from '../ops/status.js';
import { listArtifacts } from '../provenance/artifact-list.js';
import { listRuns } from '../provenance/runs.js';
import type { JsonObject } from '../records/mapper.js';
import { NOT_DEPLOYABLE } from './markdown.js';
import { clipped, inline, link } from './markdown-text.js';

/** How many software and deployments the catalogue lists, and how many of the newest artifacts and runs. */
export const LLMS_TXT_LIMITS = { catalogue: 100, recent: 20, note: 160 } as const;

/** The hint the registry's description gives for reading any record as Markdown. */
export const RECORD_MARKDOWN_HINT = 'append .md to any record IRI, or send Accept: text/markdown';

/** The members of the registry's description that point agents at llms.txt and the Markdown pages. */
export function agentPointers(baseIri: string): { llms_txt: string; record_markdown: string } {
  return { llms_txt: `${baseIri}/llms.txt`, record_markdown: RECORD_MARKDOWN_HINT };
}

/** One catalogue section: its heading, the API list it comes from, and how many it shows of how many. */
interface Listing {
  readonly heading: string;
  readonly api: string;
  readonly newest: boolean;
  readonly limit: number;
  readonly page: JsonObject;
  readonly entry: (item: JsonObject) => readonly [name: string, iri: string, note: string];
}

/** Writes the registry's llms.txt. */
export async function renderLlmsTxt(core: Core): Promise<string> {
  const base = core.config.baseIri;
  const { catalogue, recent } = LLMS_TXT_LIMITS;
  const local = (limit: number) => ({ limit: String(limit), registry: 'local' });
  const listings: Listing[] = [
    {
      heading: 'Software',
      api: `${base}/api/v1/software?registry=local`,
      newest: false,
      limit: catalogue,
      page: await listSoftware(core, local(catalogue)),
      entry: (item) => softwareEntry(item as unknown as SoftwareJson),
    },
    {
      heading: 'Deployments',
      api: `${base}/api/v1/instances?registry=local`,
      newest: false,
      limit: catalogue,
      page: await listInstances(core, local(catalogue)),
      entry: (item) => instanceEntry(item as unknown as InstanceJson),
    },
    {
      heading: 'Artifacts',
      api: `${base}/api/v1/artifacts?registry=local`,
      newest: true,
      limit: recent,
      page: await listArtifacts(core, local(recent)),
      entry: (item) => artifactEntry(item as unknown as ArtifactJson),
    },
    {
      heading: 'Runs',
      api: `${base}/api/v1/runs?registry=local`,
      newest: true,
      limit: recent,
      page: await listRuns(core, local(recent)),
      entry: (item) => runEntry(item as unknown as RunJson),
    },
  ];
  const lines = [...preamble(core), ...entryPoints(base)];
  for (const listing of listings) lines.push(...section(listing));
  return `${lines.join('\n').trimEnd()}\n`;
}

function preamble(core: Core): string[] {
  const { baseIri: base, operator } = core.config;
  const title = registryTitle(core);
  return [
    `# ${inline(title)}`,
    '',
    `> A registry of software, its releases and deployments, the runs those deployments performed and the artifacts they used and generated, kept as linked data (RDF)${operator === undefined ? '' : `, operated by ${inline(operator)}`}.`,
    '',
    `Every record has an IRI under ${link(base, base)} that serves several representations. Append \`.md\` to a record IRI (or send \`Accept: text/markdown\`) for a Markdown page written for reading, \`.ttl\` for its RDF as Turtle, \`.jsonld\` for JSON-LD, \`.nq\` for N-Quads, or \`.json\` for the JSON the API returns. The JSON API is under ${link(`${base}/api/v1`, `${base}/api/v1`)}; its lists are paged (\`limit\`, then the \`next_cursor\` of each page as \`cursor\`).`,
    '',
    'Rules for agents:',
    '',
    '- Look every vocabulary term up with the vocabulary search before you use it (artifact types, topics, keywords). Never invent a type IRI: a write citing a term the registry does not hold is refused.',
    '- Leave out what you cannot confirm from a record. Do not guess values, versions or links.',
    '- A record marked "Withdrawn" is history: do not present or use it as current. Withdrawn records are absent from this file, the lists, the counts and search.',
    `- "${NOT_DEPLOYABLE}": never propose deploying such software or registering a deployment of it.`,
    '- Records cached from peer registries say so in a Provenance section; their home registry holds the record itself.',
    '',
  ];
}

function entryPoints(base: string): string[] {
  const points: readonly (readonly [string, string, string])[] = [
    ['Search', `${base}/api/v1/search?q=`, 'free-text search over software, deployments, artifacts and runs'],
    ['SPARQL', `${base}/sparql`, 'read-only SPARQL 1.1 queries over the whole graph'],
    [
      'Vocabulary search',
      `${base}/api/v1/vocab/search?q=`,
      'artifact types, research topics and keywords with their IRIs',
    ],
    [
      'MCP server',
      `${base}/mcp`,
      "the registry's tools for agents (Model Context Protocol, streamable HTTP)",
    ],
    ['OpenAPI description', `${base}/api/v1/openapi.json`, 'every operation of the JSON API'],
    [
      'Registry description',
      `${base}/.well-known/reg-registry`,
      'title, operator, authentication and peer registries',
    ],
  ];
  return ['## Entry points', '', ...points.map(([name, url, note]) => `- ${link(name, url)}: ${note}`), ''];
}

/** A catalogue section: how much of the list it shows, a link to the whole list, then one line per record. */
function section(listing: Listing): string[] {
  const items = Array.isArray(listing.page.items) ? (listing.page.items as JsonObject[]) : [];
  const total = typeof listing.page.total === 'number' ? listing.page.total : items.length;
  const shown = Math.min(items.length, listing.limit);
  const extent =
    total <= shown
      ? `All ${total}.`
      : `The ${listing.newest ? 'most recent' : 'first'} ${shown} of ${total}.`;
  const lines = items.slice(0, listing.limit).map((item) => {
    const [name, iri, note] = listing.entry(item);
    const written = clipped(note, LLMS_TXT_LIMITS.note);
    return `- ${link(name, `${iri}.md`)}${written === '' ? '' : `: ${written}`}`;
  });
  return [
    `## ${listing.heading}`,
    '',
    total === 0
      ? `None yet; ${link('the API list', listing.api)} will list them.`
      : `${extent} Page through all of them with ${link('the API list', listing.api)}.`,
    ...(lines.length === 0 ? [] : ['', ...lines]),
    '',
  ];
}

function softwareEntry(item: SoftwareJson): readonly [string, string, string] {
  const about = item.tagline ?? item.description?.split(/\r?\n/)[0] ?? '';
  return [item.name, item.iri, item.deployable ? about : `Deployable: no. ${about}`.trim()];
}

function instanceEntry(item: InstanceJson): readonly [string, string, string] {
  const of = item.software_name === undefined ? '' : `deployment of ${item.software_name}; `;
  return [item.label, item.iri, `${of}health ${item.health}`];
}

function artifactEntry(item: ArtifactJson): readonly [string, string, string] {
  const facts = [item.conforms_to?.label, item.availability, item.issued].filter(
    (fact): fact is string => fact !== undefined,
  );
  return [item.title, item.iri, facts.join(', ')];
}

function runEntry(item: RunJson): readonly [string, string, string] {
  const by = item.instance_label === undefined ? '' : ` by ${item.instance_label}`;
  const started = item.started_at === undefined ? '' : `, started ${item.started_at}`;
  return [item.label ?? `Run ${item.external_key ?? item.id}`, item.iri, `${item.status}${by}${started}`];
}
