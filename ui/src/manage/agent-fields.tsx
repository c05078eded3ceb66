/** A publisher, contact or operator: a name, what kind of agent it is, and a homepage or email address. */
import { compact, text, textOf, type Body } from './body';
import { SelectField, TextField } from './fields';

export interface AgentState {
  readonly name: string;
  readonly kind: string;
  readonly homepage: string;
  readonly email: string;
}

export const EMPTY_AGENT: AgentState = { name: '', kind: '', homepage: '', email: '' };

const KINDS = [
  { value: 'organization', label: 'Organisation' },
  { value: 'person', label: 'Person' },
  { value: 'software', label: 'Software' },
];

export function agentState(value: unknown): AgentState {
  if (value === null || typeof value !== 'object') return EMPTY_AGENT;
  const agent = value as Body;
  return {
    name: textOf(agent, 'name'),
    kind: textOf(agent, 'kind'),
    homepage: textOf(agent, 'homepage'),
    email: textOf(agent, 'email'),
  };
}

/** The agent as the registry takes it, with only the members this form shows. */
export function agentBody(agent: AgentState, members: readonly (keyof AgentState)[]): Body | undefined {
  return compact(Object.fromEntries(members.map((member) => [member, text(agent[member])])));
}

export function AgentFields(props: {
  name: string;
  legend: string;
  value: AgentState;
  members: readonly (keyof AgentState)[];
  onValue: (value: AgentState) => void;
}) {
  const set = (member: keyof AgentState) => (value: string) =>
    props.onValue({ ...props.value, [member]: value });
  const shows = (member: keyof AgentState) => props.members.includes(member);
  return (
    <fieldset class="group">
      <legend>{props.legend}</legend>
      <TextField name={`${props.name}.name`} label="Name" value={props.value.name} onValue={set('name')} />
      <SelectField
        name={`${props.name}.kind`}
        label="Kind"
        value={props.value.kind}
        options={KINDS}
        empty="Not stated"
        onValue={set('kind')}
      />
      {shows('homepage') && (
        <TextField
          name={`${props.name}.homepage`}
          label="Homepage"
          type="url"
          value={props.value.homepage}
          onValue={set('homepage')}
        />
      )}
      {shows('email') && (
        <TextField
          name={`${props.name}.email`}
          label="Email address"
          type="email"
          value={props.value.email}
          onValue={set('email')}
        />
      )}
    </fieldset>
  );
}

/** The field paths an agent fieldset shows, for placing errors. */
export function agentFields(name: string, members: readonly (keyof AgentState)[]): string[] {
  return [
    `${name}.name`,
    `${name}.kind`,
    ...members.filter((m) => m !== 'name' && m !== 'kind').map((m) => `${name}.${m}`),
  ];
}
