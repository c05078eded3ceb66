/** The two type slots of a capability, each a term picker over artifact types. */
import type { CapabilityState } from './capability';
import { ChipPicker } from './picker';
import { vocabSearch } from './searches';

const searchTypes = vocabSearch('data');

export function CapabilityFields(props: {
  value: CapabilityState;
  onValue: (value: CapabilityState) => void;
  what: string;
}) {
  return (
    <fieldset class="group">
      <legend>Capability</legend>
      <p class="hint">
        The artifact types {props.what} produces and consumes, so others can find it by what it works with.
      </p>
      <ChipPicker
        name="capability.produces"
        label="Produces"
        search={searchTypes}
        values={props.value.produces}
        onValues={(produces) => props.onValue({ ...props.value, produces })}
      />
      <ChipPicker
        name="capability.consumes"
        label="Consumes"
        search={searchTypes}
        values={props.value.consumes}
        onValues={(consumes) => props.onValue({ ...props.value, consumes })}
      />
    </fieldset>
  );
}
