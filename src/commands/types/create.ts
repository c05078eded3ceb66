import { ClientCommand } from '../../cli/client/client-command.js';
import { typeBody, typeFields } from '../../cli/client/fields.js';
import { buildBody } from '../../cli/client/input.js';
import type { TypeJson } from '../../cli/client/registry.js';

export default class TypesCreate extends ClientCommand {
  static override summary = 'Mint an artifact type, or adopt an existing IRI as one.';
  static override description = `Mints a new type at <base>/type/<slug> from --label and --slug (a new id when no slug is given;
posting an existing slug replaces its label), or with --iri adopts a term another vocabulary defines, so
records may cite it. Search first (reg vocab search --branch data): adopt what exists, mint only what
does not. Needs the curator role or the register:software scope.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> --label "SHACL report" --slug shacl-report --default-media-type text/turtle',
    '<%= config.bin %> <%= command.id %> --iri http://edamontology.org/data_3671 --label Text --alias plain-text',
  ];
  static override flags = typeFields;

  async run(): Promise<TypeJson> {
    const { flags } = await this.parse(TypesCreate);
    const body = await buildBody(flags.file, typeBody(flags));
    const type = await (await this.registry(flags)).create<TypeJson>('types', body);
    this.log(`${type.adopted === true ? 'adopted' : 'minted'} type ${type.iri}`);
    return type;
  }
}
