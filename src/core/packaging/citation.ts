/**
 * Software and releases as a `CITATION.cff` (Citation File Format 1.2.0): the record's name, version, date,
 * licence and addresses, with the record's IRI among its identifiers.
 */
import { stringify } from 'yaml';
import { isObject } from '../records/json.js';
import type { Json, JsonObject } from '../records/mapper.js';
import type { SoftwareAndRelease } from './codemeta.js';
import { agentIri, present, text } from './crate-entities.js';
import { CFF_VERSION, spdxIdOf } from './terms.js';

/** The media type a `CITATION.cff` is answered with (YAML, RFC 9512). */
export const CFF_MEDIA_TYPE = 'application/yaml; charset=utf-8';

/**
 * One agent as a CFF author: a person by family and given names (the last word of the name is taken as the
 * family name), anything else as an entity by name; an ORCID IRI goes to `orcid`.
 */
function author(value: Json | undefined): JsonObject | undefined {
  if (!isObject(value)) return undefined;
  const name = text(value.name);
  if (name === undefined) return undefined;
  const iri = agentIri(value);
  const orcid = iri !== undefined && /^https:\/\/orcid\.org\//.test(iri) ? iri : undefined;
  const common = present({ email: text(value.email), website: text(value.homepage), orcid });
  if (value.kind !== 'person') return { name, ...common };
  const words = name.trim().split(/\s+/);
  const family = words.pop() ?? name;
  return {
    'family-names': family,
    ...(words.length > 0 ? { 'given-names': words.join(' ') } : {}),
    ...common,
  };
}

/**
 * The CFF document of a software record or release. `authors` is required: the registry records no authors, so
 * the publisher is credited, else the maintainer, else an entity named "<software> contributors".
 */
export function citationOf({ software, release }: SoftwareAndRelease): string {
  const name = text(software.name) ?? text(software.iri) ?? 'software';
  const credited = author(software.publisher) ?? author(software.contact) ?? { name: `${name} contributors` };
  const license = text(software.license);
  const spdx = license === undefined ? undefined : spdxIdOf(license);
  const iri = text(release?.iri) ?? text(software.iri);
  const date = text(release?.date_published)?.slice(0, 10);
  const keywords = Array.isArray(software.keywords) ? software.keywords : [];
  const document: JsonObject = {
    'cff-version': CFF_VERSION,
    message: 'If you use this software, please cite it using the metadata from this file.',
    type: 'software',
    title: name,
    authors: [credited],
    ...present({
      abstract: text(software.description) ?? text(software.tagline),
      version: text(release?.version),
      'date-released': date,
      license: spdx,
      'license-url': spdx === undefined ? license : undefined,
      'repository-code': text(software.code_repository),
      url: text(software.homepage),
      keywords,
      identifiers:
        iri === undefined
          ? undefined
          : [{ type: 'url', value: iri, description: 'The record of this software in the registry' }],
    }),
  };
  return stringify(document, { lineWidth: 0 });
}
