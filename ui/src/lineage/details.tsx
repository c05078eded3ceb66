/**
 * The side panel: what the selected node is, where it comes from (an unresolved foreign IRI says why it is
 * unresolved), a dataset's versions, what it is linked to, a link to its page, and buttons to expand or collapse
 * it or show a dataset's versions apart.
 */
import { idOf, useApi, withQuery, type ArtifactJson, type RunJson } from '../api';
import { RecordLink } from '../components/record-bits';
import {
  type PictureNode,
  type LineageState,
  isForeign,
  isGroup,
  isHeldHere,
  labelOf,
  pageOfNode,
  recordIri,
  shownKind,
  tagText,
  versionCount,
} from './model';

/** Links listed in the panel; the text alternative lists them all. */
const MAX_LINKS = 12;

function when(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString();
}

function Field({ name, value }: { name: string; value: string | undefined }) {
  if (value === undefined || value === '') return null;
  return (
    <>
      <dt>{name}</dt>
      <dd>{value}</dd>
    </>
  );
}

/** Type, date and availability of an artifact; status, start and deployment of a run (this registry's only). */
function RecordFields({ node }: { node: PictureNode }) {
  const local = isHeldHere(node);
  const artifact = useApi<ArtifactJson>(
    local && shownKind(node) === 'artifact'
      ? `/api/v1/artifacts/${encodeURIComponent(idOf(recordIri(node)))}`
      : null,
  );
  const run = useApi<RunJson>(
    local && node.kind === 'run' ? `/api/v1/runs/${encodeURIComponent(idOf(node.iri))}` : null,
  );
  const a = artifact.data;
  const r = run.data;
  const type = a?.conforms_to?.label ?? a?.conforms_to?.iri;
  return (
    <>
      <Field name="Type" value={type} />
      <Field name="Issued" value={when(a?.issued)} />
      <Field name="Availability" value={a?.availability} />
      <Field name="Status" value={r?.status} />
      <Field name="Started" value={when(r?.started_at)} />
      <Field name="Deployment" value={r?.instance_label} />
      <Field name="Software" value={r?.software_name} />
    </>
  );
}

function originText(node: PictureNode): string {
  if (node.unresolved) return 'Not resolved: this registry holds nothing about it yet';
  if (node.origin?.kind === 'peer') return 'A copy cached from another registry';
  return isForeign(node) ? 'Another registry' : 'This registry';
}

export interface DetailsProps {
  readonly state: LineageState;
  readonly iri: string;
  readonly direction: string;
  readonly depth: number;
  readonly expandable: boolean;
  readonly pending: boolean;
  readonly hidden: number | undefined;
  readonly wouldHide: number;
  /** Nodes in the picture now (the others cannot be selected). */
  readonly shown: ReadonlySet<string>;
  readonly onSelect: (iri: string) => void;
  readonly onExpand: (iri: string) => void;
  readonly onCollapse: (iri: string) => void;
  /** Shows every version apart, this dataset's marked. */
  readonly onShowVersions: (iri: string) => void;
}

export function Details(props: DetailsProps) {
  const { state, iri } = props;
  const node = state.nodes.get(iri);
  if (node === undefined) return null;
  const page = pageOfNode(node);
  const local = isHeldHere(node);
  const group = isGroup(node);
  const kind = shownKind(node);
  const name = (other: string) => {
    if (other === iri) return 'this';
    const text = labelOf(state.nodes.get(other) ?? node);
    if (!props.shown.has(other)) return text;
    return (
      <button type="button" class="link-button" onClick={() => props.onSelect(other)}>
        {text}
      </button>
    );
  };
  const links = [...state.edges.values()].filter((edge) => edge.subject === iri || edge.object === iri);
  const centre =
    local && recordIri(node) !== state.centre && (kind === 'artifact' || kind === 'run')
      ? withQuery('/lineage', {
          [kind]: idOf(recordIri(node)),
          direction: props.direction,
          depth: props.depth,
        })
      : undefined;
  const versions = node.versions ?? [];
  return (
    <section class="lg-details" aria-labelledby="lg-details-title">
      <p class="lg-details-kind">
        {node.unresolved && (
          <span class="badge badge-warn">
            <span aria-hidden="true">⚠ </span>Unresolved
          </span>
        )}{' '}
        {tagText(node)}
        {iri === state.root && ' · centre of the picture'}
      </p>
      <h2 id="lg-details-title">{labelOf(node)}</h2>
      <dl class="fields">
        <dt>IRI</dt>
        <dd>
          <code>{recordIri(node)}</code>
        </dd>
        <dt>Held by</dt>
        <dd>{originText(node)}</dd>
        <Field name="Why" value={node.unresolved ? node.origin?.reason : undefined} />
        <Field name="Resolution" value={node.origin?.resolve_status} />
        <RecordFields key={iri} node={node} />
      </dl>
      {group && (
        <>
          <h3>Versions</h3>
          <p class="lg-versions-text">
            This dataset stands for {versionCount(node)} versions met in this lineage, one for each time it
            was written.
          </p>
          <ul class="lg-links">
            {versions.slice(0, MAX_LINKS).map((version) => (
              <li key={version}>
                <RecordLink iri={version} />
              </li>
            ))}
          </ul>
          {versions.length > MAX_LINKS && (
            <p class="lg-more-links">…and {versions.length - MAX_LINKS} more versions.</p>
          )}
        </>
      )}
      {links.length > 0 && (
        <>
          <h3>Links</h3>
          <ul class="lg-links">
            {links.slice(0, MAX_LINKS).map((edge) => (
              <li key={`${edge.subject} ${edge.relation} ${edge.object}`}>
                {name(edge.subject)} <em>{edge.relation}</em> {name(edge.object)}
              </li>
            ))}
          </ul>
          {links.length > MAX_LINKS && (
            <p class="lg-more-links">…and {links.length - MAX_LINKS} more links.</p>
          )}
        </>
      )}
      <p class="lg-actions">
        {group && (
          <button type="button" onClick={() => props.onShowVersions(iri)}>
            Show its {versionCount(node)} versions
          </button>
        )}
        {props.expandable && (
          <button type="button" onClick={() => props.onExpand(iri)} disabled={props.pending}>
            {props.pending
              ? 'Expanding…'
              : props.hidden !== undefined
                ? `Show more (${props.hidden} hidden)`
                : 'Expand'}
          </button>
        )}
        {iri !== state.root && props.hidden === undefined && props.wouldHide > 0 && (
          <button type="button" class="secondary" onClick={() => props.onCollapse(iri)}>
            Collapse ({props.wouldHide} hidden)
          </button>
        )}
      </p>
      <p class="lg-actions">
        {group ? null : local && page !== undefined ? (
          <a href={page}>Open its page</a>
        ) : (
          <a href={iri} rel="noopener noreferrer">
            Open the IRI (another registry)
          </a>
        )}
        {centre !== undefined && <a href={centre}>Centre the lineage here</a>}
      </p>
    </section>
  );
}
