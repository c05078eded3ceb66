import { redactConfig, SETTINGS } from '../core/config/index.js';
import { RegCommand } from '../cli/base-command.js';

export default class ConfigCommand extends RegCommand {
  static override summary = 'Print the effective configuration with secrets redacted.';
  static override description = `Reads the REG_* environment exactly as \`reg serve\` does and prints the result: base IRI, data
directory, graph store and credential kind, listen address, read switches, whether a root token is set,
static directory, OIDC and workload issuers, peer and subscription settings. Secret values are never printed.
A setting \`serve\` would refuse is refused here too, with the same sentence and exit code 3.`;
  static override examples = [
    'REG_BASE_IRI=http://localhost:8080 <%= config.bin %> <%= command.id %> --json',
  ];

  async run(): Promise<Record<string, unknown>> {
    await this.parse(ConfigCommand);
    const config = this.loadConfig();
    const view = redactConfig(config);
    if (!this.jsonEnabled()) {
      for (const [key, value] of Object.entries(flatten(view))) this.log(`${key.padEnd(34)} ${value}`);
      for (const name of config.unknownVariables) {
        const near = SETTINGS.find((spec) => spec.name.replace(/_/g, '') === name.replace(/_/g, ''));
        this.warn(
          `${name} is not a known setting${near === undefined ? '' : `; did you mean ${near.name}?`}`,
        );
      }
    }
    return view;
  }
}

function flatten(value: unknown, prefix = ''): Record<string, string> {
  if (value === null || value === undefined) return { [prefix]: '-' };
  if (Array.isArray(value)) return { [prefix]: value.length === 0 ? '-' : value.join(', ') };
  if (typeof value !== 'object')
    return { [prefix]: typeof value === 'string' ? value : JSON.stringify(value) };
  const out: Record<string, string> = {};
  for (const [key, inner] of Object.entries(value))
    Object.assign(out, flatten(inner, prefix === '' ? key : `${prefix}.${key}`));
  return out;
}
