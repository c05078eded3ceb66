import { Args, Flags } from '@oclif/core';
import { ClientCommand } from '../cli/client/client-command.js';
import { outputWidth, truncate } from '../cli/client/table.js';

/** One run or artifact of an impact answer. */
interface ImpactNode {
  readonly iri: string;
  readonly title?: string;
  readonly depth: number;
  readonly entity_type?: string;
  readonly instance?: string;
  readonly release?: string;
  readonly unresolved?: true;
}

/** One deployment of an impact answer. */
interface ImpactDeployment {
  readonly iri: string;
  readonly label?: string;
  readonly health: string;
  readonly release?: string;
  readonly release_version?: string;
  readonly still_on_release?: boolean;
  readonly runs: number;
  readonly first_used_at?: string;
  readonly produced_since: { readonly count: number; readonly artifacts: string[] };
  readonly left_release_at?: string;
}

/** One subscription of an impact answer. */
interface ImpactSubscription {
  readonly id: string;
  readonly instance: string;
  readonly label?: string;
  readonly artifact_count: number;
  readonly deliveries: number;
  readonly statuses: Record<string, number>;
}

/** `GET /api/v1/impact`, as this command reads it (the whole answer is printed under --json). */
interface ImpactJson {
  readonly of: string;
  readonly subject: { readonly kind: string; readonly artifacts: string[]; readonly releases: string[] };
  readonly summary: Record<string, number>;
  readonly runs: ImpactNode[];
  readonly artifacts: ImpactNode[];
  readonly edges: { readonly from: string; readonly to: string; readonly predicate: string }[];
  readonly deployments: ImpactDeployment[];
  readonly subscriptions: ImpactSubscription[];
  readonly subscriptions_scope: string;
  readonly partial: boolean;
  readonly cursor?: string;
}

/** The pages of a partial answer as one: nodes, edges, deployments and subscriptions each once. */
function merge(a: ImpactJson, b: ImpactJson): ImpactJson {
  const once = <T>(items: T[], key: (item: T) => string): T[] => [
    ...new Map(items.map((item) => [key(item), item])).values(),
  ];
  const runs = once([...a.runs, ...b.runs], (n) => n.iri);
  const artifacts = once([...a.artifacts, ...b.artifacts], (n) => n.iri);
  const deployments = once([...a.deployments, ...b.deployments], (d) => d.iri);
  const subscriptions = once([...a.subscriptions, ...b.subscriptions], (s) => s.id);
  const { cursor: _cursor, ...rest } = b;
  return {
    ...rest,
    ...(b.cursor === undefined ? {} : { cursor: b.cursor }),
    runs,
    artifacts,
    edges: once([...a.edges, ...b.edges], (e) => `${e.from} ${e.predicate} ${e.to}`),
    deployments,
    subscriptions,
    summary: {
      ...b.summary,
      runs: runs.length,
      direct_runs: runs.filter((run) => run.depth === 1).length,
      artifacts: artifacts.length,
      deployments: deployments.length,
      deployments_still_on_release: deployments.filter((d) => d.still_on_release === true).length,
      subscriptions: subscriptions.length,
    },
  };
}

const named = (node: ImpactNode | undefined, iri: string, kind: string): string =>
  `${kind}${node?.title === undefined ? '' : ` ${JSON.stringify(node.title)}`} <${iri}>${node?.unresolved === true ? ' (unresolved)' : ''}`;

/** The answer as an indented tree under what it is about, then its deployments and subscriptions. */
function renderImpact(answer: ImpactJson, width: number): string {
  const nodes = new Map([...answer.runs, ...answer.artifacts].map((node) => [node.iri, node]));
  const runs = new Set(answer.runs.map((run) => run.iri));
  const deployments = new Map(answer.deployments.map((d) => [d.iri, d]));
  // Below an artifact (or a release): the runs that used it and what was derived from it; below a run: what it made.
  const below = new Map<string, { iri: string; words: string }[]>();
  const add = (parent: string, iri: string, words: string) =>
    below.set(parent, [...(below.get(parent) ?? []), { iri, words }]);
  for (const edge of answer.edges) {
    if (edge.predicate === 'used') add(edge.to, edge.from, 'used by');
    else if (edge.predicate === 'generated') add(edge.from, edge.to, 'generated');
    else add(edge.to, edge.from, edge.predicate === 'revisionOf' ? 'revised by' : 'source of');
  }
  const describe = (iri: string): string => {
    const node = nodes.get(iri);
    if (!runs.has(iri)) return named(node, iri, node?.entity_type ?? 'release');
    const by = node?.instance === undefined ? undefined : deployments.get(node.instance);
    return `${named(node, iri, 'run')}${by === undefined ? '' : ` by ${by.label ?? by.iri}`}`;
  };
  const lines: string[] = [];
  const shown = new Set<string>();
  const walk = (iri: string, prefix: string, words: string | undefined, last: boolean): void => {
    const branch = words === undefined ? '' : `${prefix}${last ? '└─ ' : '├─ '}${words} `;
    const again = shown.has(iri);
    lines.push(`${branch}${describe(iri)}${again ? ' (shown above)' : ''}`);
    if (again) return;
    shown.add(iri);
    const children = below.get(iri) ?? [];
    const inner = words === undefined ? '' : `${prefix}${last ? '   ' : '│  '}`;
    children.forEach((child, k) => walk(child.iri, inner, child.words, k === children.length - 1));
  };
  for (const root of [...answer.subject.releases, ...answer.subject.artifacts])
    walk(root, '', undefined, true);
  const s = answer.summary;
  lines.push(
    '',
    `${s.runs} runs (${s.direct_runs} direct), ${s.artifacts} artifacts, ${s.deployments} deployments (${s.deployments_still_on_release} still on the release)`,
  );
  for (const d of answer.deployments) {
    const now = d.release_version ?? d.release ?? 'no release';
    const still =
      d.still_on_release === undefined
        ? ''
        : d.still_on_release
          ? ', still on the release'
          : `, moved off the release${d.left_release_at === undefined ? '' : ` at ${d.left_release_at}`}`;
    lines.push(
      `  ${d.label ?? d.iri} <${d.iri}>: health ${d.health}, runs ${now}${still}; ${d.runs} runs, first ${d.first_used_at ?? 'unknown'}; produced since: ${d.produced_since.count}`,
    );
  }
  if (answer.subscriptions_scope !== 'none') {
    lines.push(
      '',
      `${answer.subscriptions.length} subscriptions notified (${answer.subscriptions_scope} shown)`,
    );
    for (const sub of answer.subscriptions) {
      const states = Object.entries(sub.statuses)
        .map(([state, n]) => `${state} ${n}`)
        .join(', ');
      lines.push(
        `  ${sub.id}${sub.label === undefined ? '' : ` "${sub.label}"`} of <${sub.instance}>: ${sub.artifact_count} artifacts, ${sub.deliveries} deliveries (${states})`,
      );
    }
  }
  return lines.map((line) => truncate(line, width)).join('\n');
}

export default class Impact extends ClientCommand {
  static override summary = 'Show what an artifact or a release affected: runs, artifacts, deployments.';
  static override description = `Asks GET /api/v1/impact and prints what the artifact or release affected as a tree under it: the runs that used it (and which deployment ran each), what those runs generated, the runs that used that in turn, and what was derived from it, down to --depth generations (1-6, default 6). A release's own runs are the first generation.

The id is an artifact's or a release's id or IRI, a content identifier of an artifact's bytes (ni:///sha-256;..., sha256:<hex>, a hex digest) or a container image digest (sha256:<hex>), which names the releases built as that image.

After the tree come the deployments involved, each with its health, the release it runs now, whether it still runs the release in question, and how many artifacts it produced since it first used what was asked about; then the subscriptions that were notified about the affected artifacts, when the credential may see them (curators see all, a deployment its own). Lines are cut to the terminal's width.

A large impact comes in pages (--max-nodes, default 250): the command says so on stderr and names the cursor of the next page (--cursor); --all fetches every page and prints them as one. Under --json the API's answer is printed as it came, or the pages merged with --all.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0190f5d2-8a1b-7c3d-9e4f-0123456789ab',
    '<%= config.bin %> <%= command.id %> sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 --depth 3',
    '<%= config.bin %> <%= command.id %> https://registry.example.org/release/0190f5d2-8a1b-7c3d-9e4f-0123456789ab --all --json',
  ];
  static override args = {
    id: Args.string({
      description: 'an artifact or release (id or IRI), a content identifier or an image digest',
      required: true,
    }),
  };
  static override flags = {
    depth: Flags.integer({
      description: 'generations to follow down (1-6; the registry defaults to 6)',
      min: 1,
      max: 6,
    }),
    'max-nodes': Flags.integer({
      description: 'runs and artifacts per answer (2-2000; the registry defaults to 250)',
      min: 2,
      max: 2000,
    }),
    'as-of': Flags.string({ description: 'impact as recorded at this time, e.g. 2026-01-31T12:00:00Z' }),
    cursor: Flags.string({ description: 'the cursor of the next page, from a partial answer' }),
    all: Flags.boolean({
      description: 'fetch every page of a partial answer and print them as one',
      exclusive: ['cursor'],
    }),
  };

  async run(): Promise<ImpactJson> {
    const { args, flags } = await this.parse(Impact);
    const client = await this.registry(flags);
    const page = (cursor: string | undefined) =>
      client.http.request<ImpactJson>('GET', '/api/v1/impact', {
        query: {
          of: args.id,
          depth: flags.depth,
          max_nodes: flags['max-nodes'],
          as_of: flags['as-of'],
          cursor,
        },
      });
    let answer = await page(flags.cursor);
    if (flags.all) while (answer.cursor !== undefined) answer = merge(answer, await page(answer.cursor));
    this.log(renderImpact(answer, outputWidth()));
    if (answer.partial && answer.cursor !== undefined)
      process.stderr.write(
        `partial: more impact than one answer holds; the next page: --cursor ${answer.cursor} (or --all for every page)\n`,
      );
    return answer;
  }
}
