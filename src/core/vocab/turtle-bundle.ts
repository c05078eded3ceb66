/**
 * Turns a Turtle file of `shapes/` into bundle lines. Blank nodes get labels derived from the bundle name and
 * their order of appearance, so the same file always yields the same text and two bundles never share a label.
 */
import { Parser } from 'n3';
import { ntLine, ntTerm } from './ntriples.js';

/** Parses Turtle text and returns one N-Triples line per triple, with blank nodes labelled `<prefix>_b<n>`. */
export function turtleLines(turtle: string, blankPrefix: string, sourceName: string): string[] {
  let quads;
  try {
    quads = new Parser({ format: 'text/turtle' }).parse(turtle);
  } catch (error) {
    // A registry that cannot parse its own shapes would accept anything, so this must stop start-up.
    throw new Error(`${sourceName} does not parse as Turtle: ${(error as Error).message}`, { cause: error });
  }
  const labels = new Map<string, string>();
  const blankLabel = (id: string): string => {
    let label = labels.get(id);
    if (label === undefined) {
      label = `${blankPrefix}_b${labels.size}`;
      labels.set(id, label);
    }
    return label;
  };
  return quads.map((quad) =>
    ntLine(ntTerm(quad.subject, blankLabel), ntTerm(quad.predicate, blankLabel), ntTerm(quad.object, blankLabel)),
  );
}
