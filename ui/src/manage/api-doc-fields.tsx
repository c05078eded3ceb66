/** The API descriptions of a software record: a repeatable group of URL, format, title and description. */
import { SelectField, TextField } from './fields';
import { RepeatedGroup } from './repeated-group';
import { API_FORMATS, EMPTY_API_DOC, type ApiDocState } from './software-model';

export function ApiDocFields(props: {
  form: string;
  value: readonly ApiDocState[];
  onValue: (value: ApiDocState[]) => void;
}) {
  return (
    <RepeatedGroup
      form={props.form}
      name="api_docs"
      legend="API descriptions"
      hint="Machine-readable descriptions of the software's API, such as an OpenAPI document."
      words={{ row: 'API description', remove: 'Remove API description', add: 'Add an API description' }}
      empty={EMPTY_API_DOC}
      first="url"
      value={props.value}
      onValue={props.onValue}
    >
      {(field) => (
        <>
          <TextField {...field('url')} label="URL" type="url" />
          <SelectField {...field('format')} label="Format" options={API_FORMATS} empty="Guess from the URL" />
          <TextField {...field('title')} label="Title" />
          <TextField {...field('description')} label="Description" />
        </>
      )}
    </RepeatedGroup>
  );
}
