/**
 * Comboboxes after the ARIA combobox pattern (list autocomplete): typing asks a search function for suggestions,
 * Down and Up move through them, Enter takes the active one, Escape closes the list (and, when it is closed,
 * clears the text). `ChipPicker` collects several values shown as removable chips; `IriCombobox` is a text field
 * for one IRI whose suggestions fill it in.
 */
import type { ComponentChildren } from 'preact';
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

/**
 * Suggestions for the text typed, the keyboard handling of the list, and the attributes that make the input
 * the combobox of the list `listId`.
 */
function useSuggestions(
  listId: string,
  text: string,
  search: Search,
  exclude: readonly string[],
  onChoose: (choice: Choice) => void,
) {
  const input = useRef<HTMLInputElement>(null);
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
  const take = (choice: Choice) => {
    onChoose(choice);
    close();
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
        if (active >= 0 && active < count) take(options[active]!);
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
  const combobox = {
    ref: input,
    type: 'text',
    role: 'combobox',
    autoComplete: 'off',
    spellcheck: false,
    'aria-autocomplete': 'list',
    'aria-expanded': open && options.length > 0 ? 'true' : 'false',
    'aria-controls': listId,
    'aria-activedescendant': open && active >= 0 ? `${listId}-${active}` : undefined,
    onBlur: close,
  } as const;
  return { listId, input, options, open, active, status, take, onKeyDown, combobox };
}

type Suggestions = ReturnType<typeof useSuggestions>;

function Listbox({ list, label }: { list: Suggestions; label: string }) {
  return (
    <ul
      id={list.listId}
      role="listbox"
      aria-label={label}
      class="listbox"
      hidden={!list.open || list.options.length === 0}
    >
      {list.options.map((option, index) => (
        <li
          key={option.value}
          id={`${list.listId}-${index}`}
          role="option"
          aria-selected={index === list.active ? 'true' : 'false'}
          class={index === list.active ? 'option active' : 'option'}
          // Keep focus in the input while the pointer chooses.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => list.take(option)}
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

/** What both pickers show around their input: label, hint, the suggestion list, its spoken status, errors. */
function PickerField(props: {
  field: ReturnType<typeof useField>;
  label: string;
  hint: ComponentChildren;
  list: Suggestions;
  /** Shown between the hint and the input (the chosen chips). */
  chosen?: ComponentChildren;
  /** The input, with the list's `combobox` attributes. */
  children: ComponentChildren;
}) {
  const { field, list } = props;
  return (
    <div class="field picker">
      <label for={field.id}>{props.label}</label>
      <Hint id={field.hintId}>{props.hint}</Hint>
      {props.chosen}
      <div class="combobox">
        {props.children}
        <Listbox list={list} label={`${props.label}: suggestions`} />
      </div>
      <p class="visually-hidden" role="status" aria-live="polite">
        {list.status}
      </p>
      <FieldMessages id={field.errorId} messages={field.messages} />
    </div>
  );
}

/** Several chosen values as chips, each with a remove button; the combobox adds more. */
export function ChipPicker(
  props: PickerProps & { values: readonly Choice[]; onValues: (values: Choice[]) => void },
) {
  const field = useField(props.name, props.hint);
  const [text, setText] = useState('');
  const list = useSuggestions(
    `${field.id}-list`,
    text,
    props.search,
    props.values.map((value) => value.value),
    (choice) => {
      props.onValues([...props.values, choice]);
      setText('');
    },
  );
  const remove = (value: string) => {
    props.onValues(props.values.filter((chosen) => chosen.value !== value));
    list.input.current?.focus();
  };
  const chips = props.values.length > 0 && (
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
  );
  return (
    <PickerField field={field} label={props.label} hint={props.hint} list={list} chosen={chips}>
      <input
        {...field.described}
        {...list.combobox}
        placeholder="Type two letters to search"
        value={text}
        onInput={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (list.onKeyDown(event) || text.trim() === '') return;
          // Mid-search, Enter does not send the form and Escape clears the text.
          if (event.key === 'Enter') event.preventDefault();
          if (event.key === 'Escape') setText('');
        }}
      />
    </PickerField>
  );
}

/** A text field for one IRI whose suggestions fill it in; anything typed is kept as typed. */
export function IriCombobox(props: PickerProps & { value: string; onValue: (value: string) => void }) {
  const field = useField(props.name, props.hint);
  // Search only what the person typed, not the IRI a suggestion put there.
  const [typed, setTyped] = useState('');
  const list = useSuggestions(`${field.id}-list`, typed, props.search, [], (choice) => {
    props.onValue(choice.value);
    setTyped('');
  });
  return (
    <PickerField field={field} label={props.label} hint={props.hint} list={list}>
      <input
        {...field.described}
        {...list.combobox}
        inputMode="url"
        value={props.value}
        onInput={(event) => {
          props.onValue(event.currentTarget.value);
          setTyped(event.currentTarget.value);
        }}
        onKeyDown={(event) => list.onKeyDown(event)}
      />
    </PickerField>
  );
}
