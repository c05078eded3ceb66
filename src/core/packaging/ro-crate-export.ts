/**
 * Runs as Workflow Run RO-Crates: one run as a crate of its own, and the runs around an artifact (those that
 * generated and used it, as far as its lineage goes) as one crate with a `CreateAction` each. Read through the
 * registry's own read services, so a crate says exactly what the API says.
 */
import { getInstance } from '../catalogue/instances.js';
import { getRelease } from '../catalogue/releases.js';
import { getSoftware } from '../catalogue/software.js';
import { RegError } from '../errors.js';
import { isObject } from '../records/json.js';
import type { JsonObject } from '../records/mapper.js';
import type { Core } from '../core.js';
import { getArtifact } from '../provenance/artifact-view.js';
import { lineage, type LineageOptions } from '../provenance/lineage.js';
import { getRun } from '../provenance/runs.js';
import {
  actionStatusOf,
  agentEntity,
  artifactEntity,
  present,
  ref,
  referenceEntity,
  str,
  text,
  type CrateEntity,
} from './crate-entities.js';
import { RO_CRATE, RUN_PROFILES, WORKFLOW_RO_CRATE } from './terms.js';

/** An RO-Crate metadata document: its context and its graph. */
export interface CrateDocument {
  readonly '@context': string;
  readonly '@graph': CrateEntity[];
}

/** The entities of a crate gathered once each, in the order first met. */
class Graph {
  private readonly byId = new Map<string, CrateEntity>();

  add(...entities: CrateEntity[]): void {
    for (const entity of entities) if (!this.byId.has(entity['@id'])) this.byId.set(entity['@id'], entity);
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  get entities(): CrateEntity[] {
    return [...this.byId.values()];
  }
}

/** What the crate says of the runs it holds: whether one ran a workflow, and the workflows run. */
interface Described {
  readonly actions: string[];
  readonly parts: string[];
  readonly workflows: string[];
}

/** `GET /api/v1/runs/{id}/ro-crate`: one run, what it used and generated, its software and its agent. */
export async function runCrate(core: Core, id: string): Promise<CrateDocument> {
  const run = await getRun(core, id);
  const graph = new Graph();
  const described: Described = { actions: [], parts: [], workflows: [] };
  await addRun(core, graph, run, described);
  const title = text(run.label) ?? text(run.identifier) ?? str(run.id);
  return crateDocument(graph, described, {
    name: `Run ${title}`,
    description: `The run ${title} as the registry at ${core.config.baseIri} recorded it: the software it ran, what it used and what it generated.`,
    datePublished: text(run.modified) ?? text(run.created),
  });
}

/**
 * `GET /api/v1/artifacts/{id}/ro-crate`: the runs that generated and used the artifact, and those around them as
 * far as its lineage goes (`depth` generations, bounded as the lineage API bounds it), one `CreateAction` each.
 */
export async function artifactCrate(core: Core, id: string, options: LineageOptions): Promise<CrateDocument> {
  const artifact = await getArtifact(core, id);
  const slice = await lineage(core, str(artifact.iri), options);
  const graph = new Graph();
  const described: Described = { actions: [], parts: [], workflows: [] };
  const more: CrateEntity[] = [];
  graph.add(artifactEntity(artifact, more), ...more);
  described.parts.push(str(artifact.iri));
  for (const node of slice.nodes) {
    if (node.entity_type !== 'run') continue;
    let run: JsonObject;
    try {
      run = await getRun(core, node.iri);
    } catch (error) {
      // A run of another registry the lineage names but this one cannot read is left out of the crate.
      if (error instanceof RegError && error.status < 500) continue;
      throw error;
    }
    await addRun(core, graph, run, described);
  }
  const title = text(artifact.title) ?? str(artifact.id);
  return crateDocument(graph, described, {
    name: `Lineage of ${title}`,
    description: `The runs that generated and used ${title}, ${slice.depth} generation(s) each way, as the registry at ${core.config.baseIri} recorded them.`,
    datePublished: text(artifact.modified) ?? text(artifact.created),
    ...(slice.partial ? { partial: true } : {}),
  });
}

/** The metadata descriptor, the root data entity and the profiles, then the entities gathered. */
function crateDocument(
  graph: Graph,
  described: Described,
  root: { name: string; description: string; datePublished: string | undefined; partial?: true },
): CrateDocument {
  const profiles = [RUN_PROFILES.process, ...(described.workflows.length > 0 ? [RUN_PROFILES.workflow] : [])];
  const conforms = [...profiles, ...(described.workflows.length > 0 ? [WORKFLOW_RO_CRATE] : [])];
  const [mainWorkflow] = described.workflows;
  const head: CrateEntity[] = [
    {
      '@id': RO_CRATE.metadataFile,
      '@type': 'CreativeWork',
      conformsTo: ref(RO_CRATE.spec),
      about: ref('./'),
    },
    {
      '@id': './',
      '@type': 'Dataset',
      name: root.name,
      description:
        root.partial === true
          ? `${root.description} The lineage was cut short by its budgets.`
          : root.description,
      ...present({ datePublished: root.datePublished }),
      conformsTo: conforms.map((profile) => ref(profile.iri)),
      hasPart: [...new Set(described.parts)].map(ref),
      mentions: described.actions.map(ref),
      ...(mainWorkflow === undefined ? {} : { mainEntity: ref(mainWorkflow) }),
    },
    ...conforms.map((profile) => ({
      '@id': profile.iri,
      '@type': 'CreativeWork',
      name: profile.name,
      version: profile.version,
    })),
  ];
  return { '@context': RO_CRATE.context, '@graph': [...head, ...graph.entities] };
}

/** Adds one run's action and every entity it names. */
async function addRun(core: Core, graph: Graph, run: JsonObject, described: Described): Promise<void> {
  const iri = str(run.iri);
  if (graph.has(iri)) return;
  const used = (Array.isArray(run.used) ? run.used : []).filter(isObject);
  const generated = (Array.isArray(run.generated) ? run.generated : []).filter(isObject);
  for (const item of [...used, ...generated]) await addArtifact(core, graph, item);
  described.parts.push(...[...used, ...generated].map((item) => str(item.iri)));
  const instrument = await instrumentOf(core, run);
  if (instrument !== undefined) {
    graph.add(instrument.entity);
    if (instrument.workflow) described.workflows.push(instrument.entity['@id']);
  }
  const agent = await agentOf(core, run);
  if (agent !== undefined) graph.add(agent);
  graph.add({
    '@id': iri,
    '@type': 'CreateAction',
    ...present({
      name: text(run.label) ?? text(run.identifier) ?? `Run ${str(run.id)}`,
      description: text(run.description),
      identifier: text(run.identifier),
      startTime: text(run.started_at),
      endTime: text(run.ended_at),
      instrument: instrument === undefined ? undefined : ref(instrument.entity['@id']),
      agent: agent === undefined ? undefined : ref(agent['@id']),
      object: used.map((item) => ref(str(item.iri))),
      result: generated.map((item) => ref(str(item.iri))),
    }),
    ...actionStatusOf(text(run.status)),
  });
  described.actions.push(iri);
}

/** An artifact the run refers to, read whole when the registry can read it. */
async function addArtifact(core: Core, graph: Graph, item: JsonObject): Promise<void> {
  const iri = str(item.iri);
  if (graph.has(iri)) return;
  if (item.unresolved === true) {
    graph.add(referenceEntity(item));
    return;
  }
  try {
    const more: CrateEntity[] = [];
    const entity = artifactEntity(await getArtifact(core, iri), more);
    graph.add(entity, ...more);
  } catch (error) {
    if (!(error instanceof RegError) || error.status >= 500) throw error;
    graph.add(referenceEntity(item));
  }
}

/**
 * The software the run's deployment ran: its release when the run names one (with the software's name and
 * addresses), else the software; a `ComputationalWorkflow` as well when the software is a workflow.
 */
async function instrumentOf(
  core: Core,
  run: JsonObject,
): Promise<{ entity: CrateEntity; workflow: boolean } | undefined> {
  const softwareIri = text(run.software);
  if (softwareIri === undefined) return undefined;
  const software = await readable(() => getSoftware(core, softwareIri));
  const releaseIri = text(run.release);
  const release = releaseIri === undefined ? undefined : await readable(() => getRelease(core, releaseIri));
  const kinds = Array.isArray(software?.kinds) ? software.kinds : [];
  const workflow = kinds.includes('workflow');
  const types = workflow
    ? ['SoftwareApplication', 'SoftwareSourceCode', 'ComputationalWorkflow']
    : 'SoftwareApplication';
  return {
    workflow,
    entity: {
      '@id': releaseIri ?? softwareIri,
      '@type': types,
      ...present({
        name: text(software?.name) ?? text(run.software_name),
        description: text(software?.tagline) ?? text(software?.description),
        url: text(software?.homepage),
        codeRepository: text(software?.code_repository),
        softwareVersion: text(release?.version) ?? text(run.release_version),
        license: text(software?.license) === undefined ? undefined : ref(str(software?.license)),
        isPartOf: releaseIri === undefined ? undefined : ref(softwareIri),
      }),
    },
  };
}

/** Who ran it: the deployment's operator when one is recorded, else the deployment itself. */
async function agentOf(core: Core, run: JsonObject): Promise<CrateEntity | undefined> {
  const instanceIri = text(run.instance);
  if (instanceIri === undefined) return undefined;
  const instance = await readable(() => getInstance(core, instanceIri));
  if (isObject(instance?.operator)) return agentEntity(instance.operator, `${instanceIri}#operator`);
  return {
    '@id': instanceIri,
    '@type': 'SoftwareApplication',
    ...present({
      name: text(instance?.label) ?? text(run.instance_label),
      url: text(instance?.endpoint_url),
    }),
  };
}

/** A record read through its service, or undefined when the caller may not read it or it is gone. */
async function readable(read: () => Promise<JsonObject>): Promise<JsonObject | undefined> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof RegError && error.status < 500) return undefined;
    throw error;
  }
}
