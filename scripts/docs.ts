// Renders the man pages and the README command reference from the command definitions, the settings table
// and the exit codes, so the documentation has one source. `npm run docs` writes them; a test checks that the
// committed files are current.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from '@oclif/core';
import { SETTINGS } from '../src/core/config/settings.js';
import { EXIT_DESCRIPTIONS } from '../src/cli/exit-codes.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const COMMANDS_DIR = path.join(ROOT, 'src', 'commands');
const README_START = '<!-- commands:start -->';
const README_END = '<!-- commands:end -->';

interface FlagInfo {
  name: string;
  char?: string;
  description?: string;
  required?: boolean;
  type: string;
  default?: string;
}

interface CommandInfo {
  id: string;
  summary: string;
  description: string;
  examples: string[];
  flags: FlagInfo[];
}

async function loadCommands(): Promise<CommandInfo[]> {
  const files = fs
    .readdirSync(COMMANDS_DIR)
    .filter((file) => file.endsWith('.ts'))
    .sort();
  const commands: CommandInfo[] = [];
  for (const file of files) {
    const id = file.replace(/\.ts$/, '');
    const module = (await import(path.join(COMMANDS_DIR, file))) as { default: Command.Class };
    const command = module.default;
    const flags = Object.entries({ ...(command.flags ?? {}) }).map(([name, flag]) => ({
      name,
      ...(flag.char === undefined ? {} : { char: flag.char }),
      ...(flag.description === undefined ? {} : { description: flag.description }),
      ...(flag.required === true ? { required: true } : {}),
      type: flag.type,
      ...('default' in flag && flag.default !== undefined
        ? { default: JSON.stringify(flag.default as unknown) }
        : {}),
    }));
    flags.push({
      name: 'json',
      description: 'print the result (or the error) as one JSON object on standard output',
      type: 'boolean',
    });
    commands.push({
      id,
      summary: command.summary ?? '',
      description: command.description ?? '',
      examples: (command.examples ?? []).map((example) =>
        (typeof example === 'string' ? example : example.command)
          .replace(/<%= config\.bin %>/g, 'reg')
          .replace(/<%= command\.id %>/g, id),
      ),
      flags,
    });
  }
  return commands;
}

const roff = (text: string): string =>
  text
    .replace(/\\/g, '\\e')
    .replace(/^([.'])/gm, '\\&$1')
    .replace(/-/g, '\\-');

function flagUsage(flag: FlagInfo): string {
  const value = flag.type === 'boolean' ? '' : ` <${flag.name === 'nquads' ? 'file' : 'value'}>`;
  return `${flag.char === undefined ? '' : `-${flag.char}, `}--${flag.name}${value}`;
}

function manPage(command: CommandInfo): string {
  const lines = [
    `.TH REG-${command.id.toUpperCase()} 1 "" "reg" "reg manual"`,
    '.SH NAME',
    `reg\\-${command.id} \\- ${roff(command.summary)}`,
    '.SH SYNOPSIS',
    `.B reg ${command.id}`,
    ...command.flags.map((flag) => `[${roff(flagUsage(flag))}]`),
    '.SH DESCRIPTION',
    ...command.description.split('\n').map(roff),
    '.SH OPTIONS',
  ];
  for (const flag of command.flags) {
    lines.push('.TP', `.B ${roff(flagUsage(flag))}`);
    lines.push(
      roff(
        `${flag.description ?? ''}${flag.required === true ? ' (required)' : ''}${flag.default === undefined ? '' : ` (default: ${flag.default})`}`,
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
  lines.push('.SH EXIT STATUS');
  for (const [code, meaning] of EXIT_DESCRIPTIONS) lines.push('.TP', `.B ${code}`, roff(meaning));
  lines.push('.SH EXAMPLES');
  for (const example of command.examples) lines.push('.nf', roff(example), '.fi');
  lines.push('.SH SEE ALSO', 'reg(1)');
  return `${lines.join('\n')}\n`;
}

function overviewPage(commands: CommandInfo[]): string {
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
  lines.push('.SH EXIT STATUS');
  for (const [code, meaning] of EXIT_DESCRIPTIONS) lines.push('.TP', `.B ${code}`, roff(meaning));
  lines.push('.SH SEE ALSO', commands.map((command) => `reg\\-${command.id}(1)`).join(', '));
  return `${lines.join('\n')}\n`;
}

function readmeSection(commands: CommandInfo[]): string {
  const parts = [README_START, ''];
  for (const command of commands) {
    parts.push(`### \`reg ${command.id}\``, '', command.summary, '', command.description, '', '```');
    parts.push(
      `reg ${command.id} ${command.flags.map((flag) => `[${flagUsage(flag)}]`).join(' ')}`,
      '```',
      '',
    );
    parts.push(
      ...command.flags.map(
        (flag) =>
          `- \`${flagUsage(flag)}\`: ${flag.description ?? ''}${flag.required === true ? ' (required)' : ''}`,
      ),
      '',
    );
    if (command.examples.length > 0) parts.push('```sh', ...command.examples, '```', '');
  }
  parts.push(
    '#### Exit codes',
    '',
    '| code | meaning |',
    '|---|---|',
    ...EXIT_DESCRIPTIONS.map(([code, meaning]) => `| ${code} | ${meaning} |`),
    '',
  );
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
  const files = new Map<string, string>();
  files.set('man/reg.1', overviewPage(commands));
  for (const command of commands) files.set(`man/reg-${command.id}.1`, manPage(command));
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start < 0 || end < 0) throw new Error(`README.md lacks the ${README_START} … ${README_END} markers`);
  files.set(
    'README.md',
    readme.slice(0, start) + readmeSection(commands) + readme.slice(end + README_END.length),
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
