/**
 * Graph serialisations by oxigraph's own writers. oxigraph is loaded on the main thread only when a client first
 * asks for a graph in another serialisation than the Turtle both stores answer in (its WebAssembly module is
 * otherwise only loaded by the query index's workers).
 */
import type * as Ox from 'oxigraph';
import type { GraphFormat } from '../../discovery/sparql-formats.js';

/** The media type oxigraph reads or writes for each graph serialisation. */
const OXIGRAPH_TYPES: Readonly<Record<GraphFormat, string>> = {
  turtle: 'text/turtle',
  ntriples: 'application/n-triples',
  nquads: 'application/n-quads',
  jsonld: 'application/ld+json',
  rdfxml: 'application/rdf+xml',
};

type Oxigraph = typeof Ox;
let loaded: Promise<Oxigraph> | undefined;
const oxigraph = async (): Promise<Oxigraph> => (loaded ??= import('oxigraph'));

/** Writes a CONSTRUCT or DESCRIBE answer (Turtle, as the stores answer) in another graph serialisation. */
export async function serialiseGraph(turtle: string, format: GraphFormat): Promise<string> {
  if (format === 'turtle') return turtle;
  const ox = await oxigraph();
  const store = new ox.Store();
  store.load(turtle, { format: OXIGRAPH_TYPES.turtle });
  return store.dump({ format: OXIGRAPH_TYPES[format], from_graph_name: ox.defaultGraph() });
}

/** Writes a graph given as N-Triples in a graph serialisation, with these prefixes in Turtle. */
export async function serialiseTriples(
  ntriples: string,
  format: GraphFormat,
  prefixes?: Record<string, string>,
): Promise<string> {
  const ox = await oxigraph();
  const store = new ox.Store();
  store.load(ntriples, { format: OXIGRAPH_TYPES.ntriples });
  return store.dump({
    format: OXIGRAPH_TYPES[format],
    from_graph_name: ox.defaultGraph(),
    ...(prefixes !== undefined && format === 'turtle' ? { prefixes } : {}),
  });
}
