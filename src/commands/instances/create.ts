import { Flags } from '@oclif/core';
import { ClientCommand } from '../../cli/client/client-command.js';
import { instanceBody, instanceFields } from '../../cli/client/fields.js';
import { buildBody } from '../../cli/client/input.js';
import type { InstanceJson } from '../../cli/client/registry.js';

export default class InstancesCreate extends ClientCommand {
  static override summary = 'Register a deployment (instance) of some software.';
  static override description = `Sends a new instance record: the JSON object of --file (or standard input with --file -), with the field flags laid over it; --software takes the id or IRI of the software deployed. The registry validates it and answers with the full record. Needs the curator role or the register:instance scope.

--environment names the environment the deployment runs in (such as prod or staging), as deployment events name it: reg software deployments groups deployments by it and flags an environment whose deployments run different versions. Deployment events that name an environment change it afterwards.

An oidc_client_id (with its issuer) belongs to one live deployment: a second claim is refused as a conflict (exit 8).`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> --software 0190f5d2-8a1b-7c3d-9e4f-0123456789ab --label "Lab validator" --endpoint-url https://validate.example.org',
    '<%= config.bin %> <%= command.id %> --software checkout --label "checkout eu" --environment prod',
    '<%= config.bin %> <%= command.id %> --file instance.json --json',
  ];
  static override flags = {
    ...instanceFields,
    environment: Flags.string({ description: 'the environment it runs in, such as prod or staging' }),
  };

  async run(): Promise<InstanceJson> {
    const { flags } = await this.parse(InstancesCreate);
    const client = await this.registry(flags);
    const body = await buildBody(flags.file, {
      ...instanceBody(flags, await client.softwareIri(flags.software)),
      environment: flags.environment,
    });
    const record = await client.create<InstanceJson>('instances', body);
    this.log(`created instance ${record.id} (${record.iri})`);
    return record;
  }
}
