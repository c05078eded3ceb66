import { Flags } from '@oclif/core';
import { AVAILABILITY, SOFTWARE_KINDS } from '../../core/records/specs.js';
import { licenceIri } from './input.js';

/** The kinds of software the registry knows. */
export const KINDS = SOFTWARE_KINDS;

/** How openly a deployment can be used. */
export { AVAILABILITY };

const fileFlag = Flags.string({
  char: 'f',
  description: 'JSON record to send (- for standard input); field flags override it',
});

/** Flags that clear fields in a merge patch. */
export const unsetFlag = {
  unset: Flags.string({ description: 'clear this field (repeatable)', multiple: true }),
};

/** Flags for the common software fields, shared by create and update. */
export const softwareFields = {
  file: fileFlag,
  name: Flags.string({ description: 'name of the software' }),
  tagline: Flags.string({ description: 'one-line summary' }),
  description: Flags.string({ description: 'longer description (Markdown)' }),
  kind: Flags.string({ description: 'kind of software (repeatable)', multiple: true, options: [...KINDS] }),
  license: Flags.string({ description: 'licence: an SPDX id such as Apache-2.0, or an IRI' }),
  homepage: Flags.string({ description: 'home page URL' }),
  repository: Flags.string({ description: 'source code repository URL' }),
  keyword: Flags.string({ description: 'keyword (repeatable)', multiple: true }),
  topic: Flags.string({
    description: 'research topic IRI (repeatable; find one with reg vocab search --branch topic)',
    multiple: true,
  }),
};

/** The software fields the flags set; undefined ones are left out of the body. */
export function softwareBody(flags: {
  name?: string | undefined;
  tagline?: string | undefined;
  description?: string | undefined;
  kind?: string[] | undefined;
  license?: string | undefined;
  homepage?: string | undefined;
  repository?: string | undefined;
  keyword?: string[] | undefined;
  topic?: string[] | undefined;
}): Record<string, unknown> {
  return {
    name: flags.name,
    tagline: flags.tagline,
    description: flags.description,
    kinds: flags.kind,
    license: licenceIri(flags.license),
    homepage: flags.homepage,
    code_repository: flags.repository,
    keywords: flags.keyword,
    topics: flags.topic,
  };
}

/** Flags for the common instance fields, shared by create and update. */
export const instanceFields = {
  file: fileFlag,
  software: Flags.string({ description: 'the software deployed: its id, IRI or name' }),
  label: Flags.string({ description: 'name of the deployment' }),
  description: Flags.string({ description: 'longer description' }),
  'endpoint-url': Flags.string({ description: 'URL the deployment serves' }),
  availability: Flags.string({ description: 'who may use it', options: [...AVAILABILITY] }),
  release: Flags.string({ description: 'the release it runs (IRI)' }),
};

/** Flags for the fields of a minted or adopted artifact type. */
export const typeFields = {
  file: fileFlag,
  label: Flags.string({ description: 'preferred label (required, in the flags or the file)' }),
  slug: Flags.string({ description: 'mint the type at <base>/type/<slug>', exclusive: ['iri'] }),
  iri: Flags.string({ description: 'adopt this existing IRI instead of minting one', exclusive: ['slug'] }),
  definition: Flags.string({ description: 'one-sentence definition' }),
  'default-media-type': Flags.string({ description: 'media type artifacts of this type usually have' }),
  alias: Flags.string({ description: 'another label search finds it by (repeatable)', multiple: true }),
  scheme: Flags.string({ description: 'concept scheme an adopted IRI belongs to (IRI)' }),
};

/** The instance fields the flags set, with the software already turned into its IRI. */
export function instanceBody(
  flags: {
    label?: string | undefined;
    description?: string | undefined;
    'endpoint-url'?: string | undefined;
    availability?: string | undefined;
    release?: string | undefined;
  },
  software: string | undefined,
): Record<string, unknown> {
  return {
    software,
    label: flags.label,
    description: flags.description,
    endpoint_url: flags['endpoint-url'],
    availability: flags.availability,
    release: flags.release,
  };
}

/** The type fields the flags set. */
export function typeBody(flags: {
  label?: string | undefined;
  slug?: string | undefined;
  iri?: string | undefined;
  definition?: string | undefined;
  'default-media-type'?: string | undefined;
  alias?: string[] | undefined;
  scheme?: string | undefined;
}): Record<string, unknown> {
  return {
    label: flags.label,
    slug: flags.slug,
    iri: flags.iri,
    definition: flags.definition,
    default_media_type: flags['default-media-type'],
    aliases: flags.alias,
    scheme: flags.scheme,
  };
}
