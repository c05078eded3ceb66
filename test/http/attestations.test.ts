import {
  createHash,
  generateKeyPairSync,
  randomUUID,
  sign,
  X509Certificate,
  type KeyObject,
} from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/core/config/index.js';
import { openCore } from '../../src/core/core.js';
import { silentLogger } from '../../src/core/log.js';
import { preAuthEncoding } from '../../src/core/provenance/attestation-verify.js';
import { createApp } from '../../src/http/app.js';
import { apiOf, type Json } from '../support/api.js';
import { tempDir, testConfig } from '../helpers.js';
import { testSigstore } from '../fixtures/attestations/test-sigstore.js';

const FIXTURES = new URL('../fixtures/attestations/', import.meta.url);
const fixture = (name: string): Buffer => fs.readFileSync(new URL(name, FIXTURES));
const SLSA_V1 = 'https://slsa.dev/provenance/v1';

/** Keys made for this file: a P-256 key in a PEM file, an Ed25519 key in a JWKS with a `kid`. */
const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const ed25519 = generateKeyPairSync('ed25519');
const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const keyDir = tempDir('reg-attest-keys-');
const pemFile = path.join(keyDir, 'keys.pem');
const jwksFile = path.join(keyDir, 'keys.jwks.json');
fs.writeFileSync(pemFile, p256.publicKey.export({ type: 'spki', format: 'pem' }));
fs.writeFileSync(
  jwksFile,
  JSON.stringify({ keys: [{ ...ed25519.publicKey.export({ format: 'jwk' }), kid: 'release-signer' }] }),
);
const p256Id = createHash('sha256')
  .update(p256.publicKey.export({ type: 'spki', format: 'der' }))
  .digest('hex');

/** The DSSE v1 pre-authentication encoding, written out from the DSSE protocol description. */
function pae(payloadType: string, payload: Buffer): Buffer {
  const type = Buffer.from(payloadType);
  return Buffer.concat([
    Buffer.from(`DSSEv1 ${type.length} `),
    type,
    Buffer.from(` ${payload.length} `),
    payload,
  ]);
}

/** A DSSE envelope of a statement signed with `key` (ECDSA signatures DER-encoded, as cosign writes them). */
function envelope(statement: Json, key: KeyObject, keyid?: string): Json {
  const payload = Buffer.from(JSON.stringify(statement));
  const payloadType = 'application/vnd.in-toto+json';
  const algorithm = key.asymmetricKeyType === 'ed25519' ? null : 'sha256';
  const sig = sign(algorithm, pae(payloadType, payload), key);
  return {
    payloadType,
    payload: payload.toString('base64'),
    signatures: [{ ...(keyid === undefined ? {} : { keyid }), sig: sig.toString('base64') }],
  };
}

const hex = (seed: string, algorithm = 'sha256') => createHash(algorithm).update(seed).digest('hex');

/** An SLSA provenance v1 statement of one build with a fresh invocation, as a GitHub workflow would write it. */
function provenance(subjects: Json[], dependencies: Json[] = [], invocation = randomUUID()): Json {
  return {
    _type: 'https://in-toto.io/Statement/v1',
    subject: subjects,
    predicateType: SLSA_V1,
    predicate: {
      buildDefinition: {
        buildType: 'https://actions.github.io/buildtypes/workflow/v1',
        externalParameters: {
          workflow: { ref: 'refs/tags/v1.2.0', repository: 'https://github.com/org/tool' },
        },
        resolvedDependencies: dependencies,
      },
      runDetails: {
        builder: { id: 'https://github.com/actions/runner/github-hosted' },
        metadata: {
          invocationId: `https://github.com/org/tool/actions/runs/${invocation}/attempts/1`,
          startedOn: '2026-11-20T10:00:00Z',
          finishedOn: '2026-11-20T10:04:30Z',
        },
      },
    },
  };
}

/** A registry whose attestation settings are the ones given, on a fresh data directory. */
async function registry(attestations: Json) {
  const config = { ...testConfig(), attestations } as Config;
  const core = await openCore(config, silentLogger);
  await core.graph.open();
  const app = createApp(core);
  const api = apiOf(app);
  const { token, instance } = await api.deployment(undefined, 'builder');
  const post = (body: unknown, bearer: string | null = token) =>
    app.request('/api/v1/attestations', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(bearer === null ? {} : { authorization: `Bearer ${bearer}` }),
      },
      body: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
    });
  return { core, app, api, token, instance, post };
}

/** A record or list read as JSON. */
async function read(on: { app: ReturnType<typeof createApp> }, where: string): Promise<Json> {
  const response = await on.app.request(where.replace('http://registry.test', ''), {
    headers: { accept: 'application/json' },
  });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text) as Json;
}

let open: Awaited<ReturnType<typeof registry>>;
let strict: Awaited<ReturnType<typeof registry>>;
/** A registry that trusts only a Sigstore root made here, and requires verification. */
let made: Awaited<ReturnType<typeof registry>>;
const sigstore = testSigstore();

beforeAll(async () => {
  const trustedRoot = new URL('trusted_root.json', FIXTURES).pathname;
  open = await registry({ keysFile: pemFile, sigstoreTrustedRoot: trustedRoot, requireVerified: false });
  strict = await registry({ keysFile: jwksFile, sigstoreTrustedRoot: undefined, requireVerified: true });
  const madeRoot = path.join(keyDir, 'trusted_root.json');
  fs.writeFileSync(madeRoot, JSON.stringify(sigstore.trustedRoot));
  made = await registry({ keysFile: undefined, sigstoreTrustedRoot: madeRoot, requireVerified: true });
});
afterAll(async () => {
  await open.core.close();
  await strict.core.close();
  await made.core.close();
});

describe('DSSE-signed SLSA provenance', () => {
  it('is verified with the configured key, recorded as a run of the deployment, kept and served back', async () => {
    const digest = hex(randomUUID());
    const statement = provenance(
      [{ name: 'tool-1.2.0.tar.gz', digest: { sha256: digest } }],
      [{ uri: 'git+https://github.com/org/tool@refs/tags/v1.2.0', digest: { gitCommit: hex('c', 'sha1') } }],
    );
    const sent = JSON.stringify(envelope(statement, p256.privateKey));
    const answer = await open.api.expectStatus(await open.post(sent), 201);
    expect(answer.kind).toBe('provenance');
    expect(answer.predicate_type).toBe(SLSA_V1);
    expect(answer.verification).toEqual({ status: 'verified', method: 'dsse', key_id: p256Id });
    expect(answer.artifacts).toHaveLength(1);
    expect(answer.used).toHaveLength(1);
    expect(answer.build).toMatchObject({
      build_type: 'https://actions.github.io/buildtypes/workflow/v1',
      builder_id: 'https://github.com/actions/runner/github-hosted',
      invocation_id: statement.predicate.runDetails.metadata.invocationId,
      external_parameters: statement.predicate.buildDefinition.externalParameters,
      started_on: '2026-11-20T10:00:00.000Z',
      finished_on: '2026-11-20T10:04:30.000Z',
    });

    const run = await read(open, answer.run);
    expect(run.instance).toBe(open.instance.iri);
    expect(run.external_key).toBe(statement.predicate.runDetails.metadata.invocationId);
    expect(run.started_at).toBe('2026-11-20T10:00:00.000Z');
    expect(run.ended_at).toBe('2026-11-20T10:04:30.000Z');
    expect(run.used.map((item: Json) => item.iri)).toEqual(answer.used);

    const produced = await read(open, answer.artifacts[0]);
    expect(produced.title).toBe('tool-1.2.0.tar.gz');
    expect(produced.was_generated_by).toBe(answer.run);
    expect(produced.distributions[0].checksum.value).toBe(digest);
    const dependency = await read(open, answer.used[0]);
    expect(dependency.source).toBe('git+https://github.com/org/tool@refs/tags/v1.2.0');

    const served = await open.app.request(`/api/v1/attestations/${answer.id}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('application/vnd.dsse.envelope.v1+json');
    expect(await served.text()).toBe(sent);

    const listed = await read(open, `/api/v1/runs/${run.id}/attestations`);
    expect(listed.total).toBe(1);
    expect(listed.items[0]).toMatchObject({ id: answer.id, verification: answer.verification });
    expect(listed.items[0].build.builder_id).toBe('https://github.com/actions/runner/github-hosted');
    const onArtifact = await read(open, `/api/v1/artifacts/${produced.id}/attestations`);
    expect(onArtifact.items.map((item: Json) => item.id)).toEqual([answer.id]);
  });

  it('sent again is answered as the first time and writes nothing', async () => {
    const statement = provenance([{ name: 'again.tgz', digest: { sha256: hex(randomUUID()) } }]);
    const sent = envelope(statement, p256.privateKey);
    const first = await open.api.expectStatus(await open.post(sent), 201);
    const audit = open.core.db.prepare('SELECT count(*) AS n FROM audit').get() as { n: number };
    const again = await open.api.expectStatus(await open.post(sent), 200);
    expect(again).toEqual({ ...first, replayed: true });
    expect((open.core.db.prepare('SELECT count(*) AS n FROM audit').get() as { n: number }).n).toBe(audit.n);
  });

  it('verifies an Ed25519 signature with a key of a JWKS, named by its kid', async () => {
    const statement = provenance([{ name: 'signed-by-jwks', digest: { sha256: hex(randomUUID()) } }]);
    const answer = await strict.api.expectStatus(
      await strict.post(envelope(statement, ed25519.privateKey, 'release-signer')),
      201,
    );
    expect(answer.verification).toEqual({ status: 'verified', method: 'dsse', key_id: 'release-signer' });
  });

  it('tampered after signing: recorded as failed, or refused when verification is required', async () => {
    const statement = provenance([{ name: 'tampered', digest: { sha256: hex(randomUUID()) } }]);
    const signed = envelope(statement, p256.privateKey);
    const changed = { ...statement, subject: [{ name: 'tampered', digest: { sha256: hex(randomUUID()) } }] };
    const tampered = { ...signed, payload: Buffer.from(JSON.stringify(changed)).toString('base64') };
    const failed = await open.api.expectStatus(await open.post(tampered), 201);
    expect(failed.verification).toEqual({
      status: 'failed',
      method: 'dsse',
      reason: 'no signature of the DSSE envelope verifies with a configured public key',
    });

    const edSigned = envelope(statement, ed25519.privateKey, 'release-signer');
    const refused = await strict.api.expectStatus(
      await strict.post({ ...edSigned, payload: tampered.payload }),
      422,
    );
    expect(refused.code).toBe('attestation-not-verified');
    expect(refused.detail).toContain('verification failed');
    expect(refused.verification.status).toBe('failed');
    const id = createHash('sha256')
      .update(JSON.stringify(sortedDeep(changed)))
      .digest('hex');
    expect((await strict.app.request(`/api/v1/attestations/${id}`)).status).toBe(404);
  });

  it('signed by a key the operator did not configure: failed', async () => {
    const statement = provenance([{ name: 'stranger', digest: { sha256: hex(randomUUID()) } }]);
    const answer = await open.api.expectStatus(
      await open.post(envelope(statement, stranger.privateKey)),
      201,
    );
    expect(answer.verification.status).toBe('failed');
  });

  it('a bare statement is unverified, and refused where verification is required', async () => {
    const statement = provenance([{ name: 'bare', digest: { sha256: hex(randomUUID()) } }]);
    const answer = await open.api.expectStatus(await open.post(statement), 201);
    expect(answer.verification).toEqual({
      status: 'unverified',
      reason: 'a bare statement carries no signature',
    });
    expect(answer.media_type).toBe('application/vnd.in-toto+json');
    const refused = await strict.api.expectStatus(await strict.post(statement), 422);
    expect(refused.detail).toContain('unverified');
  });
});

describe('Sigstore bundles', () => {
  it('a genuine bundle (v0.3) is verified offline against the trust root file, naming the workflow identity', async () => {
    const sent = fixture('sigstore-js-2.1.0-bundle.json');
    const answer = await open.api.expectStatus(await open.post(sent), 201);
    expect(answer.verification).toEqual({
      status: 'verified',
      method: 'sigstore',
      subject: 'https://github.com/sigstore/sigstore-js/.github/workflows/release.yml@refs/heads/main',
      issuer: 'https://token.actions.githubusercontent.com',
    });
    expect(answer.media_type).toBe('application/vnd.dev.sigstore.bundle.v0.3+json');
    expect(answer.build).toMatchObject({
      build_type: 'https://slsa-framework.github.io/github-actions-buildtypes/workflow/v1',
      invocation_id: 'https://github.com/sigstore/sigstore-js/actions/runs/6014488666/attempts/1',
    });
    const produced = await read(open, answer.artifacts[0]);
    expect(produced.title).toBe('pkg:npm/sigstore@2.1.0');
    expect(produced.distributions[0].checksum.value).toMatch(/^90f223f992e4c88d/);
    const served = await open.app.request(`/api/v1/attestations/${answer.id}`);
    expect(Buffer.from(await served.arrayBuffer()).equals(sent)).toBe(true);
  });

  it('the same statement in a v0.1 bundle is the same attestation', async () => {
    const answer = await open.api.expectStatus(
      await open.post(fixture('sigstore-js-2.1.0-bundle-v0.1.json')),
      200,
    );
    expect(answer.replayed).toBe(true);
  });

  it('a genuine bundle whose statement was changed after signing fails', async () => {
    const bundle = JSON.parse(fixture('sigstore-js-2.1.0-bundle.json').toString()) as Json;
    const statement = JSON.parse(Buffer.from(bundle.dsseEnvelope.payload, 'base64').toString()) as Json;
    statement.subject[0].digest.sha512 = hex('changed', 'sha512');
    bundle.dsseEnvelope.payload = Buffer.from(JSON.stringify(statement)).toString('base64');
    const answer = await open.api.expectStatus(await open.post(bundle), 201);
    expect(answer.verification).toMatchObject({ status: 'failed', method: 'sigstore' });
    expect(answer.verification.reason).toMatch(/hash mismatch|signature/);
  });

  it('without a trust root a bundle is unverified, and refused where verification is required', async () => {
    const refused = await strict.api.expectStatus(
      await strict.post(fixture('sigstore-js-2.1.0-bundle.json')),
      422,
    );
    expect(refused.detail).toContain('REG_SIGSTORE_TRUSTED_ROOT');
  });
});

describe('DSSE as signed elsewhere', () => {
  it('the pre-authentication encoding is the one of the DSSE protocol', () => {
    expect(preAuthEncoding('http://example.com/HelloWorld', Buffer.from('hello world')).toString()).toBe(
      'DSSEv1 29 http://example.com/HelloWorld 11 hello world',
    );
  });

  it("the genuine bundle's envelope alone verifies with the public key of its signing certificate", async () => {
    const bundle = JSON.parse(fixture('sigstore-js-2.1.0-bundle.json').toString()) as Json;
    const certificate = new X509Certificate(
      Buffer.from(bundle.verificationMaterial.certificate.rawBytes as string, 'base64'),
    );
    const keys = path.join(keyDir, 'sigstore-js-signer.pem');
    fs.writeFileSync(keys, certificate.publicKey.export({ type: 'spki', format: 'pem' }));
    const genuine = await registry({ keysFile: keys, sigstoreTrustedRoot: undefined, requireVerified: true });
    try {
      const answer = await genuine.api.expectStatus(await genuine.post(bundle.dsseEnvelope), 201);
      expect(answer.verification).toMatchObject({ status: 'verified', method: 'dsse' });
      expect(answer.media_type).toBe('application/vnd.dsse.envelope.v1+json');
      const sig = Buffer.from(bundle.dsseEnvelope.signatures[0].sig as string, 'base64');
      sig.writeUInt8(sig.readUInt8(sig.length - 1) ^ 1, sig.length - 1);
      const tampered = { ...bundle.dsseEnvelope, signatures: [{ sig: sig.toString('base64') }] };
      const refused = await genuine.api.expectStatus(await genuine.post(tampered), 422);
      expect(refused.verification.status).toBe('failed');
    } finally {
      await genuine.core.close();
    }
  });
});

describe('Sigstore bundles under a trust root made in the test', () => {
  const workflow = 'https://github.com/org/tool/.github/workflows/release.yml@refs/tags/v1.2.0';
  const issuer = 'https://token.actions.githubusercontent.com';

  it('a bundle signed by a certificate of its authority, logged in its log, is verified with that identity', async () => {
    const statement = provenance([{ name: 'made-root.tgz', digest: { sha256: hex(randomUUID()) } }]);
    const answer = await made.api.expectStatus(
      await made.post(sigstore.bundle(statement, workflow, issuer)),
      201,
    );
    expect(answer.verification).toEqual({
      status: 'verified',
      method: 'sigstore',
      subject: workflow,
      issuer,
    });
    expect(answer.media_type).toBe('application/vnd.dev.sigstore.bundle+json;version=0.1');
  });

  it('the same bundle with its statement changed is refused, verification being required', async () => {
    const statement = provenance([{ name: 'made-root-changed.tgz', digest: { sha256: hex(randomUUID()) } }]);
    const bundle = sigstore.bundle(statement, workflow, issuer) as Json;
    statement.subject[0].digest.sha256 = hex(randomUUID());
    bundle.dsseEnvelope.payload = Buffer.from(JSON.stringify(statement)).toString('base64');
    const refused = await made.api.expectStatus(await made.post(bundle), 422);
    expect(refused.verification).toMatchObject({ status: 'failed', method: 'sigstore' });
  });

  it('a bundle of another authority (the public-good one) fails against this root', async () => {
    const refused = await made.api.expectStatus(
      await made.post(fixture('sigstore-js-2.1.0-bundle.json')),
      422,
    );
    expect(refused.verification).toMatchObject({ status: 'failed', method: 'sigstore' });
  });

  it('a bundle of this authority fails against the public-good root', async () => {
    const statement = provenance([
      { name: 'made-root-elsewhere.tgz', digest: { sha256: hex(randomUUID()) } },
    ]);
    const answer = await open.api.expectStatus(
      await open.post(sigstore.bundle(statement, workflow, issuer)),
      201,
    );
    expect(answer.verification).toMatchObject({ status: 'failed', method: 'sigstore' });
  });
});

describe('lineage and attached statements', () => {
  it('leads from an image digest back through its build to its source dependencies', async () => {
    const { api, post } = open;
    const source = hex(randomUUID());
    const other = await api.deployment(undefined, 'source publisher');
    const published = await api.advertise(other.token, 'produced', randomUUID(), [
      {
        title: 'tool source tarball',
        distributions: [
          {
            download_url: 'https://example.org/tool-src.tgz',
            checksum: { algorithm: 'sha256', value: source },
          },
        ],
      },
    ]);
    const baseImage = hex(randomUUID());
    const sw = await api.call('POST', '/api/v1/software', 201, { name: `base image ${randomUUID()}` });
    const release = await api.call('POST', `/api/v1/software/${sw.id}/releases`, 201, {
      version: '3.20',
      image_digest: `sha256:${baseImage}`,
    });
    const image = hex(randomUUID());
    const statement = provenance(
      [{ name: 'ghcr.io/org/tool', digest: { sha256: image } }],
      [
        { uri: 'https://example.org/tool-src.tgz', digest: { sha256: source } },
        { uri: 'oci://docker.io/library/alpine:3.20', digest: { sha256: baseImage } },
      ],
    );
    const answer = await api.expectStatus(await post(envelope(statement, p256.privateKey)), 201);
    expect(answer.used[0]).toBe(published.artifacts[0]);
    const base = await read(open, answer.used[1]);
    expect(base.was_derived_from).toEqual([release.iri]);

    const found = await read(open, `/api/v1/artifacts?content=sha256:${image}`);
    expect(found.items.map((item: Json) => item.iri)).toEqual(answer.artifacts);
    const lineage = await read(open, `/api/v1/artifacts/${found.items[0].id}/lineage?direction=up&depth=3`);
    const edges = lineage.edges.map((edge: Json) => `${edge.from} ${edge.predicate} ${edge.to}`);
    expect(edges).toContain(`${answer.run} generated ${answer.artifacts[0]}`);
    expect(edges).toContain(`${answer.run} used ${published.artifacts[0]}`);
    expect(edges).toContain(`${answer.run} used ${answer.used[1]}`);

    const testResult = {
      _type: 'https://in-toto.io/Statement/v1',
      subject: [{ name: 'ghcr.io/org/tool', digest: { sha256: image } }],
      predicateType: 'https://in-toto.io/attestation/test-result/v0.1',
      predicate: { result: 'PASSED', configuration: [], passedTests: ['unit'] },
    };
    const attached = await api.expectStatus(await post(envelope(testResult, p256.privateKey)), 201);
    expect(attached).toMatchObject({ kind: 'test-result', artifacts: answer.artifacts });
    expect(attached.run).toBeUndefined();
    const listed = await read(open, `/api/v1/artifacts/${found.items[0].id}/attestations`);
    expect(listed.items.map((item: Json) => item.kind)).toEqual(['provenance', 'test-result']);
  });

  it('an SBOM naming no artifact of the registry is refused, naming the subject', async () => {
    const sbom = {
      _type: 'https://in-toto.io/Statement/v1',
      subject: [{ name: 'unknown.tgz', digest: { sha256: hex(randomUUID()) } }],
      predicateType: 'https://spdx.dev/Document/v2.3',
      predicate: { spdxVersion: 'SPDX-2.3' },
    };
    const refused = await open.api.expectStatus(await open.post(sbom), 422);
    expect(refused.errors[0].field).toBe('subject[0].digest');
  });
});

describe('refusals', () => {
  it.each([
    ['not JSON', '{"_type":', 'not valid JSON'],
    [
      'another statement type',
      { _type: 'https://in-toto.io/Statement/v0.1', subject: [{}], predicateType: 'x' },
      '_type',
    ],
    [
      'an unmapped predicate',
      {
        ...provenance([{ name: 'a', digest: { sha256: hex('a') } }]),
        predicateType: 'https://example.org/p',
      },
      'predicateType',
    ],
    ['a subject without digest', provenance([{ name: 'a' }]), 'subject[0].digest'],
    [
      'a DSSE envelope of another payload type',
      { payloadType: 'text/plain', payload: 'aGk=', signatures: [] },
      'payloadType',
    ],
  ])('%s is a 422 naming the field', async (_name, body, words) => {
    const refused = await open.api.expectStatus(await open.post(body), 422);
    expect(refused.code).toBe('malformed-input');
    expect(refused.detail).toContain(words);
  });

  it('refuses JSON nested deeper than the registry reads, in the attestation or its DSSE payload, writing nothing', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const statement = JSON.stringify(provenance([{ name: 'deep', digest: { sha256: hex('deep') } }])).replace(
      /}$/,
      `,"deep":${deep}}`,
    );
    const before = (open.core.db.prepare('SELECT count(*) AS n FROM attestation').get() as { n: number }).n;
    const bare = await open.api.expectStatus(await open.post(statement), 400);
    expect(bare.code).toBe('too-deep');
    const envelope = {
      payloadType: 'application/vnd.in-toto+json',
      payload: Buffer.from(statement).toString('base64'),
      signatures: [],
    };
    const wrapped = await open.api.expectStatus(await open.post(envelope), 400);
    expect(wrapped.code).toBe('too-deep');
    expect((open.core.db.prepare('SELECT count(*) AS n FROM attestation').get() as { n: number }).n).toBe(
      before,
    );
  });

  it('needs a credential', async () => {
    const statement = provenance([{ name: 'anonymous', digest: { sha256: hex(randomUUID()) } }]);
    await open.api.expectStatus(await open.post(statement, null), 401);
  });

  it('an unknown attestation is a 404', async () => {
    await open.api.expectStatus(await open.app.request(`/api/v1/attestations/${hex('none')}`), 404);
  });
});

/** A value with the members of every object in code-unit order (the statement's canonical form). */
function sortedDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedDeep);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedDeep((value as Record<string, unknown>)[key])]),
  );
}
