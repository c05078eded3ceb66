/** A capability (artifact types produced and consumed) as two chip lists, and back. */
import type { TermJson } from '../api';
import { nonEmpty, type Body } from './body';
import type { Choice } from './picker';
import { termChoice } from './searches';

export interface CapabilityState {
  readonly produces: readonly Choice[];
  readonly consumes: readonly Choice[];
}

export const NO_CAPABILITY: CapabilityState = { produces: [], consumes: [] };

export function termChoices(value: unknown): Choice[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown) => {
    if (typeof item === 'string') return [{ value: item, label: item }];
    if (item !== null && typeof item === 'object' && typeof (item as TermJson).iri === 'string') {
      return [termChoice(item as TermJson)];
    }
    return [];
  });
}

export function capabilityState(value: unknown): CapabilityState {
  if (value === null || typeof value !== 'object') return NO_CAPABILITY;
  const capability = value as Record<string, unknown>;
  return { produces: termChoices(capability.produces), consumes: termChoices(capability.consumes) };
}

/** `{produces, consumes}` with IRIs, or undefined when both are empty. */
export function capabilityBody(capability: CapabilityState): Body | undefined {
  if (capability.produces.length === 0 && capability.consumes.length === 0) return undefined;
  return {
    produces: capability.produces.map((choice) => choice.value),
    consumes: capability.consumes.map((choice) => choice.value),
  };
}

export const CAPABILITY_FIELDS = ['capability.produces', 'capability.consumes'];

export function iris(choices: readonly Choice[]): string[] | undefined {
  return nonEmpty(choices.map((choice) => choice.value));
}
