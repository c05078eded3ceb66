import fs from 'node:fs';
import { CommandHelp, Errors, Help, type Command, type Hook, type Interfaces } from '@oclif/core';
import { getHelpFlagAdditions, standardizeIDFromArgv } from '@oclif/core/help';

/**
 * Joins the lines of each paragraph of a help text into one line, so that the text can be wrapped at any width.
 * Blank lines stay paragraph breaks; indented lines (examples, code) stay as they are; a line starting with
 * "- " starts a list item, and the lines after it up to the next item or break join that item.
 */
export function joinParagraphs(text: string): string {
  const out: string[] = [];
  let joinable = false;
  for (const raw of text.replace(/\r\n/g, '\n').split('\n')) {
    const line = raw.trimEnd();
    if (line === '') {
      if (out.length > 0 && out.at(-1) !== '') out.push('');
      joinable = false;
    } else if (/^\s/.test(line)) {
      out.push(line);
      joinable = false;
    } else if (line.startsWith('- ') || !joinable) {
      out.push(line);
      joinable = true;
    } else {
      out[out.length - 1] = `${out.at(-1) ?? ''} ${line}`;
    }
  }
  while (out.at(-1) === '') out.pop();
  return out.join('\n');
}

/** The width help is wrapped at: OCLIF_COLUMNS, else COLUMNS, else the terminal's, else 80 columns. */
export function helpWidth(env: NodeJS.ProcessEnv = process.env): number {
  for (const value of [env.OCLIF_COLUMNS, env.COLUMNS]) {
    const width = Number.parseInt(value ?? '', 10);
    if (width >= 20) return width;
  }
  return process.stdout.isTTY && process.stdout.columns > 0 ? process.stdout.columns : 80;
}

/** A concept page of `reg help <name>`: how a part of the registry works, beyond one command. */
export interface Concept {
  readonly name: string;
  /** One sentence, shown in the list of concepts. */
  readonly summary: string;
  /** The page, as paragraphs. */
  readonly body: string;
}

/** Where the concept pages are kept: concepts/ at the package root, shipped beside dist/. */
const TOPICS_DIR = new URL('../../concepts/', import.meta.url);

/** Every concept page, by name: the file name without ".md"; its first line ("# summary") is the summary. */
export function concepts(): Concept[] {
  if (!fs.existsSync(TOPICS_DIR)) return [];
  return fs
    .readdirSync(TOPICS_DIR)
    .filter((file) => file.endsWith('.md'))
    .sort()
    .map((file) => {
      const text = fs.readFileSync(new URL(file, TOPICS_DIR), 'utf8');
      const [first = '', ...rest] = text.split('\n');
      return {
        name: file.replace(/\.md$/, ''),
        summary: first.replace(/^#\s*/, '').trim(),
        body: joinParagraphs(rest.join('\n').trim()),
      };
    });
}

/** A copy of a command with its texts joined into paragraphs. */
function joinedCommand(command: Command.Loadable): Command.Loadable {
  const join = (text: string | undefined): string | undefined =>
    text === undefined ? undefined : joinParagraphs(text);
  const flags = Object.fromEntries(
    Object.entries(command.flags).map(([name, flag]) => [
      name,
      { ...flag, ...(flag.description === undefined ? {} : { description: join(flag.description) }) },
    ]),
  );
  const args = Object.fromEntries(
    Object.entries(command.args).map(([name, arg]) => [
      name,
      { ...arg, ...(arg.description === undefined ? {} : { description: join(arg.description) }) },
    ]),
  );
  return {
    ...command,
    flags,
    args,
    ...(command.description === undefined ? {} : { description: join(command.description) }),
    ...(command.summary === undefined ? {} : { summary: join(command.summary) }),
  } as Command.Loadable;
}

/** Wraps each line of a text; a list item ("- ") keeps its continuation lines under its first word. */
function wrapItems(
  input: string,
  wrapLine: (line: string, indent: number) => string,
  indent: number,
): string {
  return input
    .split('\n')
    .map((line) => {
      if (!line.startsWith('- ')) return wrapLine(line, indent);
      const wrapped = wrapLine(line.slice(2), indent + 2).split('\n');
      return wrapped.map((part, index) => `${index === 0 ? '- ' : '  '}${part}`).join('\n');
    })
    .join('\n');
}

/** The words of a shell command line: spaces inside quotes do not split. */
export function shellWords(line: string): string[] {
  return line.match(/(?:[^\s'"]+|'[^']*'|"(?:[^"\\]|\\.)*")+/g) ?? [];
}

/**
 * Breaks a shell command line into lines of at most `width` characters, each but the last ending in " \\" and
 * each after the first indented by four spaces, breaking only between words (a word longer than a line keeps a
 * line of its own).
 */
export function wrapShell(line: string, width: number): string {
  const lines: string[] = [];
  let current = '';
  for (const word of shellWords(line)) {
    const next = current === '' ? word : `${current} ${word}`;
    const room = width - (lines.length === 0 ? 0 : 4) - 2;
    if (current !== '' && next.length > room) {
      lines.push(current);
      current = word;
    } else {
      current = next;
    }
  }
  lines.push(current);
  return lines.map((part, index) => (index === 0 ? part : `    ${part}`)).join(' \\\n');
}

type ListOptions = Parameters<CommandHelp['renderList']>[1];

/** The help of one command: list items wrapped under their first word, examples broken between words. */
class RegCommandHelp extends CommandHelp {
  override wrap(input: string, spacesToIndent: number = this.indentSpacing): string {
    return wrapItems(input, (line, indent) => super.wrap(line, indent), spacesToIndent);
  }

  // oclif indents the descriptions of a list laid out one item under another by two more columns than it
  // leaves room for; asking for two more keeps those lines within the width.
  override renderList(input: (string | undefined)[][], opts: ListOptions): string {
    return super.renderList(input, { ...opts, indentation: opts.indentation + 2 });
  }

  protected override examples(examples: Command.Example[] | string | undefined): string | undefined {
    if (examples === undefined || examples.length === 0) return undefined;
    const width = this.opts.maxWidth - this.indentSpacing;
    return (typeof examples === 'string' ? [examples] : examples)
      .map((example) => {
        // Every line of an example is a command line (with its variables), shown after a prompt.
        const text = typeof example === 'string' ? example : example.command;
        const about = typeof example === 'string' ? [] : [this.wrap(example.description, 0)];
        const lines = this.render(text)
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => wrapShell(line.startsWith('$ ') ? line : `$ ${line}`, width));
        return [...about, ...lines].join('\n');
      })
      .join('\n\n');
  }
}

/**
 * The help of `reg`: command texts are joined into paragraphs before oclif wraps them at the width of the
 * terminal (or COLUMNS), and `reg help <concept>` prints a concept page, followed by the commands of the topic
 * or the help of the command of the same name.
 */
export class RegHelp extends Help {
  protected override CommandHelpClass = RegCommandHelp;

  constructor(config: Interfaces.Config, opts: Partial<Interfaces.HelpOptions> = {}) {
    super(config, { ...opts, maxWidth: helpWidth() });
  }

  override async showHelp(argv: string[]): Promise<void> {
    const asked = argv.filter((arg) => !arg.startsWith('-'));
    const flagged = argv.length !== asked.length;
    const concept = asked.length === 1 ? concepts().find((page) => page.name === asked[0]) : undefined;
    if (concept === undefined || flagged) {
      this.refuseUnknown(argv);
      return super.showHelp(argv);
    }
    this.log(this.formatConcept(concept));
    const subject = concept.name;
    if (this.config.findCommand(subject) !== undefined || this.config.findTopic(subject) !== undefined) {
      this.log('');
      await super.showHelp([subject]);
    }
  }

  override async showCommandHelp(command: Command.Loadable): Promise<void> {
    const summary = this.summary(command);
    if (summary !== undefined) this.log(`${this.wrap(summary, 0)}\n`);
    this.log(this.formatCommand(command));
    this.log('');
    return Promise.resolve();
  }

  /** Help asked about no command, topic or concept: one line naming the closest, exit 2. */
  private refuseUnknown(argv: string[]): void {
    const helpFlags = getHelpFlagAdditions(this.config);
    const words = standardizeIDFromArgv(
      argv.filter((arg) => !helpFlags.includes(arg)),
      this.config,
    );
    const subject = words.find((arg) => !arg.startsWith('-') && arg !== 'help');
    if (subject === undefined) return;
    if (this.config.findCommand(subject) !== undefined || this.config.findTopic(subject) !== undefined)
      return;
    const typed = subject.replaceAll(':', ' ');
    const known = [
      ...this.config.commands.filter((command) => command.hidden !== true).map((command) => command.id),
      ...this.config.topics.map((topic) => topic.name),
    ].map((name) => name.replaceAll(':', ' '));
    const suggestion = closestCommand(typed.split(' '), [...known, ...concepts().map((page) => page.name)]);
    process.stderr.write(
      `reg: "${typed}" is not a reg command, topic or concept${suggestion === undefined ? '' : `; did you mean "reg help ${suggestion}"?`} (reg help lists them all)\n`,
    );
    Errors.exit(2);
  }

  protected override async showRootHelp(): Promise<void> {
    await super.showRootHelp();
    const pages = concepts();
    if (pages.length === 0) return;
    const list = this.renderList(
      pages.map((page) => [page.name, page.summary]),
      { indentation: 2, spacer: '\n', stripAnsi: this.opts.stripAnsi },
    );
    this.log(this.section('CONCEPTS (reg help <concept>)', list));
    this.log('');
  }

  override formatRoot(): string {
    const about: unknown = this.config.pjson.description;
    const [summary = '', ...rest] = joinParagraphs(typeof about === 'string' ? about : '').split('\n');
    const description = rest.join('\n').trim();
    return [
      this.wrap(summary, 0),
      this.section('VERSION', this.wrap(this.config.userAgent)),
      this.section('USAGE', this.wrap(`$ ${this.config.bin} [COMMAND]`)),
      ...(description === '' ? [] : [this.section('DESCRIPTION', this.wrap(description))]),
    ].join('\n\n');
  }

  protected override formatCommand(command: Command.Loadable): string {
    return super.formatCommand(joinedCommand(command));
  }

  protected override summary(command: Command.Loadable): string | undefined {
    const summary = super.summary(command);
    return summary === undefined ? undefined : joinParagraphs(summary);
  }

  protected override formatTopic(topic: Interfaces.Topic): string {
    const [summary = '', ...rest] = joinParagraphs(topic.description ?? '').split('\n');
    const usage = `$ ${this.config.bin} ${topic.name.replaceAll(':', ' ')} COMMAND`;
    const description = rest.join('\n').trim();
    return [
      this.wrap(summary, 0),
      this.section('USAGE', usage),
      ...(description === '' ? [] : [this.section('DESCRIPTION', this.wrap(description))]),
    ]
      .join('\n\n')
      .concat('\n');
  }

  override wrap(input: string, spacesToIndent: number = this.indentSpacing): string {
    return wrapItems(input, (line, indent) => super.wrap(line, indent), spacesToIndent);
  }

  /** A concept page: its summary, then its paragraphs wrapped to the help width. */
  formatConcept(concept: Concept): string {
    return `${this.wrap(concept.summary)}\n\n${this.section(concept.name.toUpperCase(), this.wrap(concept.body, 2))}\n`;
  }
}

export default RegHelp;

/** The edit distance between two strings (insertions, deletions, substitutions). */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The command or topic closest to the words typed, if any is close enough to be meant. */
export function closestCommand(words: readonly string[], ids: readonly string[]): string | undefined {
  let best: { id: string; cost: number; length: number } | undefined;
  for (const id of ids) {
    const parts = id.split(' ');
    if (parts.length > words.length) continue;
    const typed = words.slice(0, parts.length).join(' ');
    const cost = distance(typed, id);
    // On a tie the longer id wins: "softwre list" means the command software list, not the topic software.
    const better =
      best === undefined || cost < best.cost || (cost === best.cost && parts.length > best.length);
    if (cost <= Math.max(2, Math.floor(id.length / 3)) && better) best = { id, cost, length: parts.length };
  }
  return best?.id;
}

/**
 * Before a command runs: an unknown command typed without a terminal (a script, CI) is refused at once with the
 * closest command named, exit 2. At a terminal the did-you-mean prompt of the not-found plugin asks instead.
 */
export const suggestCommand: Hook<'init'> = function (options) {
  const { id, config } = options;
  if (process.stdin.isTTY || id === undefined || id.startsWith('-') || id === 'help')
    return Promise.resolve();
  if (config.findCommand(id) !== undefined || config.findTopic(id) !== undefined) return Promise.resolve();
  const words = [...id.split(':'), ...(options.argv ?? [])].filter((word) => !word.startsWith('-'));
  const ids = [
    ...config.commands.filter((command) => command.hidden !== true).map((command) => command.id),
    ...config.topics.map((topic) => topic.name),
  ].map((name) => name.replaceAll(':', ' '));
  const suggestion = closestCommand(words, ids);
  const typed = id.replaceAll(':', ' ');
  process.stderr.write(
    `reg: "${typed}" is not a reg command${suggestion === undefined ? '' : `; did you mean "reg ${suggestion}"?`} (reg help lists them all)\n`,
  );
  this.exit(2);
  return Promise.resolve();
};
