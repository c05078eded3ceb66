/**
 * Labelled inputs that show their own errors: each message sits in an element whose id the input names in
 * `aria-describedby`, and the input says `aria-invalid="true"` while it has one. A form provides its id and
 * its placed errors through `FormScope`.
 */
import { createContext, type ComponentChildren } from 'preact';
import { useContext } from 'preact/hooks';
import { FieldErrors, inputId } from './field-errors';

interface Scope {
  readonly form: string;
  readonly errors: FieldErrors;
}

const ScopeContext = createContext<Scope>({ form: 'form', errors: new FieldErrors('form', undefined, []) });

export function FormScope({ errors, children }: { errors: FieldErrors; children: ComponentChildren }) {
  return <ScopeContext.Provider value={{ form: errors.form, errors }}>{children}</ScopeContext.Provider>;
}

/** The attributes an input needs to be described by its hint and its errors. */
export interface Described {
  readonly id: string;
  readonly 'aria-describedby'?: string;
  readonly 'aria-invalid'?: 'true';
}

/** Ids and messages of one field, for inputs that lay themselves out (pickers, groups). */
export function useField(name: string, hint?: ComponentChildren) {
  const { form, errors } = useContext(ScopeContext);
  const id = inputId(form, name);
  const messages = errors.for(name);
  const hintId = hint === undefined ? undefined : `${id}-hint`;
  const errorId = messages.length === 0 ? undefined : `${id}-error`;
  const describedBy = [hintId, errorId].filter((part) => part !== undefined).join(' ');
  const described: Described = {
    id,
    ...(describedBy === '' ? {} : { 'aria-describedby': describedBy }),
    ...(errorId === undefined ? {} : { 'aria-invalid': 'true' as const }),
  };
  return { id, hintId, errorId, messages, described };
}

/** The messages beside a field; "Error:" in words, so the meaning does not rest on colour. */
export function FieldMessages({ id, messages }: { id: string | undefined; messages: readonly string[] }) {
  if (id === undefined || messages.length === 0) return null;
  return (
    <div class="field-error" id={id}>
      {messages.map((message) => (
        <p key={message}>
          <strong>Error:</strong> {message}
        </p>
      ))}
    </div>
  );
}

export function Hint({ id, children }: { id: string | undefined; children: ComponentChildren }) {
  return id === undefined ? null : (
    <p class="hint" id={id}>
      {children}
    </p>
  );
}

/** The layout of a field with one input: its label (saying when it is required), hint, input and errors. */
function OneInput(props: {
  field: ReturnType<typeof useField>;
  label: string;
  required: boolean | undefined;
  hint: ComponentChildren;
  children: ComponentChildren;
}) {
  const { field } = props;
  return (
    <div class="field">
      <label for={field.id}>
        {props.label}
        {props.required === true && <span class="required"> (required)</span>}
      </label>
      <Hint id={field.hintId}>{props.hint}</Hint>
      {props.children}
      <FieldMessages id={field.errorId} messages={field.messages} />
    </div>
  );
}

/** `aria-required` for an input that is required, none otherwise. */
function ariaRequired(required: boolean | undefined): 'true' | undefined {
  return required === true ? 'true' : undefined;
}

interface TextProps {
  readonly name: string;
  readonly label: string;
  readonly value: string;
  readonly onValue: (value: string) => void;
  readonly hint?: ComponentChildren;
  readonly required?: boolean;
  readonly type?: 'text' | 'url' | 'email' | 'date' | 'number' | 'password';
  readonly placeholder?: string;
  readonly autoComplete?: string;
  readonly inputMode?: 'text' | 'url' | 'email' | 'numeric';
}

export function TextField(props: TextProps) {
  const field = useField(props.name, props.hint);
  return (
    <OneInput field={field} label={props.label} required={props.required} hint={props.hint}>
      <input
        {...field.described}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value}
        onInput={(event) => props.onValue(event.currentTarget.value)}
        aria-required={ariaRequired(props.required)}
        placeholder={props.placeholder}
        autoComplete={props.autoComplete ?? 'off'}
        inputMode={props.inputMode}
        spellcheck={props.type === 'url' ? false : undefined}
      />
    </OneInput>
  );
}

export function TextArea(props: Omit<TextProps, 'type' | 'inputMode'> & { rows?: number }) {
  const field = useField(props.name, props.hint);
  return (
    <OneInput field={field} label={props.label} required={props.required} hint={props.hint}>
      <textarea
        {...field.described}
        name={props.name}
        rows={props.rows ?? 4}
        value={props.value}
        onInput={(event) => props.onValue(event.currentTarget.value)}
        aria-required={ariaRequired(props.required)}
        placeholder={props.placeholder}
      />
    </OneInput>
  );
}

export interface Option {
  readonly value: string;
  readonly label: string;
}

export function SelectField(props: {
  name: string;
  label: string;
  value: string;
  options: readonly Option[];
  onValue: (value: string) => void;
  hint?: ComponentChildren;
  required?: boolean;
  /** The label of the empty choice; none when a value is required. */
  empty?: string;
}) {
  const field = useField(props.name, props.hint);
  return (
    <OneInput field={field} label={props.label} required={props.required} hint={props.hint}>
      <select
        {...field.described}
        name={props.name}
        value={props.value}
        onChange={(event) => props.onValue(event.currentTarget.value)}
        aria-required={ariaRequired(props.required)}
      >
        {props.empty !== undefined && <option value="">{props.empty}</option>}
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </OneInput>
  );
}

export function CheckboxField(props: {
  name: string;
  label: string;
  checked: boolean;
  onChecked: (checked: boolean) => void;
  hint?: ComponentChildren;
}) {
  const { id, hintId, errorId, messages, described } = useField(props.name, props.hint);
  return (
    <div class="field field-check">
      <div class="check">
        <input
          {...described}
          type="checkbox"
          name={props.name}
          checked={props.checked}
          onChange={(event) => props.onChecked(event.currentTarget.checked)}
        />
        <label for={id}>{props.label}</label>
      </div>
      <Hint id={hintId}>{props.hint}</Hint>
      <FieldMessages id={errorId} messages={messages} />
    </div>
  );
}

/** A set of choices as checkboxes in a fieldset; the first box carries the field's id (the summary links to it). */
export function CheckboxGroup(props: {
  name: string;
  legend: string;
  options: readonly Option[];
  values: readonly string[];
  onValues: (values: string[]) => void;
  hint?: ComponentChildren;
}) {
  const { id, hintId, errorId, messages, described } = useField(props.name, props.hint);
  const toggle = (value: string, on: boolean) =>
    props.onValues(
      on
        ? props.options.map((o) => o.value).filter((v) => v === value || props.values.includes(v))
        : props.values.filter((v) => v !== value),
    );
  return (
    <fieldset class="field group" aria-describedby={described['aria-describedby']}>
      <legend>{props.legend}</legend>
      <Hint id={hintId}>{props.hint}</Hint>
      <div class="choices">
        {props.options.map((option, index) => {
          const boxId = index === 0 ? id : `${id}-${index}`;
          return (
            <div class="check" key={option.value}>
              <input
                id={boxId}
                type="checkbox"
                name={props.name}
                value={option.value}
                checked={props.values.includes(option.value)}
                onChange={(event) => toggle(option.value, event.currentTarget.checked)}
                aria-invalid={described['aria-invalid']}
                aria-describedby={errorId}
              />
              <label for={boxId}>{option.label}</label>
            </div>
          );
        })}
      </div>
      <FieldMessages id={errorId} messages={messages} />
    </fieldset>
  );
}
