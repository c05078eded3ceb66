import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { clipped, fenced, inline, link, quoted } from '../../src/core/discovery/markdown-text.js';
import { INJECTIONS, NOT_IN_IRIS } from '../hostile/values.js';

/*
 * The escaping of user text in Markdown pages, read back by a CommonMark parser (markdown-it, raw HTML on):
 * whatever the text holds, it comes back as that text, and adds no structure, link, image, HTML or code.
 */

const reader = new MarkdownIt({ html: true });

/** Text that tries every kind of Markdown structure. */
const HOSTILE = [
  'Tool](javascript:alert(1))',
  '[click](https://evil.example.org "title")',
  '![image](https://evil.example.org/x.png)',
  '<script>alert(1)</script>',
  '<https://evil.example.org>',
  '`code` and ``more``',
  '*emphasis* and _more_ and **strong**',
  '# heading',
  '## heading ##',
  '- item',
  '+ item',
  '* item',
  '1. item',
  '2) item',
  '> quote',
  '---',
  '===',
  '    indented code',
  '```js',
  '~~~',
  '| a | b |',
  '&amp; &#x3C; &lt;',
  '\\*escaped already\\*',
  'trailing backslash \\',
  '[ref]: https://evil.example.org',
  '~~struck~~',
  ...INJECTIONS,
  ...NOT_IN_IRIS,
];

/** The kinds of token a parse of `markdown` holds, inline ones included. */
function tokenTypes(markdown: string): string[] {
  return reader
    .parse(markdown, {})
    .flatMap((token) => [token.type, ...(token.children ?? []).map((child) => child.type)]);
}

/** The text a parse of `markdown` shows: every text token's content, joined. */
function shownText(markdown: string): string {
  return reader
    .parse(markdown, {})
    .flatMap((token) => token.children ?? [])
    .map((token) => (token.type === 'softbreak' ? '\n' : token.content))
    .join('');
}

describe('inline', () => {
  it.each(HOSTILE)('reads back as the text itself, one paragraph of plain text: %j', (value) => {
    const written = `Name: ${inline(value)}`;
    expect(written).not.toContain('\n');
    expect(new Set(tokenTypes(written))).toEqual(
      new Set(['paragraph_open', 'inline', 'text', 'paragraph_close']),
    );
    expect(shownText(written)).toBe(`Name: ${value.replace(/[\s\u0085]+/g, ' ').trim()}`.trim());
  });

  it('turns line breaks into spaces and drops control characters', () => {
    expect(inline('one\ntwo\r\nthree\u2028four')).toBe('one two three four');
    expect(inline('bell\u0007 and nul\u0000')).toBe('bell and nul');
  });

  it('stays plain text as a heading', () => {
    for (const value of HOSTILE) {
      const tokens = reader.parse(`# ${inline(value) || 'x'}`, {});
      expect(tokens.map((token) => token.type)).toEqual(['heading_open', 'inline', 'heading_close']);
    }
  });
});

describe('clipped', () => {
  it('keeps text within the limit, escapes included, and marks a cut', () => {
    const value = `${'[x](y) '.repeat(40)}end`;
    const written = clipped(value, 160);
    expect([...written].length).toBeLessThanOrEqual(160);
    expect(written.endsWith('…')).toBe(true);
    expect(new Set(tokenTypes(written))).toEqual(
      new Set(['paragraph_open', 'inline', 'text', 'paragraph_close']),
    );
    expect(clipped('short', 160)).toBe('short');
  });
});

describe('quoted', () => {
  it('quotes every line of multi-line text, keeping paragraphs and adding no structure', () => {
    const value = HOSTILE.join('\n') + '\n\nA second paragraph.';
    const lines = quoted(value);
    for (const line of lines) expect(line === '>' || line.startsWith('> ')).toBe(true);
    const types = new Set(tokenTypes(lines.join('\n')));
    expect(types).toEqual(
      new Set([
        'blockquote_open',
        'paragraph_open',
        'inline',
        'text',
        'softbreak',
        'paragraph_close',
        'blockquote_close',
      ]),
    );
    expect(shownText(lines.join('\n'))).toContain('# heading\n## heading ##\n- item');
    // Blank lines separate paragraphs once each; none opens or closes the quote.
    expect(lines.join('\n')).not.toContain('>\n>\n');
    expect([lines[0], lines[lines.length - 1]]).not.toContain('>');
    expect(quoted('one\n\n\n\ntwo')).toEqual(['> one', '>', '> two']);
  });
});

describe('link', () => {
  it('links web URLs only; any other target is shown, not followed', () => {
    expect(link('home', 'https://example.org/a b')).toBe('[home](<https://example.org/a%20b>)');
    for (const target of ['javascript:alert(1)', 'data:text/html,x', 'vbscript:x', 'file:///etc/passwd']) {
      const written = link('click', target);
      expect(tokenTypes(written)).not.toContain('link_open');
      expect(shownText(written)).toBe(`click (${target})`);
    }
  });

  it('keeps a hostile label as text and the target whole', () => {
    const written = link('x](https://evil.example.org) [y', 'https://example.org/>)"');
    const tokens = reader.parse(written, {}).flatMap((token) => token.children ?? []);
    const links = tokens.filter((token) => token.type === 'link_open');
    expect(links.map((token) => token.attrGet('href'))).toEqual(['https://example.org/%3E)%22']);
    expect(shownText(written)).toBe('x](https://evil.example.org) [y');
  });
});

describe('fenced', () => {
  it('holds text with backtick runs as one code block', () => {
    const value = 'run ``` this\n```\nand ````';
    const tokens = reader.parse(fenced(value).join('\n'), {});
    expect(tokens.map((token) => token.type)).toEqual(['fence']);
    expect(tokens[0]!.content).toBe(`${value}\n`);
  });
});
