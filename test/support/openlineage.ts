import { randomUUID } from 'node:crypto';

/**
 * A COMPLETE OpenLineage RunEvent of a new run of `job` (in `namespace`, by `producer`) that read `inputs` and
 * wrote `outputs` at `time`, as an integration would send it.
 */
export function completeRunEvent(
  job: string,
  time: string,
  inputs: object[],
  outputs: object[],
  { namespace = 'nightly', producer = 'https://example.org/scheduler' } = {},
): Record<string, unknown> {
  return {
    eventType: 'COMPLETE',
    eventTime: time,
    producer,
    schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
    run: { runId: randomUUID() },
    job: { namespace, name: job },
    inputs,
    outputs,
  };
}
