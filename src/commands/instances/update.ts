import { Args, Flags } from '@oclif/core';
import { ClientCommand } from '../../cli/client/client-command.js';
import { instanceBody, instanceFields, unsetFlag } from '../../cli/client/fields.js';
import { buildBody } from '../../cli/client/input.js';
import type { InstanceJson } from '../../cli/client/registry.js';

export default class InstancesUpdate extends ClientCommand {
  static override summary = 'Edit a deployment (instance) record with a JSON merge patch.';
  static override description = `Sends the changes as a JSON merge patch (PATCH): fields given by --file or the field flags are replaced, fields named by --unset are cleared, and every other field is kept. Needs the curator role, or the deployment's own credential.

--environment moves the deployment to another environment (such as prod or staging) by hand; deployment events that name an environment change it as well. An edit is not a deployment event: it leaves the deployment's history as it is.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0190f5d2-8a1b-7c3d-9e4f-0123456789ab --availability restricted',
    '<%= config.bin %> <%= command.id %> 0190f5d2-8a1b-7c3d-9e4f-0123456789ab --environment staging',
    '<%= config.bin %> <%= command.id %> 0190f5d2-8a1b-7c3d-9e4f-0123456789ab --unset endpoint_url --json',
  ];
  static override args = { id: Args.string({ description: 'instance id or IRI', required: true }) };
  static override flags = {
    ...instanceFields,
    environment: Flags.string({ description: 'the environment it runs in, such as prod or staging' }),
    ...unsetFlag,
  };

  async run(): Promise<InstanceJson> {
    const { args, flags } = await this.parse(InstancesUpdate);
    const client = await this.registry(flags);
    const patch = await buildBody(
      flags.file,
      {
        ...instanceBody(flags, await client.softwareIri(flags.software)),
        environment: flags.environment,
      },
      flags.unset,
    );
    const record = await client.update<InstanceJson>('instances', args.id, patch);
    this.log(`updated instance ${record.id}`);
    return record;
  }
}
