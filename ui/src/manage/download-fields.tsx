/** The downloads of a release: a repeatable group of URL, label, platform, size and availability. */
import { SelectField, TextField } from './fields';
import { AVAILABILITY, EMPTY_DOWNLOAD, type DownloadState } from './release-model';
import { RepeatedGroup } from './repeated-group';

export function DownloadFields(props: {
  form: string;
  value: readonly DownloadState[];
  onValue: (value: DownloadState[]) => void;
}) {
  return (
    <RepeatedGroup
      form={props.form}
      name="downloads"
      legend="Downloads"
      hint="Files of this release, one per platform."
      words={{ row: 'Download', remove: 'Remove download', add: 'Add a download' }}
      empty={EMPTY_DOWNLOAD}
      first="url"
      value={props.value}
      onValue={props.onValue}
    >
      {(field) => (
        <>
          <TextField {...field('url')} label="URL" type="url" />
          <TextField {...field('label')} label="Label" />
          <TextField {...field('platform')} label="Platform" hint="For example linux-amd64." />
          <TextField {...field('byte_size')} label="Size in bytes" inputMode="numeric" />
          <SelectField
            {...field('availability')}
            label="Availability"
            options={AVAILABILITY}
            empty="Not stated"
          />
        </>
      )}
    </RepeatedGroup>
  );
}
