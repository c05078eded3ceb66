/**
 * Comboboxes after the ARIA combobox pattern (list autocomplete): typing asks a search function for suggestions,
 * Down and Up move through them, Enter takes the active one, Escape closes the list (and, when it is closed,
 * clears the text). `ChipPicker` collects several values shown as removable chips; `IriCombobox` is a text field
 * for one IRI whose suggestions fill it in.
 */
import type { ComponentChildren, RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { FieldMessages, Hint, useField } from './fields';

/** One value a picker can hold or suggest. */
export interface Choice {
  readonly value: string;
  readonly label: string;
  readonly detail?: string;
}

export type Search = (query: string) => Promise<readonly Choice[]>;

const MIN_CHARS = 2;
const DELAY_MS = 200;

/** Suggestions for the text typed, and the keyboard handling of the list. */
function useSuggestions(
  input: RefObject<HTMLInputElement>,
  text: string,
  search: Search,
  exclude: readonly string[],
  onChoose: (choice: Choice) => void,
) {
  const [options, setOptions] = useState<readonly Choice[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [status, setStatus] = useState('');
  const excluded = exclude.join('\u0000');
  useEffect(() => {
    const query = text.trim();
    if (query.length < MIN_CHARS) {
      setOptions([]);
      setOpen(false);
      setStatus('');
      return;
    }
    let current = true;
    const handle = setTimeout(() => {
      search(query).then(
        (found) => {
          if (!current) return;
          const fresh = found.filter((choice) => !exclude.includes(choice.value));
          setOptions(fresh);
          setActive(-1);
          // Answers that arrive after the person moved on do not pop the list open elsewhere.
          setOpen(document.activeElement === input.current);
          setStatus(
            fresh.length === 0
              ? 'No suggestions'
              : `${fresh.length} suggestion${fresh.length === 1 ? '' : 's'}; use the arrow keys to choose`,
          );
        },
        () => current && setStatus('The search failed; try again'),
      );
    }, DELAY_MS);
    return () => {
      current = false;
      clearTimeout(handle);
    };
    // `search` and `exclude` are read fresh on each query; a new closure alone does not search again.
  }, [text, excluded]);
  const close = () => {
    setOpen(false);
    setActive(-1);
  };
  const onKeyDown = (event: KeyboardEvent): boolean => {
    const count = options.length;
    switch (event.key) {
      case 'ArrowDown':
        if (count === 0) return false;
        event.preventDefault();
        setOpen(true);
        setActive((index) => (index + 1) % count);
        return true;
      case 'ArrowUp':
        if (count === 0) return false;
        event.preventDefault();
        setOpen(true);
        setActive((index) => (index <= 0 ? count - 1 : index - 1));
        return true;
      case 'Enter':
        if (!open) return false;
        // Enter in an open list never submits the form.
        event.preventDefault();
        if (active >= 0 && active < count) {
          onChoose(options[active]!);
          close();
        }
        return true;
      case 'Escape':
        if (!open) return false;
        event.preventDefault();
        close();
        return true;
      case 'Tab':
        close();
        return false;
      default:
        return false;
    }
  };
  return { options, open, active, status, close, onKeyDown };
}

function Listbox(props: {
  id: string;
  label: string;
  open: boolean;
  options: readonly Choice[];
  active: number;
  onChoose: (choice: Choice) => void;
}) {
  return (
    <ul
      id={props.id}
      role="listbox"
      aria-label={props.label}
      class="listbox"
      hidden={!props.open || props.options.length === 0}
    >
      {props.options.map((option, index) => (
        <li
          key={option.value}
          id={`${props.id}-${index}`}
          role="option"
          aria-selected={index === props.active ? 'true' : 'false'}
          class={index === props.active ? 'option active' : 'option'}
          // Keep focus in the input while the pointer chooses.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => props.onChoose(option)}
        >
          <span class="option-label">{option.label}</span>
          {option.detail !== undefined && <span class="option-detail">{option.detail}</span>}
        </li>
      ))}
    </ul>
  );
}

interface PickerProps {
  readonly name: string;
  readonly label: string;
  readonly hint?: ComponentChildren;
  readonly search: Search;
}

/** Several chosen values as chips, each with a remove button; the combobox adds more. */
export function ChipPicker(
  props: PickerProps & { values: readonly Choice[]; onValues: (values: Choice[]) => void },
) {
  const { id, hintId, errorId, messages, described } = useField(props.name, props.hint);
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const choose = (choice: Choice) => {
    props.onValues([...props.values, choice]);
    setText('');
  };
  const list = useSuggestions(
    input,
    text,
    props.search,
    props.values.map((value) => value.value),
    choose,
  );
  const remove = (value: string) => {
    props.onValues(props.values.filter((chosen) => chosen.value !== value));
    input.current?.focus();
  };
  const listId = `${id}-list`;
  return (
    <div class="field picker">
      <label for={id}>{props.label}</label>
      <Hint id={hintId}>{props.hint}</Hint>
      {props.values.length > 0 && (
        <ul class="chips" aria-label={`${props.label}: chosen`}>
          {props.values.map((value) => (
            <li class="chip" key={value.value} title={value.value}>
              <span>{value.label}</span>
              <button
                type="button"
                class="chip-remove"
                aria-label={`Remove ${value.label}`}
                onClick={() => remove(value.value)}
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <div class="combobox">
        <input
          {...described}
          ref={input}
          type="text"
          role="combobox"
          autoComplete="off"
          spellcheck={false}
          aria-autocomplete="list"
          aria-expanded={list.open && list.options.length > 0 ? 'true' : 'false'}
          aria-controls={listId}
          aria-activedescendant={list.open && list.active >= 0 ? `${listId}-${list.active}` : undefined}
          placeholder="Type two letters to search"
          value={text}
          onInput={(event) => setText(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (list.onKeyDown(event) || text.trim() === '') return;
            // Mid-search, Enter does not send the form and Escape clears the text.
            if (event.key === 'Enter') event.preventDefault();
            if (event.key === 'Escape') setText('');
          }}
          onBlur={() => list.close()}
        />
        <Listbox
          id={listId}
          label={`${props.label}: suggestions`}
          open={list.open}
          options={list.options}
          active={list.active}
          onChoose={(choice) => {
            choose(choice);
            list.close();
          }}
        />
      </div>
      <p class="visually-hidden" role="status" aria-live="polite">
        {list.status}
      </p>
      <FieldMessages id={errorId} messages={messages} />
    </div>
  );
}

/** A text field for one IRI whose suggestions fill it in; anything typed is kept as typed. */
export function IriCombobox(props: PickerProps & { value: string; onValue: (value: string) => void }) {
  const { id, hintId, errorId, messages, described } = useField(props.name, props.hint);
  // Search only what the person typed, not the IRI a suggestion put there.
  const [typed, setTyped] = useState('');
  const choose = (choice: Choice) => {
    props.onValue(choice.value);
    setTyped('');
  };
  const input = useRef<HTMLInputElement>(null);
  const list = useSuggestions(input, typed, props.search, [], choose);
  const listId = `${id}-list`;
  return (
    <div class="field picker">
      <label for={id}>{props.label}</label>
      <Hint id={hintId}>{props.hint}</Hint>
      <div class="combobox">
        <input
          {...described}
          type="text"
          inputMode="url"
          role="combobox"
          autoComplete="off"
          spellcheck={false}
          aria-autocomplete="list"
          aria-expanded={list.open && list.options.length > 0 ? 'true' : 'false'}
          aria-controls={listId}
          aria-activedescendant={list.open && list.active >= 0 ? `${listId}-${list.active}` : undefined}
          value={props.value}
          onInput={(event) => {
            props.onValue(event.currentTarget.value);
            setTyped(event.currentTarget.value);
          }}
          ref={input}
          onKeyDown={(event) => list.onKeyDown(event)}
          onBlur={() => list.close()}
        />
        <Listbox
          id={listId}
          label={`${props.label}: suggestions`}
          open={list.open}
          options={list.options}
          active={list.active}
          onChoose={(choice) => {
            choose(choice);
            list.close();
          }}
        />
      </div>
      <p class="visually-hidden" role="status" aria-live="polite">
        {list.status}
      </p>
      <FieldMessages id={errorId} messages={messages} />
    </div>
  );
}
