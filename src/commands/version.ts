import { ClientCommand } from '../cli/client/client-command.js';
import { ProfileError } from '../cli/client/errors.js';
import { describeSource, resolveProfile } from '../cli/client/profile.js';
import { describeRegistry } from '../cli/client/registry-description.js';

/** What `reg version` reports about the registry the profile names. */
export interface RegistryVersionJson {
  url: string | null;
  source: string | null;
  reachable: boolean;
  software?: string;
  version?: string;
  error?: string;
}

/** The result of `reg version`. */
export interface VersionJson {
  name: string;
  version: string;
  bin: string;
  node: string;
  platform: string;
  arch: string;
  registry: RegistryVersionJson;
}

/** Seconds to wait for the registry's answer, unless --timeout says otherwise. */
const DEFAULT_WAIT = 3;

export default class Version extends ClientCommand {
  static override summary = 'Print the version of reg, of Node.js and of the registry it would talk to.';
  static override description = `Prints the npm package and version of this client (@reg-registry/reg, the reg command), the Node.js version and the platform, then asks the registry the connection profile names (--url, REG_URL, the config file, else http://localhost:8080) for its software version, at GET /.well-known/reg-registry, without a credential. The registry gets 3 seconds to answer (--timeout sets another limit); one that does not answer is reported, and the command still exits 0.

reg --version and reg -v print the same.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> --version',
    'REG_URL=https://registry.example.org <%= config.bin %> <%= command.id %> --json',
  ];

  async run(): Promise<VersionJson> {
    const { flags } = await this.parse(Version);
    const registry = await this.ask(flags);
    const result: VersionJson = {
      name: this.config.name,
      version: this.config.version,
      bin: this.config.bin,
      node: process.version,
      platform: process.platform,
      arch: process.arch,
      registry,
    };
    this.log(`${result.name} ${result.version} (the ${result.bin} command)`);
    this.log(`node ${result.node}, ${result.platform}-${result.arch}`);
    const where = registry.url === null ? 'registry' : `registry ${registry.url} (from ${registry.source})`;
    this.log(
      registry.reachable
        ? `${where}: ${registry.software ?? 'unknown software'} ${registry.version ?? '(version not given)'}`
        : `${where}: not reachable (${registry.error ?? 'no answer'})`,
    );
    return result;
  }

  /** Asks the registry of the profile for its version; never throws for an unreachable or odd registry. */
  private async ask(flags: Parameters<typeof resolveProfile>[0]): Promise<RegistryVersionJson> {
    let profile;
    try {
      profile = await resolveProfile(flags, process.env);
    } catch (error) {
      if (!(error instanceof ProfileError)) throw error;
      return { url: null, source: null, reachable: false, error: error.message };
    }
    const base = { url: profile.url, source: describeSource(profile.sources.url) };
    const seconds = flags.timeout ?? DEFAULT_WAIT;
    const answer = await describeRegistry(profile.url, seconds);
    if ('failure' in answer) return { ...base, reachable: false, error: reason(answer.failure, seconds) };
    if ('status' in answer) return { ...base, reachable: true, error: `HTTP ${answer.status}` };
    const software: unknown = answer.description.software;
    const version: unknown = answer.description.software_version;
    return {
      ...base,
      reachable: true,
      ...(typeof software === 'string' ? { software } : {}),
      ...(typeof version === 'string' ? { version } : {}),
    };
  }
}

/** A short reason a request failed: the system error code, or the time limit. */
function reason(error: unknown, seconds: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `no answer within ${seconds} s`;
  }
  const cause =
    error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}
