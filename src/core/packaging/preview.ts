/** The `ro-crate-preview.html` of a crate: a plain page listing its entities, for people who open the archive. */
import type { Json } from '../records/mapper.js';
import type { CrateDocument } from './ro-crate-export.js';

function escape(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function show(value: Json): string {
  if (Array.isArray(value)) return value.map(show).join(', ');
  if (value !== null && typeof value === 'object') {
    const id = value['@id'];
    return typeof id === 'string'
      ? `<a href="#${escape(encodeURIComponent(id))}">${escape(id)}</a>`
      : escape(JSON.stringify(value));
  }
  return escape(String(value));
}

/** A page with the root's name and description and a table per entity, each property linking to what it names. */
export function cratePreview(crate: CrateDocument): string {
  const root = crate['@graph'].find((entity) => entity['@id'] === './');
  const title = typeof root?.name === 'string' ? root.name : 'RO-Crate';
  const sections = crate['@graph'].map((entity) => {
    const rows = Object.entries(entity)
      .filter(([key]) => key !== '@id')
      .map(([key, value]) => `<tr><th>${escape(key)}</th><td>${show(value)}</td></tr>`)
      .join('');
    const id = entity['@id'];
    return `<section id="${escape(encodeURIComponent(id))}"><h2>${escape(id)}</h2><table>${rows}</table></section>`;
  });
  const description = typeof root?.description === 'string' ? `<p>${escape(root.description)}</p>` : '';
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head><body><h1>${escape(title)}</h1>${description}${sections.join('')}</body></html>\n`;
}
