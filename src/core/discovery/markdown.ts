/**
 * The Markdown representation of a record (`<record IRI>.md`, or `Accept: text/markdown`), written for people
 * and language models alike: a page with the record's title, its IRI, its other representations and a section
 * per concern. It is written from the record's API JSON and nothing else, so it never says more or less than the
 * JSON does; text users wrote is escaped (`markdown-text.ts`).
 */
import { createHash } from 'node:crypto';
import type {
  ArtifactJson,
  InstanceJson,
  OriginJson,
  ReleaseJson,
  RunJson,
  SoftwareJson,
  TypeJson,
} from '../../api/records.js';
import type { JsonObject } from '../records/mapper.js';
import type { RecordKind } from '../records/kind-registry.js';
import { entityTag } from '../stored/record-version.js';
import { artifactPage, runPage, typePage } from './markdown-activity.js';
import {
  agent,
  apiName,
  capabilitySection,
  counted,
  fenced,
  field,
  inline,
  joined,
  link,
  linked,
  plain,
  provenanceSection,
  quotedSection,
  recordLink,
  terms,
  text,
  url,
  type PageContext,
  type RecordPage,
} from './markdown-text.js';

export type { PageContext } from './markdown-text.js';

/** The exact Content-Type of a Markdown representation. */
export const MARKDOWN_CONTENT_TYPE = 'text/markdown; charset=utf-8';

/**
 * The strong entity tag of a record's Markdown page: the stored record's version (so `If-Match` on an edit
 * accepts it, as it accepts the tag of any representation), then `.md.` and a digest of the page itself, which
 * also shows values derived from other records that the version does not cover.
 */
export function markdownTag(version: string, page: string): string {
  return entityTag(
    version,
    `md.${createHash('sha256').update(page, 'utf8').digest('base64url').slice(0, 16)}`,
  );
}

/** The API JSON of each kind whose IRIs dereference. */
interface JsonOfKind {
  readonly software: SoftwareJson;
  readonly release: ReleaseJson;
  readonly instance: InstanceJson;
  readonly artifact: ArtifactJson;
  readonly run: RunJson;
  readonly type: TypeJson;
}

/**
 * The page writer of every dereferenceable kind. Keyed by `RecordKind`, so a kind declared dereferenceable in
 * the kind registry without a writer here does not compile.
 */
const WRITERS: {
  readonly [K in RecordKind]: (json: JsonOfKind[K], context: PageContext) => RecordPage;
} = {
  software: softwarePage,
  release: releasePage,
  instance: instancePage,
  artifact: artifactPage,
  run: runPage,
  type: typePage,
};

/** How each kind is named in a page's first line. */
const KIND_NAMES: { readonly [K in RecordKind]: string } = {
  software: 'Software',
  release: 'Release',
  instance: 'Deployment',
  artifact: 'Artifact',
  run: 'Run',
  type: 'Artifact type',
};

/** The representations a record IRI offers besides Markdown, as the record's page links them. */
const REPRESENTATIONS: readonly (readonly [label: string, extension: string])[] = [
  ['JSON', 'json'],
  ['Turtle', 'ttl'],
  ['JSON-LD', 'jsonld'],
  ['N-Quads', 'nq'],
  ['Web page', 'html'],
];

/** What every record's JSON carries that the page's frame reads. */
interface Framed {
  readonly iri: string;
  readonly id: string;
  readonly tombstoned?: boolean;
  readonly origin?: OriginJson;
}

/** Writes the Markdown page of a record of `kind` from its API JSON (as its `RecordReader` returns it). */
export function recordMarkdown<K extends RecordKind>(
  kind: K,
  json: JsonObject,
  context: PageContext,
): string {
  const typed = json as unknown as JsonOfKind[K] & Framed;
  const page = WRITERS[kind](typed, context);
  const title = inline(page.title) || inline(typed.id);
  const lines: string[] = [`# ${title}`, ''];
  if (typed.tombstoned === true)
    lines.push(
      '> **Withdrawn.** This record was withdrawn: it is kept as history only, and is left out of lists, counts, search and llms.txt. Do not use or recommend it as current.',
      '',
    );
  lines.push(
    `${KIND_NAMES[kind]} · IRI: ${link(typed.iri, typed.iri)}`,
    '',
    `Also as ${REPRESENTATIONS.map(([label, extension]) => link(label, `${typed.iri}.${extension}`)).join(' · ')}`,
    '',
  );
  if (page.lead !== undefined && page.lead.length > 0) lines.push(...page.lead, '');
  for (const section of [provenanceSection(typed.origin), ...page.sections]) {
    if (section.lines.length === 0) continue;
    lines.push(`## ${section.heading}`, '', ...section.lines, '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** The verdict a reader must not miss on software that cannot be deployed. */
export const NOT_DEPLOYABLE = 'Deployable: no — this software cannot be hosted';

/** The page of a software record. */
export function softwarePage(json: SoftwareJson, context: PageContext): RecordPage {
  const base = context.baseIri;
  const latest = json.latest_release;
  return {
    title: json.name,
    lead: [
      ...(json.tagline === undefined ? [] : [`*${inline(json.tagline)}*`, '']),
      json.deployable ? 'Deployable: yes' : `**${NOT_DEPLOYABLE}**: no deployment of it can be registered.`,
    ],
    sections: [
      {
        heading: 'Summary',
        lines: [
          ...field('Kinds', joined(json.kinds.map(inline))),
          ...field('Maturity', plain(json.maturity)),
          ...field(
            'Licence',
            json.license === undefined ? undefined : link(json.license_label ?? json.license, json.license),
          ),
          ...field('Publisher', agent(json.publisher)),
          ...field('Contact', agent(json.contact)),
          ...field('Topics', terms(json.topics)),
          ...field('Keywords', joined(json.keywords.map(inline))),
          ...field('Registered', plain(json.created)),
          ...field('Last changed', plain(json.modified)),
        ],
      },
      quotedSection('Description', json.description),
      {
        heading: 'Where to get it',
        lines: [
          ...field('Homepage', url(json.homepage)),
          ...field('Code repository', url(json.code_repository)),
          ...field('Documentation', url(json.documentation)),
          ...field('Download', url(json.download_url)),
          ...field('Image', url(json.image)),
          ...field('Screenshots', joined(json.screenshots.map((shot) => link(shot, shot)))),
          ...field(
            'Latest release',
            latest === undefined ? undefined : recordLink(context, latest.version, latest.iri),
          ),
        ],
      },
      capabilitySection(json.capability),
      {
        heading: 'API documentation',
        lines: json.api_docs.map((doc) => {
          // The format is named once: as the label when the description has no title, else after it.
          const about = [doc.title === undefined ? undefined : doc.format, doc.description].filter(
            (part): part is string => part !== undefined,
          );
          return `- ${linked(doc.title ?? doc.format ?? doc.url, doc.url)}${about.length === 0 ? '' : `: ${about.map(inline).join(' — ')}`}`;
        }),
      },
      {
        heading: 'Activity',
        lines: [
          ...field('Deployments', plain(json.instance_count)),
          ...field('Releases', plain(json.release_count)),
          ...field('Runs in the last 30 days', plain(json.runs_30d)),
        ],
      },
      {
        heading: 'Releases',
        lines: [
          `${counted(json.release_count, 'release')}${latest === undefined ? '.' : `; the latest is ${recordLink(context, latest.version, latest.iri)}${latest.date_published === undefined ? '' : `, published ${inline(latest.date_published)}`}.`} All of them: ${link('the API list', `${base}/api/v1/software/${apiName(json)}/releases`)}.`,
        ],
      },
      {
        heading: 'Deployments',
        lines: [
          json.deployable
            ? `${counted(json.instance_count, 'deployment')}: ${link('the API list', `${base}/api/v1/instances?software=${apiName(json)}`)}.`
            : `${NOT_DEPLOYABLE}, so it has no deployments.`,
        ],
      },
      {
        heading: 'Registration by workloads',
        lines: [
          ...field('Registration clients', joined(json.registration_clients.map(inline))),
          ...field('Registration issuer', url(json.registration_issuer)),
          ...field(
            'Trusted publishers',
            joined(json.trusted_publishers.map((publisher) => url(publisher.issuer) ?? 'an issuer')),
          ),
        ],
      },
      quotedSection('README', json.readme),
    ],
  };
}

/** The page of a release. */
export function releasePage(json: ReleaseJson, context: PageContext): RecordPage {
  return {
    title: `${json.software_name ?? 'Release'} ${json.version}`,
    sections: [
      {
        heading: 'Release',
        lines: [
          ...field('Software', recordLink(context, json.software_name, json.software)),
          ...field('Version', text(json.version)),
          ...field('Published', plain(json.date_published)),
          ...field('Changelog', url(json.changelog)),
          ...field('Container image', text(json.container_image)),
          ...field('Image digest', text(json.image_digest)),
          ...field('SWHIDs', joined((json.swhids ?? []).map(inline))),
          ...field('Registered', plain(json.created)),
        ],
      },
      {
        heading: 'Install',
        lines: json.install_command === undefined ? [] : fenced(json.install_command),
      },
      {
        heading: 'Where to get it',
        lines: json.downloads.map((download) => {
          const about = [
            download.platform,
            download.availability,
            download.byte_size === undefined ? undefined : `${download.byte_size} bytes`,
          ].filter((part): part is string => part !== undefined);
          return `- ${linked(download.label ?? download.url, download.url)}${about.length === 0 ? '' : ` (${about.map(inline).join(', ')})`}`;
        }),
      },
      capabilitySection(json.capability),
    ],
  };
}

/** The page of a deployment. */
export function instancePage(json: InstanceJson, context: PageContext): RecordPage {
  const base = context.baseIri;
  return {
    title: json.label,
    sections: [
      {
        heading: 'Deployment',
        lines: [
          ...field('Software', recordLink(context, json.software_name, json.software)),
          ...field(
            'Release',
            json.release === undefined ? undefined : recordLink(context, json.release_version, json.release),
          ),
          ...field('Latest release of the software', plain(json.latest_version)),
          ...field('Outdated', json.outdated === undefined ? undefined : json.outdated ? 'yes' : 'no'),
          ...field('Endpoint', url(json.endpoint_url)),
          ...field('Endpoint description', url(json.endpoint_description)),
          ...field('Operator', agent(json.operator)),
          ...field('Availability', plain(json.availability)),
          ...field('Jurisdiction', text(json.jurisdiction)),
          ...field('Registered', plain(json.created)),
          ...field('Last seen', plain(json.last_seen_at)),
        ],
      },
      quotedSection('Description', json.description),
      {
        heading: 'Health',
        lines: [
          ...field('Health', plain(json.health)),
          ...field('Checked at', plain(json.health_checked_at)),
          ...field('Detail', text(json.health_detail)),
          ...field('Health endpoint', url(json.health_endpoint)),
        ],
      },
      capabilitySection(json.capability),
      {
        heading: 'Activity',
        lines: [
          ...field('Runs in the last 30 days', plain(json.runs_30d)),
          ...field('Failed runs in the last 30 days', plain(json.failures_30d)),
          ...field('Artifacts', plain(json.artifact_count)),
          ...field('Last run', plain(json.last_run_at)),
          `- ${link('Its runs', `${base}/api/v1/instances/${apiName(json)}/runs`)} and ${link('its artifacts', `${base}/api/v1/instances/${apiName(json)}/artifacts`)} in the API.`,
        ],
      },
    ],
  };
}
