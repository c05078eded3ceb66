// Renders the man pages, the README command reference and the command surface (docs/command-surface.json) from
// the command definitions, the concept pages, the settings table and the exit codes, so the documentation has one
// source. `npm run docs` writes them; tests check that the committed files are current.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from '@oclif/core';
import { SETTINGS } from '../src/core/config/settings.js';
import { ERROR_CODES } from '../src/core/error-codes.js';
import { EXIT_DESCRIPTIONS } from '../src/cli/exit-codes.js';
import { ClientCommand } from '../src/cli/client/client-command.js';
import { CLIENT_FILES, CLIENT_SETTINGS } from '../src/cli/client/profile.js';
import { concepts, joinParagraphs, type Concept } from '../src/cli/help.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const COMMANDS_DIR = path.join(ROOT, 'src', 'commands');
const README_START = '<!-- commands:start -->';
const README_END = '<!-- commands:end -->';
/** The command surface file, relative to the repository root. */
export const SURFACE = 'docs/command-surface.json';

interface FlagInfo {
  name: string;
  char?: string;
  description?: string;
  required?: boolean;
  multiple?: boolean;
  type: string;
  env?: string;
  default?: string;
  options?: readonly string[];
}

/** The variables the connection flags of client commands fall back to (see resolveProfile). */
const CONNECTION_ENV: Readonly<Record<string, string>> = {
  url: 'REG_URL',
  token: 'REG_TOKEN',
  'token-file': 'REG_TOKEN_FILE',
  profile: 'REG_PROFILE',
};

interface ArgInfo {
  name: string;
  description?: string;
  required: boolean;
}

interface CommandInfo {
  id: string;
  summary: string;
  description: string;
  examples: string[];
  args: ArgInfo[];
  flags: FlagInfo[];
  client: boolean;
}

// Commands in topic directories (src/commands/software/list.ts) have ids with the topic separator: "software list".
function commandFiles(dir: string, prefix: string[] = []): { id: string; file: string }[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return commandFiles(path.join(dir, entry.name), [...prefix, entry.name]);
    if (!entry.name.endsWith('.ts')) return [];
    return [{ id: [...prefix, entry.name.replace(/\.ts$/, '')].join(' '), file: path.join(dir, entry.name) }];
  });
}

/** The file-name form of a command id: "software list" → "software-list". */
const slug = (id: string): string => id.replace(/ /g, '-');

async function loadCommands(): Promise<CommandInfo[]> {
  const files = commandFiles(COMMANDS_DIR).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const commands: CommandInfo[] = [];
  for (const { id, file } of files) {
    const module = (await import(file)) as { default: Command.Class };
    const command = module.default;
    const args = Object.entries({ ...(command.args ?? {}) }).map(([name, arg]) => ({
      name,
      ...(arg.description === undefined ? {} : { description: arg.description }),
      required: arg.required === true,
    }));
    // A command's own flags first, then those of its base class (the connection flags of client commands).
    const client = command.prototype instanceof ClientCommand;
    const flags = Object.entries({ ...(command.flags ?? {}), ...(command.baseFlags ?? {}) }).map(
      ([name, flag]) => ({
        name,
        ...(flag.char === undefined ? {} : { char: flag.char }),
        ...(flag.description === undefined ? {} : { description: joinParagraphs(flag.description) }),
        ...(flag.required === true ? { required: true } : {}),
        ...('multiple' in flag && flag.multiple === true ? { multiple: true } : {}),
        ...('options' in flag && flag.options !== undefined ? { options: flag.options } : {}),
        type: flag.type,
        ...envOf(name, flag.env, client),
        ...('default' in flag && flag.default !== undefined
          ? { default: JSON.stringify(flag.default as unknown) }
          : {}),
      }),
    );
    flags.push({
      name: 'json',
      description: 'print the result (or the error) as one JSON object on standard output',
      type: 'boolean',
    });
    commands.push({
      id,
      summary: joinParagraphs(command.summary ?? ''),
      description: joinParagraphs(command.description ?? ''),
      examples: (command.examples ?? []).map((example) =>
        (typeof example === 'string' ? example : example.command)
          .replace(/<%= config\.bin %>/g, 'reg')
          .replace(/<%= command\.id %>/g, id),
      ),
      args,
      flags,
      client,
    });
  }
  return commands;
}

/** The variable a flag falls back to: its own `env`, else the profile variable of a connection flag. */
function envOf(name: string, env: string | undefined, client: boolean): { env?: string } {
  const variable = env ?? (client ? CONNECTION_ENV[name] : undefined);
  return variable === undefined ? {} : { env: variable };
}

/**
 * Help text as roff: paragraphs filled by the man reader, list items as bullets, indented lines (examples,
 * code) kept line by line.
 */
function roffParagraphs(text: string): string[] {
  const lines: string[] = [];
  let verbatim = false;
  for (const line of joinParagraphs(text).split('\n')) {
    const indented = /^\s/.test(line);
    if (verbatim && !indented) lines.push('.fi');
    if (line === '') lines.push('.PP');
    else if (indented) lines.push(...(verbatim ? [] : ['.nf']), roff(line));
    else if (line.startsWith('- ')) lines.push('.IP \\(bu 2', roff(line.slice(2)));
    else lines.push(...(lines.at(-1)?.startsWith('.IP') === true ? ['.PP'] : []), roff(line));
    verbatim = indented;
  }
  if (verbatim) lines.push('.fi');
  return lines;
}

const roff = (text: string): string =>
  text
    .replace(/\\/g, '\\e')
    .replace(/–/g, '\\(en')
    .replace(/—/g, '\\(em')
    .replace(/…/g, '...')
    .replace(/^([.'])/gm, '\\&$1')
    .replace(/-/g, '\\-');

function flagUsage(flag: FlagInfo): string {
  const file = flag.name === 'nquads' || flag.name === 'file' || flag.name === 'token-file';
  const value = flag.type === 'boolean' ? '' : ` <${file ? 'file' : 'value'}>`;
  return `${flag.char === undefined ? '' : `-${flag.char}, `}--${flag.name}${value}`;
}

const oneOf = (flag: FlagInfo): string =>
  flag.options === undefined ? '' : ` (one of: ${flag.options.join(', ')})`;

// A description that already names its variable is not told it twice.
const envNote = (flag: FlagInfo): string =>
  flag.env === undefined || (flag.description ?? '').includes(flag.env) ? '' : ` (env: ${flag.env})`;

const argUsage = (arg: ArgInfo): string => (arg.required ? `<${arg.name}>` : `[<${arg.name}>]`);

function manPage(command: CommandInfo): string {
  const lines = [
    `.TH REG-${slug(command.id).toUpperCase()} 1 "" "reg" "reg manual"`,
    '.SH NAME',
    `reg\\-${roff(slug(command.id))} \\- ${roff(command.summary)}`,
    '.SH SYNOPSIS',
    `.B reg ${command.id}`,
    ...command.args.map((arg) => roff(argUsage(arg))),
    ...command.flags.map((flag) => `[${roff(flagUsage(flag))}]`),
    '.SH DESCRIPTION',
    ...roffParagraphs(command.description),
  ];
  if (command.args.length > 0) lines.push('.SH ARGUMENTS');
  for (const arg of command.args) lines.push('.TP', `.B ${roff(argUsage(arg))}`, roff(arg.description ?? ''));
  lines.push('.SH OPTIONS');
  for (const flag of command.flags) {
    lines.push('.TP', `.B ${roff(flagUsage(flag))}`);
    lines.push(
      roff(
        `${flag.description ?? ''}${oneOf(flag)}${flag.required === true ? ' (required)' : ''}${flag.default === undefined ? '' : ` (default: ${flag.default})`}${envNote(flag)}`,
      ),
    );
  }
  if (
    command.id === 'serve' ||
    command.id === 'config' ||
    command.id === 'dump' ||
    command.id === 'restore'
  ) {
    lines.push('.SH ENVIRONMENT');
    for (const setting of SETTINGS) {
      lines.push(
        '.TP',
        `.B ${roff(setting.name)}`,
        roff(
          `${setting.summary}${setting.fallback === undefined || setting.fallback === '' ? '' : ` (default: ${setting.fallback})`}`,
        ),
      );
    }
  }
  if (command.client) {
    lines.push('.SH ENVIRONMENT');
    for (const setting of CLIENT_SETTINGS)
      lines.push('.TP', `.B ${roff(setting.name)}`, roff(setting.summary));
    lines.push('.SH FILES', ...roffParagraphs(CLIENT_FILES));
  }
  lines.push('.SH EXIT STATUS');
  for (const [code, meaning] of EXIT_DESCRIPTIONS) lines.push('.TP', `.B ${code}`, roff(meaning));
  lines.push('.SH EXAMPLES');
  for (const example of command.examples) lines.push('.nf', roff(example), '.fi');
  lines.push('.SH SEE ALSO', 'reg(1)');
  return `${lines.join('\n')}\n`;
}

function overviewPage(commands: CommandInfo[], pages: readonly Concept[]): string {
  const lines = [
    '.TH REG 1 "" "reg" "reg manual"',
    '.SH NAME',
    'reg \\- registry of software, releases, deployments, runs and artifacts',
    '.SH SYNOPSIS',
    '.B reg',
    '<command> [flags]',
    '.SH COMMANDS',
  ];
  for (const command of commands) lines.push('.TP', `.B ${command.id}`, roff(command.summary));
  lines.push(
    '.SH CONCEPTS',
    'reg help <concept> prints one of these pages; each is also reg\\-<concept>(7).',
  );
  for (const concept of pages) lines.push('.TP', `.B ${roff(concept.name)}`, roff(concept.summary));
  lines.push('.SH FILES', ...roffParagraphs(CLIENT_FILES));
  lines.push('.SH EXIT STATUS');
  for (const [code, meaning] of EXIT_DESCRIPTIONS) lines.push('.TP', `.B ${code}`, roff(meaning));
  lines.push(
    '.SH SEE ALSO',
    [
      ...commands.map((command) => `reg\\-${roff(slug(command.id))}(1)`),
      ...pages.map((concept) => `reg\\-${roff(concept.name)}(7)`),
    ].join(', '),
  );
  return `${lines.join('\n')}\n`;
}

/** A concept page as a section 7 man page. */
function conceptPage(concept: Concept): string {
  const lines = [
    `.TH REG-${concept.name.toUpperCase()} 7 "" "reg" "reg manual"`,
    '.SH NAME',
    `reg\\-${roff(concept.name)} \\- ${roff(concept.summary)}`,
    '.SH DESCRIPTION',
    ...roffParagraphs(concept.body),
    '.SH SEE ALSO',
    'reg(1)',
  ];
  return `${lines.join('\n')}\n`;
}

/** The command surface: every command with its summary, arguments, flags and number of examples. */
function commandSurface(commands: readonly CommandInfo[]): string {
  const surface = commands.map((command) => ({
    id: command.id,
    summary: command.summary,
    args: command.args.map((arg) => ({ name: arg.name, required: arg.required })),
    flags: [...command.flags]
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((flag) => ({
        name: flag.name,
        ...(flag.char === undefined ? {} : { char: flag.char }),
        type: flag.type,
        ...(flag.multiple === true ? { multiple: true } : {}),
        ...(flag.required === true ? { required: true } : {}),
        ...(flag.env === undefined ? {} : { env: flag.env }),
        ...(flag.options === undefined ? {} : { options: flag.options }),
        ...(flag.default === undefined ? {} : { default: flag.default }),
      })),
    examples: command.examples.length,
  }));
  return `${JSON.stringify({ commands: surface }, null, 2)}\n`;
}

function readmeSection(commands: CommandInfo[], pages: readonly Concept[]): string {
  const parts = [README_START, ''];
  for (const command of commands) {
    parts.push(`### \`reg ${command.id}\``, '', command.summary, '', command.description, '', '```');
    parts.push(
      `reg ${[command.id, ...command.args.map(argUsage), ...command.flags.map((flag) => `[${flagUsage(flag)}]`)].join(' ')}`,
      '```',
      '',
    );
    parts.push(
      ...command.args.map((arg) => `- \`${argUsage(arg)}\`: ${arg.description ?? ''}`),
      ...command.flags.map(
        (flag) =>
          `- \`${flagUsage(flag)}\`: ${flag.description ?? ''}${oneOf(flag)}${flag.required === true ? ' (required)' : ''}${envNote(flag)}`,
      ),
      '',
    );
    if (command.examples.length > 0) parts.push('```sh', ...command.examples, '```', '');
  }
  parts.push(
    '#### Concepts',
    '',
    '`reg help <concept>` prints one of these pages (and `man reg-<concept>`):',
    '',
  );
  parts.push(...pages.map((concept) => `- \`${concept.name}\`: ${concept.summary}`), '');
  parts.push(
    '#### Exit codes',
    '',
    '| code | meaning |',
    '|---|---|',
    ...EXIT_DESCRIPTIONS.map(([code, meaning]) => `| ${code} | ${meaning} |`),
    '',
  );
  parts.push(
    '#### Error codes',
    '',
    'The `code` of every problem (`type` is `https://w3id.org/reg/problem/<code>`; `GET /problems/<code>` on a',
    'registry describes it). Codes marked CLI arise in the command line only.',
    '',
    '| code | status | title | meaning |',
    '|---|---|---|---|',
    ...Object.entries(ERROR_CODES).map(
      ([code, entry]) =>
        `| \`${code}\` | ${entry.status}${entry.medium === 'cli' ? ' (CLI)' : ''} | ${entry.title} | ${entry.about} |`,
    ),
    '',
  );
  parts.push(
    '#### Client connection',
    '',
    joinParagraphs(CLIENT_FILES),
    '',
    '| variable | meaning |',
    '|---|---|',
  );
  parts.push(...CLIENT_SETTINGS.map((s) => `| \`${s.name}\` | ${s.summary} |`), '');
  parts.push('#### Settings', '', '| variable | default | meaning |', '|---|---|---|');
  parts.push(
    ...SETTINGS.map(
      (s) =>
        `| \`${s.name}\` | ${s.fallback === undefined || s.fallback === '' ? '—' : `\`${s.fallback}\``} | ${s.summary} |`,
    ),
    '',
    README_END,
  );
  return parts.join('\n');
}

/** Every generated documentation file, by path relative to the repository root, with its content. */
export async function renderDocs(): Promise<Map<string, string>> {
  const commands = await loadCommands();
  const pages = concepts();
  const files = new Map<string, string>();
  files.set('man/reg.1', overviewPage(commands, pages));
  for (const command of commands) files.set(`man/reg-${slug(command.id)}.1`, manPage(command));
  for (const concept of pages) files.set(`man/reg-${concept.name}.7`, conceptPage(concept));
  files.set(SURFACE, commandSurface(commands));
  // npm installs the man pages package.json lists: every generated page, and nothing else.
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
  pkg.man = [...files.keys()].filter((file) => /^man\/.*\.\d$/.test(file)).sort();
  files.set('package.json', `${JSON.stringify(pkg, null, 2)}\n`);
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start < 0 || end < 0) throw new Error(`README.md lacks the ${README_START} … ${README_END} markers`);
  files.set(
    'README.md',
    readme.slice(0, start) + readmeSection(commands, pages) + readme.slice(end + README_END.length),
  );
  return files;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  for (const [file, content] of await renderDocs()) {
    fs.mkdirSync(path.dirname(path.join(ROOT, file)), { recursive: true });
    fs.writeFileSync(path.join(ROOT, file), content);
    console.log(`wrote ${file}`);
  }
}
