import { redactConfig, settingSources, SETTINGS, type SettingView } from '../core/config/index.js';
import { RegCommand } from '../cli/base-command.js';

export default class ConfigCommand extends RegCommand {
  static override summary = 'Print the effective configuration with secrets redacted.';
  static override description = `Reads the REG_* environment exactly as \`reg serve\` (and every other command) does and prints each setting with the value in effect and where it came from: the environment, the documented default, or derived from another setting (REG_BASE_IRI from a loopback REG_LISTEN). Secret values are never printed, only whether they are set. --json gives the same list under "settings" beside the parsed configuration (base IRI, data directory, graph store and credential kind, limits, issuers, peer and subscription settings).

A setting \`serve\` would refuse is refused here too, with the same sentence and exit code 3.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    'REG_BASE_IRI=http://localhost:8080 <%= config.bin %> <%= command.id %> --json',
  ];

  async run(): Promise<Record<string, unknown>> {
    await this.parse(ConfigCommand);
    const config = this.loadConfig();
    const settings = settingSources(process.env, config);
    const view = { ...redactConfig(config), settings };
    if (!this.jsonEnabled()) {
      const width = Math.max(...settings.map((setting) => setting.name.length)) + 2;
      const valueWidth = Math.min(
        40,
        Math.max(...settings.map((setting) => (setting.value ?? '-').length)) + 2,
      );
      for (const setting of settings)
        this.log(
          `${setting.name.padEnd(width)}${(setting.value ?? '-').padEnd(valueWidth)}${sourceOf(setting, config.dataDir)}`,
        );
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

/** Where a setting's value came from, in words. */
function sourceOf(setting: SettingView, dataDir: string): string {
  const said =
    setting.source === 'derived'
      ? `derived from ${setting.from ?? 'another setting'}`
      : setting.source === 'default' && setting.from !== undefined
        ? `default: ${setting.from}`
        : setting.source;
  return setting.name === 'REG_DATA_DIR' ? `${said} (${dataDir})` : said;
}
