/** What the shapes, signs and arrows of the picture mean. */
export function Legend() {
  return (
    <details class="lg-legend">
      <summary>How to read the picture</summary>
      <ul>
        <li>
          <svg width="46" height="22" aria-hidden="true">
            <rect class="lg-shape" x="1" y="1" width="44" height="20" rx="10" />
          </svg>
          A rounded pill is an <strong>artifact</strong> (a dataset, report, model…).
        </li>
        <li>
          <svg width="54" height="30" aria-hidden="true">
            <rect class="lg-shape lg-stack" x="9" y="1" width="44" height="20" rx="10" />
            <rect class="lg-shape lg-stack" x="5" y="5" width="44" height="20" rx="10" />
            <rect class="lg-shape" x="1" y="9" width="44" height="20" rx="10" />
          </svg>
          Stacked pills are a <strong>dataset</strong> written several times: its versions grouped into one
          node, with their number on it. “Every version apart” under Versions, or “Show its versions” beside
          the picture, shows each version as a node.
        </li>
        <li>
          <svg width="46" height="22" aria-hidden="true">
            <rect class="lg-shape" x="1" y="1" width="44" height="20" rx="1" />
            <line class="lg-bar" x1="6" y1="1" x2="6" y2="21" />
            <line class="lg-bar" x1="40" y1="1" x2="40" y2="21" />
          </svg>
          A box with side bars is a <strong>run</strong> of a deployment.
        </li>
        <li>
          <svg width="46" height="22" aria-hidden="true">
            <rect class="lg-shape" x="1" y="1" width="44" height="20" rx="3" stroke-dasharray="6 4" />
          </svg>
          A dashed outline is held at <strong>another registry</strong>; with a warning sign and the words
          “unresolved foreign” this registry knows nothing about it yet.
        </li>
        <li>
          Arrows point the way PROV states a link, from the newer thing to what it came from: a run{' '}
          <em>used</em> its input, an output <em>wasGeneratedBy</em> its run, an artifact{' '}
          <em>wasDerivedFrom</em> or <em>wasRevisionOf</em> an earlier one. Upstream is on the left.
        </li>
        <li>
          A round <strong>+</strong> handle means the node has not been expanded yet; <strong>+N more</strong>{' '}
          means it is collapsed and N nodes are hidden behind it.
        </li>
        <li>
          A large lineage comes in parts: while more remains, <strong>Load more</strong> above the picture
          fetches the next part and adds it.
        </li>
      </ul>
    </details>
  );
}
