import { createHash, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_TOKEN, runReg, startServe, tempDir, testEnv, type ServerProcess } from '../helpers.js';

type Json = Record<string, any>;

const FIXTURES = new URL('../fixtures/attestations/', import.meta.url);
const dir = tempDir('reg-attest-cli-');
const signer = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const keysFile = path.join(dir, 'keys.pem');
fs.writeFileSync(keysFile, signer.publicKey.export({ type: 'spki', format: 'pem' }));
const keyId = createHash('sha256')
  .update(signer.publicKey.export({ type: 'spki', format: 'der' }))
  .digest('hex');
/** The settings of this file's registry: the test key, the genuine trust root, verification required. */
const SETTINGS = {
  REG_ATTESTATION_KEYS: keysFile,
  REG_SIGSTORE_TRUSTED_ROOT: new URL('trusted_root.json', FIXTURES).pathname,
  REG_ATTESTATION_REQUIRE_VERIFIED: 'true',
};
let server: ServerProcess;
let env: Record<string, string>;
let deploymentEnv: Record<string, string>;

async function json(args: string[], environment = env): Promise<Json> {
  const result = await runReg([...args, '--json'], environment);
  expect(result.code, `reg ${args.join(' ')}: ${result.stdout}${result.stderr}`).toBe(0);
  return JSON.parse(result.stdout) as Json;
}

beforeAll(async () => {
  server = await startServe(testEnv(SETTINGS));
  env = { REG_URL: server.url, REG_TOKEN: ROOT_TOKEN, XDG_CONFIG_HOME: tempDir('reg-xdg-') };
  const software = await json(['software', 'create', '--name', 'attested tool']);
  const instance = await json([
    'instances',
    'create',
    '--software',
    software.id,
    '--label',
    'release builds',
  ]);
  const minted = await runReg(['tokens', 'create', '--instance', instance.id], env);
  deploymentEnv = { ...env, REG_TOKEN: minted.stdout.trim() };
});
afterAll(async () => {
  await server.stop();
});

/** A DSSE envelope of an SLSA provenance v1 statement of one build of `name`, signed with the test key. */
function signedProvenance(name: string, digest: string, key = signer.privateKey): Json {
  const statement = {
    _type: 'https://in-toto.io/Statement/v1',
    subject: [{ name, digest: { sha256: digest } }],
    predicateType: 'https://slsa.dev/provenance/v1',
    predicate: {
      buildDefinition: {
        buildType: 'https://actions.github.io/buildtypes/workflow/v1',
        externalParameters: {
          workflow: { ref: 'refs/heads/main', repository: 'https://github.com/org/tool' },
        },
        resolvedDependencies: [
          {
            uri: 'git+https://github.com/org/tool@refs/heads/main',
            digest: { gitCommit: digest.slice(0, 40) },
          },
        ],
      },
      runDetails: {
        builder: { id: 'https://github.com/actions/runner/github-hosted' },
        metadata: { invocationId: `https://github.com/org/tool/actions/runs/${randomUUID()}/attempts/1` },
      },
    },
  };
  const payload = Buffer.from(JSON.stringify(statement));
  const payloadType = 'application/vnd.in-toto+json';
  const signed = Buffer.concat([
    Buffer.from(`DSSEv1 ${payloadType.length} ${payloadType} ${payload.length} `),
    payload,
  ]);
  return {
    payloadType,
    payload: payload.toString('base64'),
    // Ed25519 signs the message itself; ECDSA a SHA-256 digest of it.
    signatures: [
      { sig: sign(key.asymmetricKeyType === 'ed25519' ? null : 'sha256', signed, key).toString('base64') },
    ],
  };
}

function write(name: string, value: unknown): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  return file;
}

const digest = () => createHash('sha256').update(randomUUID()).digest('hex');

describe('reg attest', () => {
  it('sends a statement from a file and prints the run, the artifacts and the signature check', async () => {
    const file = write('provenance.dsse.json', signedProvenance('tool.tgz', digest()));
    const plain = await runReg(['attest', file], deploymentEnv);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(
      /^attestation [0-9a-f]{64} \(provenance, https:\/\/slsa\.dev\/provenance\/v1\)$/m,
    );
    expect(plain.stdout).toMatch(/^run: \S+\/run\/\S+$/m);
    expect(plain.stdout).toMatch(/^generated: \S+\/artifact\/\S+$/m);
    expect(plain.stdout).toMatch(/^used: \S+\/artifact\/\S+$/m);
    expect(plain.stdout).toMatch(/^signature: (verified \(dsse\) by key [0-9a-f]{64}|unverified: .+)$/m);

    // The same statement again: the same answer, marked as a repeat, nothing written.
    const again = await json(['attest', file], deploymentEnv);
    expect(again.replayed).toBe(true);
    const run = await json(['runs', 'get', again.run]);
    expect(run.external_key).toMatch(/^https:\/\/github\.com\/org\/tool\/actions\/runs\//);
    const repeated = await runReg(['attest', file], deploymentEnv);
    expect(repeated.stderr).toContain('received before');
  });

  it('reads standard input with -', async () => {
    const sent = signedProvenance('from-stdin.tgz', digest());
    const result = await runReg(['attest', '-', '--json'], deploymentEnv, JSON.stringify(sent));
    expect(result.code, result.stderr).toBe(0);
    const answer = JSON.parse(result.stdout) as Json;
    expect(answer).toMatchObject({ kind: 'provenance', replayed: false });
    expect(answer.artifacts).toHaveLength(1);
    const served = await fetch(`${server.url}${new URL(answer.href as string).pathname}`);
    expect(served.headers.get('content-type')).toBe('application/vnd.dsse.envelope.v1+json');
    expect(JSON.parse(await served.text())).toEqual(sent);
  });

  it('records the verification the operator configured, and refuses what fails it', async () => {
    const verified = await json(
      ['attest', write('good.json', signedProvenance('good.tgz', digest()))],
      deploymentEnv,
    );
    expect(verified.verification).toEqual({ status: 'verified', method: 'dsse', key_id: keyId });
    const bundle = await json(
      ['attest', new URL('sigstore-js-2.1.0-bundle.json', FIXTURES).pathname],
      deploymentEnv,
    );
    expect(bundle.verification).toMatchObject({
      status: 'verified',
      issuer: 'https://token.actions.githubusercontent.com',
    });
    const other = generateKeyPairSync('ed25519').privateKey;
    const forged = signedProvenance('forged.tgz', digest(), other);
    const refused = await runReg(['attest', write('forged.json', forged)], deploymentEnv);
    expect(refused.code).toBe(8);
    expect(refused.stderr.trim().split('\n')[0]).toContain('verified attestations only');
  });

  it.each([
    ['a file that is not JSON', () => write('broken.json', '{"_type": '), 5, 'is not valid JSON'],
    ['a missing file', () => path.join(dir, 'absent.json'), 5, 'cannot be read'],
    [
      'a statement of a predicate the registry does not map',
      () =>
        write('other.json', {
          _type: 'https://in-toto.io/Statement/v1',
          subject: [{ name: 'x', digest: { sha256: digest() } }],
          predicateType: 'https://example.org/other/v1',
          predicate: {},
        }),
      8,
      'predicateType',
    ],
  ])('%s: a message on standard error and its exit code', async (_name, file, code, words) => {
    const result = await runReg(['attest', file()], deploymentEnv);
    expect(result.code).toBe(code);
    expect(result.stderr.split('\n')[0]).toMatch(/^reg: /);
    expect(result.stderr).toContain(words);
    expect(result.stdout).toBe('');
  });

  it('without a credential: exit 9', async () => {
    const { REG_TOKEN: _token, ...anonymous } = deploymentEnv;
    const file = write('anonymous.json', signedProvenance('anonymous.tgz', digest()));
    const result = await runReg(['attest', file], anonymous);
    expect(result.code).toBe(9);
  });
});
