/**
 * Tables of records and other items. One list of columns gives both the header row and every item's row, and
 * the first column names the row (`<th scope="row">`) so a screen reader announces it with each cell.
 */
import type { ComponentChildren } from 'preact';
import type { Loaded } from '../api';
import { ListState } from './load-state';

/** One column: its heading, and what it shows for the `n`th item (counted from 0). */
export interface Column<T> {
  readonly heading: string;
  readonly cell: (item: T, n: number) => ComponentChildren;
}

/** The items as a table that scrolls on its own when it is wider than the page. */
export function Table<T>({
  items,
  columns,
  rowKey,
}: {
  items: readonly T[];
  columns: readonly Column<T>[];
  rowKey: (item: T, n: number) => string | number;
}) {
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            {columns.map(({ heading }) => (
              <th key={heading} scope="col">
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {items.map((item, n) => (
            <tr key={rowKey(item, n)}>
              {columns.map(({ heading, cell }, c) =>
                c === 0 ? (
                  <th key={heading} scope="row">
                    {cell(item, n)}
                  </th>
                ) : (
                  <td key={heading}>{cell(item, n)}</td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A list read as a table of its records (one row per IRI), with the read's loading, error and empty states. */
export function RecordTable<T extends { readonly iri: string }>({
  state,
  empty,
  columns,
}: {
  state: Loaded<{ readonly items: readonly T[] }>;
  empty: string;
  columns: readonly Column<T>[];
}) {
  return (
    <ListState state={state} empty={empty}>
      {(items) => <Table items={items} columns={columns} rowKey={(item) => item.iri} />}
    </ListState>
  );
}
