/** The API descriptions of a software record: a repeatable group of URL, format, title and description. */
import { useEffect, useRef } from 'preact/hooks';
import { inputId } from './field-errors';
import { SelectField, TextField } from './fields';
import { API_FORMATS, EMPTY_API_DOC, type ApiDocState } from './software-model';

export function ApiDocFields(props: {
  form: string;
  value: readonly ApiDocState[];
  onValue: (value: ApiDocState[]) => void;
}) {
  const added = useRef(false);
  useEffect(() => {
    if (!added.current) return;
    added.current = false;
    document.getElementById(inputId(props.form, `api_docs[${props.value.length - 1}].url`))?.focus();
  }, [props.value.length, props.form]);
  const update = (index: number, doc: ApiDocState) =>
    props.onValue(props.value.map((existing, i) => (i === index ? doc : existing)));
  return (
    <fieldset class="group">
      <legend>API descriptions</legend>
      <p class="hint">Machine-readable descriptions of the software's API, such as an OpenAPI document.</p>
      {props.value.map((doc, index) => {
        const name = `api_docs[${index}]`;
        const set = (member: keyof ApiDocState) => (value: string) =>
          update(index, { ...doc, [member]: value });
        return (
          <fieldset class="group repeat" key={index}>
            <legend>API description {index + 1}</legend>
            <TextField name={`${name}.url`} label="URL" type="url" value={doc.url} onValue={set('url')} />
            <SelectField
              name={`${name}.format`}
              label="Format"
              value={doc.format}
              options={API_FORMATS}
              empty="Guess from the URL"
              onValue={set('format')}
            />
            <TextField name={`${name}.title`} label="Title" value={doc.title} onValue={set('title')} />
            <TextField
              name={`${name}.description`}
              label="Description"
              value={doc.description}
              onValue={set('description')}
            />
            <button
              type="button"
              class="secondary"
              onClick={() => props.onValue(props.value.filter((_, i) => i !== index))}
            >
              Remove API description {index + 1}
            </button>
          </fieldset>
        );
      })}
      <button
        type="button"
        class="secondary"
        onClick={() => {
          added.current = true;
          props.onValue([...props.value, EMPTY_API_DOC]);
        }}
      >
        Add an API description
      </button>
    </fieldset>
  );
}
