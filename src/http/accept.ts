/** HTTP content negotiation: which of the offered representations an Accept header ranks highest. */

interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
}

/**
 * The offer the Accept header ranks highest (an absent or empty header accepts anything), or undefined when it
 * accepts none. Each offer lists its media types; on equal quality the offer listed first wins.
 */
export function preferred<T>(
  accept: string | undefined,
  offers: readonly (readonly [T, readonly string[]])[],
): T | undefined {
  const ranges = parseAccept(accept === undefined || accept.trim() === '' ? '*/*' : accept);
  let best: { offer: T; q: number } | undefined;
  for (const [offer, types] of offers) {
    const q = Math.max(...types.map((type) => quality(type, ranges)));
    if (q > 0 && (best === undefined || q > best.q)) best = { offer, q };
  }
  return best?.offer;
}

function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [media = '', ...params] = part.split(';').map((piece) => piece.trim());
    const [type, subtype] = media.toLowerCase().split('/');
    if (type === undefined || type === '' || subtype === undefined || subtype === '') continue;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split('=').map((piece) => piece.trim());
      if (name?.toLowerCase() === 'q') {
        const parsed = Number(value);
        q = Number.isFinite(parsed) ? Math.min(Math.max(parsed, 0), 1) : 0;
      }
    }
    ranges.push({ type, subtype, q });
  }
  return ranges;
}

/** The q of the most specific range matching a media type (exact, then `type/*`, then `*\/*`); 0 if none. */
function quality(mediaType: string, ranges: readonly MediaRange[]): number {
  const [type, subtype] = mediaType.split('/');
  let specificity = 0;
  let q = 0;
  for (const range of ranges) {
    const level =
      range.type === type && range.subtype === subtype
        ? 3
        : range.type === type && range.subtype === '*'
          ? 2
          : range.type === '*' && range.subtype === '*'
            ? 1
            : 0;
    if (level > specificity || (level === specificity && level > 0 && range.q > q)) {
      specificity = level;
      q = range.q;
    }
  }
  return q;
}
