import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderDocs } from '../../scripts/docs.js';
import { closestCommand, joinParagraphs, shellWords, wrapShell } from '../../src/cli/help.js';
import { ROOT } from '../helpers.js';

describe('generated documentation', () => {
  it('is current: man pages and the README command reference match the command definitions', async () => {
    const files = await renderDocs();
    expect(files.size).toBeGreaterThan(5);
    for (const [file, content] of files) {
      const onDisk = fs.existsSync(path.join(ROOT, file))
        ? fs.readFileSync(path.join(ROOT, file), 'utf8')
        : '';
      expect(onDisk, `${file} is stale: run npm run docs`).toBe(content);
    }
  });

  it('renders every concept page as a section 7 man page listed in the overview', async () => {
    const files = await renderDocs();
    const concepts = fs
      .readdirSync(path.join(ROOT, 'concepts'))
      .filter((file) => file.endsWith('.md'))
      .map((file) => file.replace(/\.md$/, ''));
    expect(concepts).toEqual(
      expect.arrayContaining(['tokens', 'advertising', 'lineage', 'subscriptions', 'federation']),
    );
    for (const concept of concepts) {
      const page = files.get(`man/reg-${concept}.7`);
      expect(page, concept).toMatch(new RegExp(`^\\.TH REG-${concept.toUpperCase()} 7 `));
      expect(files.get('man/reg.1')).toContain(`reg\\-${concept}(7)`);
    }
    // Paragraphs are one roff line each: the man reader fills them at its own width.
    expect(files.get('man/reg-tokens.7')).toMatch(
      /^Every call to a registry may carry a credential .* the credential to be\.$/m,
    );
  });

  it('gives each flag the variable it falls back to', async () => {
    const surface = JSON.parse((await renderDocs()).get('docs/command-surface.json') ?? '{}') as {
      commands: { id: string; flags: { name: string; env?: string }[] }[];
    };
    const flags = (id: string) => surface.commands.find((command) => command.id === id)?.flags ?? [];
    expect(flags('whoami').find((flag) => flag.name === 'url')?.env).toBe('REG_URL');
    expect(flags('whoami').find((flag) => flag.name === 'token-file')?.env).toBe('REG_TOKEN_FILE');
    expect(flags('whoami').find((flag) => flag.name === 'profile')?.env).toBe('REG_PROFILE');
    expect(flags('advertise produced').find((flag) => flag.name === 'instance-key')?.env).toBe(
      'REG_INSTANCE_KEY',
    );
    expect(flags('serve').find((flag) => flag.name === 'url')).toBeUndefined();
  });
});

describe('help text', () => {
  it('joins the lines of a paragraph and keeps breaks, list items and indented lines', () => {
    const text = [
      'First line of a paragraph',
      'that goes on here.',
      '',
      '',
      'A list:',
      '- one item',
      '  still the first item',
      'and its last words',
      '- another',
      '',
      '    reg tokens create --instance x',
      '    reg tokens list',
      'After the code.',
    ].join('\n');
    expect(joinParagraphs(text)).toBe(
      [
        'First line of a paragraph that goes on here.',
        '',
        'A list:',
        '- one item',
        '  still the first item',
        'and its last words',
        '- another',
        '',
        '    reg tokens create --instance x',
        '    reg tokens list',
        'After the code.',
      ].join('\n'),
    );
    expect(joinParagraphs('One\ntwo\n- three\nfour')).toBe('One two\n- three four');
  });

  it('breaks a shell command line between words, never inside quotes', () => {
    expect(shellWords(`reg a --title "two words" --k 'x y'`)).toEqual([
      'reg',
      'a',
      '--title',
      '"two words"',
      '--k',
      "'x y'",
    ]);
    const wrapped = wrapShell(
      '$ reg advertise produced --title "Validation report" --type shacl-validation-report',
      40,
    );
    expect(wrapped.split('\n')).toEqual([
      '$ reg advertise produced --title \\',
      '    "Validation report" --type \\',
      '    shacl-validation-report',
    ]);
    for (const line of wrapped.split('\n')) expect(line.length).toBeLessThanOrEqual(40);
    expect(wrapShell('$ reg version', 40)).toBe('$ reg version');
  });

  it('finds the command meant by a misspelt one, preferring a command to its topic', () => {
    const ids = ['software', 'software list', 'software create', 'artifacts', 'artifacts list', 'version'];
    expect(closestCommand(['softwre', 'list'], ids)).toBe('software list');
    expect(closestCommand(['artifact', 'list'], ids)).toBe('artifacts list');
    expect(closestCommand(['softwre'], ids)).toBe('software');
    expect(closestCommand(['vrsion'], ids)).toBe('version');
    expect(closestCommand(['frobnicate'], ids)).toBeUndefined();
  });
});
