import { ClientCommand } from '../cli/client/client-command.js';
import { configPlaces } from '../cli/client/config-file.js';
import { keepRefreshToken, removeToken } from '../cli/client/profile-file.js';

/** What `reg logout` prints under --json. */
export interface LogoutResult {
  readonly file: string;
  readonly profile: string | null;
  /** False when the profile held no token. */
  readonly removed: boolean;
}

export default class Logout extends ClientCommand {
  static override summary = 'Remove the stored token from your config file.';
  static override description = `Removes the token (or token_file) of a profile from your own config file, the one reg login writes (the first of $XDG_CONFIG_HOME/reg/config.json, config.yaml, config.yml and ~/.regrc* that exists), and forgets the profile's refresh token. The profile's URL and every other profile and key stay, and the file stays readable by you only. With --profile the named profile is changed, else the one the file makes the default, else the file's top-level settings.

Nothing is revoked at the registry: an API token keeps working wherever else it is kept (reg tokens revoke ends it). A profile without a token is left as it is, and the command still exits 0 (removed: false under --json).`;
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --profile prod --json',
  ];

  async run(): Promise<LogoutResult> {
    const { flags } = await this.parse(Logout);
    const places = configPlaces();
    const wanted = [flags.profile, process.env.REG_PROFILE].find(
      (name) => name !== undefined && name.trim() !== '',
    );
    const result = removeToken(places, wanted?.trim());
    keepRefreshToken(places, result, undefined);
    const where = `${result.file}${result.profile === undefined ? '' : `, profile "${result.profile}"`}`;
    this.logToStderr(result.removed ? `token removed from ${where}` : `no token stored in ${where}`);
    return { file: result.file, profile: result.profile ?? null, removed: result.removed };
  }
}
