import { Args } from '@oclif/core';
import { sendAttestation, verificationLine, type AttestationJson } from '../cli/client/attest.js';
import { ClientCommand } from '../cli/client/client-command.js';

export default class Attest extends ClientCommand {
  static override summary =
    'Send a build attestation (SLSA provenance, test results, an SBOM) to the registry.';
  static override description = `Reads one attestation from the file given (- reads standard input) and posts it to /api/v1/attestations: an in-toto Statement v1 on its own, in a DSSE envelope, or in a Sigstore bundle (v0.1 to v0.3). A file that is not one JSON object is refused before anything is sent (exit 5).

SLSA provenance v1 is recorded as a run of the deployment the token acts as (a deployment's token with advertise:produce, and advertise:consume when the build resolved dependencies): the statement's subjects become artifacts the run generated, its resolved dependencies artifacts the run used (those the registry already holds are found by their digests), and the build's type, builder, parameters, invocation id and times are kept. Test results and SBOMs are attached to the artifacts their subjects name by digest; a subject naming no artifact of the registry is refused (exit 8).

The registry checks the signature (DSSE with the operator's public keys, a Sigstore bundle against the operator's trust root) and records the outcome: verified, by which key or certificate identity; unverified; or failed, with the reason. A registry that requires verified attestations refuses any other (exit 8). The same statement sent again changes nothing and is answered as the first time.

Prints the attestation's id, the run, the artifacts and the verification; under --json the registry's whole answer.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> provenance.intoto.json',
    '<%= config.bin %> <%= command.id %> build.sigstore.json --json',
    'cat test-results.dsse.json | <%= config.bin %> <%= command.id %> -',
  ];
  static override args = {
    file: Args.string({
      description: 'the attestation: a JSON file, or - for standard input',
      required: true,
    }),
  };

  async run(): Promise<AttestationJson> {
    const { args, flags } = await this.parse(Attest);
    const answer = await sendAttestation((await this.registry(flags)).http, args.file);
    if (!this.jsonEnabled()) {
      this.log(`attestation ${answer.id} (${answer.kind}, ${answer.predicate_type})`);
      if (answer.run !== undefined) this.log(`run: ${answer.run}`);
      for (const artifact of answer.artifacts)
        this.log(`${answer.kind === 'provenance' ? 'generated' : 'attached to'}: ${artifact}`);
      for (const artifact of answer.used ?? []) this.log(`used: ${artifact}`);
      this.log(`signature: ${verificationLine(answer.verification)}`);
      if (answer.replayed) this.logToStderr('this statement was received before: nothing was written');
    }
    return answer;
  }
}
