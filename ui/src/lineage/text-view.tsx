/**
 * The picture as text, for screen readers and anyone who prefers a table: its nodes (a dataset with its number of
 * versions), then its links, and whether the lineage is only partly loaded.
 */
import {
  type PictureEdge,
  type PictureNode,
  type LineageState,
  isGroup,
  labelOf,
  pageOfNode,
  tagText,
} from './model';

export interface TextViewProps {
  readonly state: LineageState;
  readonly nodes: readonly PictureNode[];
  readonly edges: readonly PictureEdge[];
  readonly hiddenBehind: ReadonlyMap<string, number>;
  readonly hidden: number;
  readonly expandable: (iri: string) => boolean;
  /** Shows every version apart, this dataset's marked. */
  readonly onShowVersions: (iri: string) => void;
}

function status(props: TextViewProps, node: PictureNode): string {
  const parts: string[] = [];
  if (node.iri === props.state.root) parts.push('centre');
  if (node.unresolved) parts.push('unresolved: the registry holds nothing about it');
  const hidden = props.hiddenBehind.get(node.iri);
  if (hidden !== undefined) parts.push(`collapsed, ${hidden} more hidden`);
  else if (props.expandable(node.iri)) parts.push('not expanded yet');
  return parts.join('; ');
}

function Name({ node }: { node: PictureNode }) {
  const page = pageOfNode(node);
  if (page === undefined) return <>{labelOf(node)}</>;
  return (
    <a href={page} title={node.iri}>
      {labelOf(node)}
    </a>
  );
}

export function TextView(props: TextViewProps) {
  const label = (iri: string) => {
    const node = props.state.nodes.get(iri);
    return node === undefined ? iri : labelOf(node);
  };
  const partial = props.state.more.length > 0;
  return (
    <details class="lg-text">
      <summary>
        The picture as text: {props.nodes.length} nodes and {props.edges.length} links
        {props.hidden > 0 && ` (${props.hidden} more hidden behind collapsed nodes)`}
        {partial && '; partial, more of this lineage can be loaded'}
      </summary>
      {partial && (
        <p class="lg-text-partial">
          <strong>Partial:</strong> the registry gave this lineage in parts and not all of them are loaded
          yet; “Load more” above the picture fetches the next.
        </p>
      )}
      <table>
        <caption>Nodes</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Kind</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {props.nodes.map((node) => (
            <tr key={node.iri}>
              <td>
                <Name node={node} />
              </td>
              <td>{tagText(node)}</td>
              <td>
                {status(props, node)}
                {isGroup(node) && (
                  <>
                    {status(props, node) === '' ? '' : ' '}
                    <button type="button" class="link-button" onClick={() => props.onShowVersions(node.iri)}>
                      Show the versions of {labelOf(node)}
                    </button>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <table>
        <caption>Links (each reads as a sentence: subject, relation, object)</caption>
        <thead>
          <tr>
            <th scope="col">Subject</th>
            <th scope="col">Relation</th>
            <th scope="col">Object</th>
          </tr>
        </thead>
        <tbody>
          {props.edges.map((edge) => (
            <tr key={`${edge.subject} ${edge.relation} ${edge.object}`}>
              <td>{label(edge.subject)}</td>
              <td>{edge.relation}</td>
              <td>{label(edge.object)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
