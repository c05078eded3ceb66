/** The downloads of a release: a repeatable group of URL, label, platform, size and availability. */
import { useEffect, useRef } from 'preact/hooks';
import { inputId } from './field-errors';
import { SelectField, TextField } from './fields';
import { AVAILABILITY, EMPTY_DOWNLOAD, type DownloadState } from './release-model';

export function DownloadFields(props: {
  form: string;
  value: readonly DownloadState[];
  onValue: (value: DownloadState[]) => void;
}) {
  const added = useRef(false);
  useEffect(() => {
    if (!added.current) return;
    added.current = false;
    document.getElementById(inputId(props.form, `downloads[${props.value.length - 1}].url`))?.focus();
  }, [props.value.length, props.form]);
  const update = (index: number, download: DownloadState) =>
    props.onValue(props.value.map((existing, i) => (i === index ? download : existing)));
  return (
    <fieldset class="group">
      <legend>Downloads</legend>
      <p class="hint">Files of this release, one per platform.</p>
      {props.value.map((download, index) => {
        const name = `downloads[${index}]`;
        const set = (member: keyof DownloadState) => (value: string) =>
          update(index, { ...download, [member]: value });
        return (
          <fieldset class="group repeat" key={index}>
            <legend>Download {index + 1}</legend>
            <TextField
              name={`${name}.url`}
              label="URL"
              type="url"
              value={download.url}
              onValue={set('url')}
            />
            <TextField name={`${name}.label`} label="Label" value={download.label} onValue={set('label')} />
            <TextField
              name={`${name}.platform`}
              label="Platform"
              hint="For example linux-amd64."
              value={download.platform}
              onValue={set('platform')}
            />
            <TextField
              name={`${name}.byte_size`}
              label="Size in bytes"
              inputMode="numeric"
              value={download.byte_size}
              onValue={set('byte_size')}
            />
            <SelectField
              name={`${name}.availability`}
              label="Availability"
              value={download.availability}
              options={AVAILABILITY}
              empty="Not stated"
              onValue={set('availability')}
            />
            <button
              type="button"
              class="secondary"
              onClick={() => props.onValue(props.value.filter((_, i) => i !== index))}
            >
              Remove download {index + 1}
            </button>
          </fieldset>
        );
      })}
      <button
        type="button"
        class="secondary"
        onClick={() => {
          added.current = true;
          props.onValue([...props.value, EMPTY_DOWNLOAD]);
        }}
      >
        Add a download
      </button>
    </fieldset>
  );
}
