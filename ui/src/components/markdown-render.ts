/**
 * Renders a record's README with markdown-it, safely: raw HTML is escaped (`html: false`), and every link and
 * image URL must be http, https or mailto once relative ones are resolved against the README's base URL.
 * Loaded only by the page that shows a README, so markdown-it stays out of every other page.
 */
import MarkdownIt from 'markdown-it';

const ALLOWED = new Set(['http:', 'https:', 'mailto:']);

/** The absolute URL a README link or image points at, or undefined when it may not be followed. */
export function resolveReadmeUrl(url: string, base: string | undefined): string | undefined {
  let resolved: URL;
  try {
    resolved = new URL(url);
  } catch {
    // Relative: only meaningful against the base the record gives (without one it would point into this site).
    if (base === undefined) return undefined;
    try {
      resolved = new URL(url, base);
    } catch {
      return undefined;
    }
  }
  return ALLOWED.has(resolved.protocol) ? resolved.href : undefined;
}

/** The README as HTML; links that may not be followed are left as plain text. */
export function renderMarkdown(source: string, base: string | undefined): string {
  const md = new MarkdownIt({ html: false, linkify: true });
  const normalize = md.normalizeLink.bind(md);
  // markdown-it normalises every link and image URL, then validates the result: an empty URL is refused.
  md.normalizeLink = (url) => {
    const resolved = resolveReadmeUrl(url, base);
    return resolved === undefined ? '' : normalize(resolved);
  };
  md.validateLink = (url) => url !== '';
  // The README sits under the page's own headings (`h1` name, `h2` README): its `#` becomes an `h3`.
  md.core.ruler.push('nest_headings', (state) => {
    for (const token of state.tokens) {
      if (token.type === 'heading_open' || token.type === 'heading_close')
        token.tag = `h${Math.min(6, Number(token.tag.slice(1)) + 2)}`;
    }
  });
  md.renderer.rules.link_open = (tokens, index, options, _env, self) => {
    tokens[index]?.attrSet('rel', 'nofollow noopener');
    return self.renderToken(tokens, index, options);
  };
  return md.render(source);
}
