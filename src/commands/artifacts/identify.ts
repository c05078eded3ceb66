import { Args, Flags } from '@oclif/core';
import {
  ARTIFACT_COLUMNS,
  CONTENT_ALGORITHMS,
  digestSource,
  identifyContent,
  type IdentifyResult,
} from '../../cli/client/artifacts.js';
import { ClientCommand } from '../../cli/client/client-command.js';

export default class ArtifactsIdentify extends ClientCommand {
  static override summary = 'Find the artifacts that carry the content of a local file.';
  static override description = `Computes the digest of a file (or of standard input, given as -) here, asks the registry for its content identifier (POST /api/v1/artifacts/identify, which takes the digest, never the bytes), and lists the artifacts with a distribution of that content (GET /api/v1/artifacts?content=...). The content identifier is ni:///sha-256;<digest as base64url>, the name a distribution advertised with that checksum gets, so the same file finds the same artifacts in every registry.

Prints the content identifier and size on standard error and the artifacts as a table; under --json the identifier, the digest, the size and every matching artifact. No artifact with that content exits 7; an unreadable file exits 5. Artifacts advertised with a SHA-384 or SHA-512 checksum are found with --algorithm sha384 or sha512.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> results/table.csv',
    'curl -s https://data.example.org/table.csv | <%= config.bin %> <%= command.id %> -',
    '<%= config.bin %> <%= command.id %> model.bin --algorithm sha512 --json',
  ];
  static override args = {
    file: Args.string({ description: 'the file to identify, or - for standard input', required: true }),
  };
  static override flags = {
    algorithm: Flags.string({
      description: 'checksum algorithm of the digest',
      options: [...CONTENT_ALGORITHMS],
      default: 'sha256',
    }),
  };

  async run(): Promise<IdentifyResult> {
    const { args, flags } = await this.parse(ArtifactsIdentify);
    const client = await this.registry(flags);
    const digest = await digestSource(args.file, flags.algorithm);
    const result = await identifyContent(client.http, args.file, digest);
    this.logToStderr(`${result.content_identifier} (${result.byte_size} bytes)`);
    this.printTable(result.items, ARTIFACT_COLUMNS, result);
    return result;
  }
}
