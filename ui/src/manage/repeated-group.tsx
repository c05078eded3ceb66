/**
 * A repeatable group of fields (the downloads of a release, the API descriptions of software): one fieldset a
 * row, numbered, each with its remove button, and an add button that puts the focus in the new row.
 */
import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { inputId } from './field-errors';

/** What a row's input needs: its field path, its value, and how to change it. */
export interface RowField {
  readonly name: string;
  readonly value: string;
  readonly onValue: (value: string) => void;
}

export function RepeatedGroup<T extends Readonly<Record<keyof T, string>>>(props: {
  form: string;
  /** The field path of the list, such as `downloads`; row `i` is `downloads[i]`. */
  name: string;
  legend: string;
  hint: string;
  /** The words the buttons and row legends use: `Download 1`, `Remove download 1`, `Add a download`. */
  words: { readonly row: string; readonly remove: string; readonly add: string };
  /** A new row, and the member whose input it focuses. */
  empty: T;
  first: keyof T & string;
  value: readonly T[];
  onValue: (value: T[]) => void;
  /** The inputs of one row; `field` binds one member of it. */
  children: (field: (member: keyof T & string) => RowField) => ComponentChildren;
}) {
  const { form, name, first, value, onValue } = props;
  const added = useRef(false);
  useLayoutEffect(() => {
    if (!added.current) return;
    added.current = false;
    document.getElementById(inputId(form, `${name}[${value.length - 1}].${first}`))?.focus();
  }, [value.length, form, name, first]);
  return (
    <fieldset class="group">
      <legend>{props.legend}</legend>
      <p class="hint">{props.hint}</p>
      {value.map((row, index) => {
        const field = (member: keyof T & string): RowField => ({
          name: `${name}[${index}].${member}`,
          value: row[member],
          onValue: (changed) =>
            onValue(value.map((existing, i) => (i === index ? { ...row, [member]: changed } : existing))),
        });
        return (
          <fieldset class="group repeat" key={index}>
            <legend>
              {props.words.row} {index + 1}
            </legend>
            {props.children(field)}
            <button
              type="button"
              class="secondary"
              onClick={() => onValue(value.filter((_, i) => i !== index))}
            >
              {props.words.remove} {index + 1}
            </button>
          </fieldset>
        );
      })}
      <button
        type="button"
        class="secondary"
        onClick={() => {
          added.current = true;
          onValue([...value, props.empty]);
        }}
      >
        {props.words.add}
      </button>
    </fieldset>
  );
}

/** The field paths of a repeated group's rows, in the order they show, for placing the registry's errors. */
export function repeatedFields(name: string, rows: readonly unknown[], members: readonly string[]): string[] {
  return rows.flatMap((_, index) => members.map((member) => `${name}[${index}].${member}`));
}
