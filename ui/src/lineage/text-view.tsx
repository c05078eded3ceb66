/** The picture as text, for screen readers and anyone who prefers a table: its nodes, then its links. */
import { pageOf } from '../api';
import { type PictureEdge, type PictureNode, type LineageState, kindText, labelOf } from './model';

export interface TextViewProps {
  readonly state: LineageState;
  readonly nodes: readonly PictureNode[];
  readonly edges: readonly PictureEdge[];
  readonly hiddenBehind: ReadonlyMap<string, number>;
  readonly hidden: number;
  readonly expandable: (iri: string) => boolean;
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

export function TextView(props: TextViewProps) {
  const label = (iri: string) => {
    const node = props.state.nodes.get(iri);
    return node === undefined ? iri : labelOf(node);
  };
  return (
    <details class="lg-text">
      <summary>
        The picture as text: {props.nodes.length} nodes and {props.edges.length} links
        {props.hidden > 0 && ` (${props.hidden} more hidden behind collapsed nodes)`}
      </summary>
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
                <a href={pageOf(node.iri)} title={node.iri}>
                  {labelOf(node)}
                </a>
              </td>
              <td>{kindText(node)}</td>
              <td>{status(props, node)}</td>
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
