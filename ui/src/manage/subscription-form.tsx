/**
 * A new subscription: which advertised artifacts to hear about (types, roles, software, deployments, licence,
 * keywords, availability, text), and where deliveries go (a webhook, or none for a pull queue).
 */
import { api } from '../api';
import { compact, list, nonEmpty, text } from './body';
import { CheckboxField, CheckboxGroup, SelectField, TextArea, TextField } from './fields';
import { FormShell } from './form-shell';
import { useForm } from './form-state';
import { ChipPicker, type Choice } from './picker';
import { AVAILABILITY } from './release-model';
import { instanceSearch, softwareSearch, vocabSearch } from './searches';
import type { SubscriptionWritten } from '../api';

const FORM = 'subscription';
const searchTypes = vocabSearch('data');
const ROLES = [
  { value: 'produced', label: 'Produced (advertised as output of a run)' },
  { value: 'consumed', label: 'Consumed (advertised as input of a run)' },
];
/** A webhook's body formats and signature schemes: `label` in the form, `name` where a subscription is shown. */
export const FORMATS = [
  { value: 'reg', label: "The registry's JSON", name: "the registry's JSON" },
  { value: 'cloudevents', label: 'CloudEvents 1.0 (structured, the JSON as data)', name: 'CloudEvents' },
  { value: 'cdevents', label: 'CDEvents artifact.published (the JSON as customData)', name: 'CDEvents' },
];
export const SIGNATURES = [
  { value: 'reg', label: 'x-reg-signature (HMAC-SHA256 of the body)', name: 'x-reg-signature' },
  {
    value: 'standard-webhooks',
    label: 'Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature)',
    name: 'Standard Webhooks',
  },
];
const FIELDS = [
  'label',
  'filter.conforms_to',
  'filter.roles',
  'filter.software',
  'filter.instance',
  'filter.license',
  'filter.keywords',
  'filter.availability',
  'filter.q',
  'filter.exclude_own',
  'webhook_url',
  'format',
  'signature',
];

interface State {
  readonly label: string;
  readonly types: readonly Choice[];
  readonly roles: readonly string[];
  readonly software: readonly Choice[];
  readonly instances: readonly Choice[];
  readonly licences: string;
  readonly keywords: string;
  readonly availability: readonly string[];
  readonly q: string;
  readonly excludeOwn: boolean;
  readonly webhook: string;
  readonly format: string;
  readonly signature: string;
}

const EMPTY: State = {
  label: '',
  types: [],
  roles: [],
  software: [],
  instances: [],
  licences: '',
  keywords: '',
  availability: [],
  q: '',
  excludeOwn: true,
  webhook: '',
  format: 'reg',
  signature: 'reg',
};

export function SubscriptionForm(props: {
  instanceId: string;
  onCreated: (created: SubscriptionWritten) => void;
}) {
  const form = useForm({ form: FORM, initial: EMPTY, fields: () => FIELDS });
  const { state, set } = form;
  const submit = () => {
    const filter = compact({
      conforms_to: nonEmpty(state.types.map((choice) => choice.value)),
      roles: nonEmpty(state.roles),
      software: nonEmpty(state.software.map((choice) => choice.value)),
      instance: nonEmpty(state.instances.map((choice) => choice.value)),
      license: list(state.licences),
      keywords: list(state.keywords),
      availability: nonEmpty(state.availability),
      q: text(state.q),
      exclude_own: state.excludeOwn,
    });
    void form.submission.run(async () => {
      const created = await api.post<SubscriptionWritten>(
        `/api/v1/instances/${encodeURIComponent(props.instanceId)}/subscriptions`,
        compact({
          label: text(state.label),
          filter,
          webhook_url: text(state.webhook),
          // How deliveries are written and signed matters only to a webhook.
          ...(text(state.webhook) === undefined ? {} : { format: state.format, signature: state.signature }),
        }) ?? {},
      );
      form.reset();
      props.onCreated(created);
    });
  };
  return (
    <FormShell form={form} onSubmit={submit} submit="Create subscription" sending="Creating…">
      <TextField
        name="label"
        label="Label"
        hint="What this subscription is for."
        value={state.label}
        onValue={set('label')}
      />
      <fieldset class="group">
        <legend>Which artifacts</legend>
        <p class="hint">
          Values in one field are alternatives; fields combine. Leave everything empty to hear about every
          artifact.
        </p>
        <ChipPicker
          name="filter.conforms_to"
          label="Artifact types"
          search={searchTypes}
          values={state.types}
          onValues={set('types')}
        />
        <CheckboxGroup
          name="filter.roles"
          legend="Roles"
          hint="None chosen means produced only."
          options={ROLES}
          values={state.roles}
          onValues={set('roles')}
        />
        <ChipPicker
          name="filter.software"
          label="From deployments of these software records"
          search={softwareSearch}
          values={state.software}
          onValues={set('software')}
        />
        <ChipPicker
          name="filter.instance"
          label="From these deployments"
          search={instanceSearch}
          values={state.instances}
          onValues={set('instances')}
        />
        <TextArea
          name="filter.license"
          label="Licences"
          hint="Licence IRIs, one per line; an artifact without a licence never matches."
          rows={2}
          value={state.licences}
          onValue={set('licences')}
        />
        <TextField
          name="filter.keywords"
          label="Keywords"
          hint="Separated by commas."
          value={state.keywords}
          onValue={set('keywords')}
        />
        <CheckboxGroup
          name="filter.availability"
          legend="Availability"
          options={AVAILABILITY}
          values={state.availability}
          onValues={set('availability')}
        />
        <TextField
          name="filter.q"
          label="Text in the title or description"
          value={state.q}
          onValue={set('q')}
        />
        <CheckboxField
          name="filter.exclude_own"
          label="Leave out artifacts this deployment advertised itself"
          checked={state.excludeOwn}
          onChecked={set('excludeOwn')}
        />
      </fieldset>
      <fieldset class="group">
        <legend>Delivery</legend>
        <TextField
          name="webhook_url"
          label="Webhook URL"
          type="url"
          hint="An HTTPS address the registry posts each match to, signed with a secret shown once. Leave empty for a pull queue only."
          value={state.webhook}
          onValue={set('webhook')}
        />
        <SelectField
          name="format"
          label="Body format"
          hint="What each delivery's body is: the registry's own JSON, or a CloudEvent or CDEvent for an event broker."
          value={state.format}
          options={FORMATS}
          onValue={set('format')}
        />
        <SelectField
          name="signature"
          label="Signature"
          hint="How the receiver checks that a delivery came from this registry (reg webhook verify checks both)."
          value={state.signature}
          options={SIGNATURES}
          onValue={set('signature')}
        />
      </fieldset>
    </FormShell>
  );
}
