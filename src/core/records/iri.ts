/**
 * The syntax check every IRI passes before the registry stores it or writes it into a query: an absolute IRI as
 * RFC 3987 defines it (section 2.2), with the code points the RFC leaves out refused (controls, U+007F-U+009F,
 * noncharacters such as U+FFFD's neighbours, lone surrogates), every `%` followed by two hex digits, and a
 * bracketed host a well-formed IPv6 address. The query index parses IRIs strictly and refuses what this does not
 * accept; storing such a string would break every later edit of its record, and placing it inside `<...>` of a
 * query could end the IRI early.
 */

// Character ranges of RFC 3987 (written as \u{...} escapes of a `u`-flag RegExp).
const UCSCHAR = [
  '\\u{A0}-\\u{D7FF}',
  '\\u{F900}-\\u{FDCF}',
  '\\u{FDF0}-\\u{FFEF}',
  // Planes 1 to 13 less their last two code points, then plane 14 from U+E1000 (below it: tag characters).
  ...Array.from({ length: 13 }, (_, plane) => {
    const start = (plane + 1) * 0x10000;
    return `\\u{${start.toString(16)}}-\\u{${(start + 0xfffd).toString(16)}}`;
  }),
  '\\u{E1000}-\\u{EFFFD}',
].join('');
const IPRIVATE = '\\u{E000}-\\u{F8FF}\\u{F0000}-\\u{FFFFD}\\u{100000}-\\u{10FFFD}';
const UNRESERVED = `A-Za-z0-9\\-._~${UCSCHAR}`;
const SUB_DELIMS = "!$&'()*+,;=";
const PCT = '%[0-9A-Fa-f]{2}';

const IPCHAR = `(?:[${UNRESERVED}${SUB_DELIMS}:@]|${PCT})`;
const SEGMENT = `${IPCHAR}*`;
const SEGMENT_NZ = `${IPCHAR}+`;
const USERINFO = `(?:[${UNRESERVED}${SUB_DELIMS}:]|${PCT})*`;
const REG_NAME = `(?:[${UNRESERVED}${SUB_DELIMS}]|${PCT})*`;
const AUTHORITY = `(?:${USERINFO}@)?(?:\\[(?<ip6>[0-9A-Fa-f:.]+)\\]|${REG_NAME})(?::[0-9]*)?`;
const HIER_PART = `(?://${AUTHORITY}(?:/${SEGMENT})*|/?(?:${SEGMENT_NZ}(?:/${SEGMENT})*)?)`;
const QUERY = `(?:\\?(?:${IPCHAR}|[/?${IPRIVATE}])*)?`;
const FRAGMENT = `(?:#(?:${IPCHAR}|[/?])*)?`;
const IRI = new RegExp(`^[A-Za-z][A-Za-z0-9+.\\-]*:${HIER_PART}${QUERY}${FRAGMENT}$`, 'u');

/** Whether `value` is an absolute IRI by the grammar of RFC 3987 (IPv6 hosts checked, no IPvFuture). */
export function isRfc3987Iri(value: string): boolean {
  const match = IRI.exec(value);
  if (match === null) return false;
  const ip6 = match.groups?.ip6;
  return ip6 === undefined || isIpv6(ip6);
}

const H16 = /^[0-9A-Fa-f]{1,4}$/;
const DEC_OCTET = /^(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])$/;

/** Whether `text` is an IPv6 address as RFC 3986 writes one (at most one `::`, an optional IPv4 tail). */
export function isIpv6(text: string): boolean {
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const groups = halves.map((half) => (half === '' ? [] : half.split(':')));
  const tail = groups[groups.length - 1] ?? [];
  let extra = 0;
  const last = tail[tail.length - 1];
  if (last?.includes('.') === true) {
    // An IPv4 tail stands for two groups, and only as the very last part.
    const octets = last.split('.');
    if (octets.length !== 4 || !octets.every((octet) => DEC_OCTET.test(octet))) return false;
    tail.pop();
    extra = 2;
  }
  const hex = groups.flat();
  if (!hex.every((group) => H16.test(group))) return false;
  const count = hex.length + extra;
  return halves.length === 2 ? count <= 7 : count === 8;
}

/** Every code point some part of an IRI may hold, with the delimiters between the parts. */
const ANY_PART = new RegExp(`^[${UNRESERVED}${SUB_DELIMS}${IPRIVATE}:@/?#\\[\\]%]$`, 'u');

/**
 * Why `value` is not an absolute IRI, in a few words for an error message (`holds U+0000`, `has no scheme`), or
 * undefined when it is one.
 */
export function iriProblem(value: string): string | undefined {
  if (isRfc3987Iri(value)) return undefined;
  for (const char of value) {
    if (!ANY_PART.test(char)) return `holds ${codePointName(char)}, which no IRI may hold`;
  }
  const percent = /%(?![0-9A-Fa-f]{2})/.exec(value);
  if (percent !== null) return `holds a % at ${percent.index + 1} that two hex digits do not follow`;
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(value)) return 'has no scheme (such as https:)';
  return 'is not an IRI by the syntax of RFC 3987';
}

function codePointName(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  const hex = code.toString(16).toUpperCase().padStart(4, '0');
  return code >= 0x21 && code <= 0x7e ? `"${char}"` : `U+${hex}`;
}
