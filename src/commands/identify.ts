import { Args } from '@oclif/core';
import { ClientCommand, tableFlags } from '../cli/client/client-command.js';
import type { ContentIdentity } from '../api/index.js';
import { CONTENT_MATCH_COLUMNS, identifyName } from '../cli/client/identify.js';

export default class Identify extends ClientCommand {
  static override summary = 'Find the artifacts and releases that hold some content, by any name of it.';
  static override description = `Asks the registry which records hold the content a name names (GET /api/v1/identify?id=...) and lists them: distributions of artifacts whose checksum is that digest or that record that Software Heritage identifier, and releases whose image has that digest or whose source has that identifier. Records of peers the registry has cached are listed too, with their origin.

The name may be an RFC 6920 content identifier (ni:///sha-256;<base64url>), a hash URI (hash://sha256/<hex>), a bare hex digest (its length says the algorithm: 64 characters are SHA-256), an OCI digest (sha256:<hex>), an in-toto DigestSet as JSON ({"sha256":"<hex>"}, matched on any one of its digests; gitBlob, gitTree, gitCommit and gitTag stand for the SWHIDs of those objects), or a Software Heritage identifier (swh:1:cnt:, swh:1:dir:, swh:1:rel:, swh:1:rev: or swh:1:snp: and 40 hex digits; qualifiers such as ;origin= are allowed and ignored for matching).

Prints every name of the content on standard error, one a line, and the records as a table (the MATCHED column shows which recorded value matched); under --json the registry's whole answer: the names (aliases), the digests, the matches and, for a SHA-256, SHA-384 or SHA-512 digest, the content identifier and how to compute it. A name the registry cannot read exits 8; content no record holds exits 7. To start from a file rather than a name, reg artifacts identify computes the digest here.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    '<%= config.bin %> <%= command.id %> "$(sha256sum results/table.csv | cut -d\' \' -f1)"',
    '<%= config.bin %> <%= command.id %> \'{"sha256":"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}\' --json',
    '<%= config.bin %> <%= command.id %> swh:1:rel:22ece559cc7cc2364edc5e5593d63ae8bd229f9f',
  ];
  static override args = {
    id: Args.string({
      description:
        'a name of the content: ni:///sha-256;..., hash://sha256/<hex>, a hex digest, sha256:<hex>, a DigestSet as JSON or swh:1:...',
      required: true,
    }),
  };
  static override flags = { ...tableFlags };

  async run(): Promise<ContentIdentity> {
    const { args, flags } = await this.parse(Identify);
    const client = await this.registry(flags);
    const answer = await identifyName(client.http, args.id);
    for (const alias of answer.aliases) this.logToStderr(`${alias.form}\t${alias.name}`);
    this.printTable(answer.matches, CONTENT_MATCH_COLUMNS);
    return answer;
  }
}
