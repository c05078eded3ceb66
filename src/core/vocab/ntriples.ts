/**
 * Canonical N-Triples text for bundle graphs. Bundles are compared by digest, so every term must always be
 * written the same way; building lines as strings also keeps the whole bundle build fast.
 */
import type * as RDF from '@rdfjs/types';
import { RDF as RDF_NS, XSD } from '../ns.js';

const XSD_STRING = XSD('string');
const RDF_LANG_STRING = RDF_NS('langString');

/** Writes an IRI as an N-Triples IRIREF, escaping the characters the grammar forbids inside `<...>`. */
export function ntIri(iri: string): string {
  // eslint-disable-next-line no-control-regex
  return `<${iri.replace(/[\u0000-\u0020<>"{}|^`\\]/g, (char) => uchar(char))}>`;
}

/** Writes a literal with an optional language tag (`@en`) or datatype IRI; xsd:string is left implicit. */
export function ntLiteral(value: string, langOrDatatype?: string): string {
  const quoted = `"${escapeString(value)}"`;
  if (langOrDatatype === undefined || langOrDatatype === '' || langOrDatatype === XSD_STRING) return quoted;
  if (langOrDatatype.startsWith('@')) return `${quoted}@${langOrDatatype.slice(1).toLowerCase()}`;
  return `${quoted}^^${ntIri(langOrDatatype)}`;
}

/** Writes an xsd:boolean literal. */
export function ntBoolean(value: boolean): string {
  return ntLiteral(value ? 'true' : 'false', XSD('boolean'));
}

/** Writes an xsd:integer literal. */
export function ntInteger(value: number): string {
  return ntLiteral(String(Math.trunc(value)), XSD('integer'));
}

/** Joins already-serialised subject, predicate and object into one N-Triples line (without the newline). */
export function ntLine(subject: string, predicate: string, object: string): string {
  return `${subject} ${predicate} ${object} .`;
}

/** Serialises any RDF/JS term; blank nodes are written through `blankLabel`, which makes their labels stable. */
export function ntTerm(term: RDF.Term, blankLabel: (id: string) => string): string {
  switch (term.termType) {
    case 'NamedNode':
      return ntIri(term.value);
    case 'BlankNode':
      return `_:${blankLabel(term.value)}`;
    case 'Literal': {
      if (term.language !== '') return ntLiteral(term.value, `@${term.language}`);
      const datatype = term.datatype.value;
      return ntLiteral(term.value, datatype === RDF_LANG_STRING ? undefined : datatype);
    }
    default:
      throw new Error(`cannot write a ${term.termType} term in N-Triples`);
  }
}

/** Sorts and de-duplicates lines and joins them as N-Triples text ending in a newline (empty text for none). */
export function joinSortedLines(lines: string[]): { text: string; count: number } {
  lines.sort();
  const unique: string[] = [];
  for (const line of lines) {
    if (unique.length === 0 || unique[unique.length - 1] !== line) unique.push(line);
  }
  return { text: unique.length === 0 ? '' : `${unique.join('\n')}\n`, count: unique.length };
}

// RDF 1.2 canonical N-Triples: ECHAR for the seven named escapes, UCHAR for the other control characters.
function escapeString(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u001f\u007f"\\]/g, (char) => {
    switch (char) {
      case '"':
        return '\\"';
      case '\\':
        return '\\\\';
      case '\n':
        return '\\n';
      case '\r':
        return '\\r';
      case '\t':
        return '\\t';
      case '\b':
        return '\\b';
      case '\f':
        return '\\f';
      default:
        return uchar(char);
    }
  });
}

function uchar(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Undoes N-Triples escapes (`\\n`, `\\"`, `\\uXXXX`, ...) in a literal's or an IRI's text. */
export function unescapeNTriples(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(/\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)/g, (_, esc: string) => {
    if (esc.length > 1) return String.fromCodePoint(parseInt(esc.slice(1), 16));
    return ({ t: '\t', b: '\b', n: '\n', r: '\r', f: '\f' } as Record<string, string>)[esc] ?? esc;
  });
}
