import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_TOKEN, runReg, startServe, tempDir, testEnv, type ServerProcess } from '../helpers.js';
import { TYPE } from '../support/api.js';

const BYTES = Buffer.from('sample\treads\nS7\t1200443\n');
const HEX = createHash('sha256').update(BYTES).digest('hex');
const NI = `ni:///sha-256;${Buffer.from(HEX, 'hex').toString('base64url')}`;
const IMAGE_HEX = createHash('sha256').update('{"schemaVersion":2,"config":{}}').digest('hex');
const RELEASE_SWHID = `swh:1:rel:${createHash('sha1').update('tag v0.9.0').digest('hex')}`;

let server: ServerProcess;
let env: Record<string, string>;
let artifact: Record<string, any>;
let release: Record<string, any>;

async function post(path: string, body: unknown): Promise<Record<string, any>> {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.status, text).toBe(201);
  return JSON.parse(text) as Record<string, any>;
}

beforeAll(async () => {
  server = await startServe(testEnv());
  env = { REG_URL: server.url, REG_TOKEN: ROOT_TOKEN, XDG_CONFIG_HOME: tempDir('reg-xdg-') };
  const software = await post('/api/v1/software', { name: 'counter' });
  release = await post(`/api/v1/software/${software.id}/releases`, {
    version: '0.9.0',
    image_digest: `sha256:${IMAGE_HEX}`,
    swhids: [RELEASE_SWHID],
  });
  artifact = await post('/api/v1/artifacts', {
    title: 'Read counts of S7',
    conforms_to: TYPE,
    distributions: [
      { download_url: 'https://data.example.org/s7.tsv', checksum: { algorithm: 'sha256', value: HEX } },
    ],
  });
});
afterAll(async () => {
  await server.stop();
});

describe('reg identify', () => {
  it('finds the artifact by each name of its bytes, with the same answer under --json', async () => {
    for (const name of [NI, `hash://sha256/${HEX}`, HEX, `sha256:${HEX}`, JSON.stringify({ sha256: HEX })]) {
      const result = await runReg(['identify', name, '--json'], env);
      expect(result.code, `${name}: ${result.stderr}`).toBe(0);
      const answer = JSON.parse(result.stdout) as Record<string, any>;
      expect(answer.total, name).toBe(1);
      expect(answer.matches[0], name).toMatchObject({
        kind: 'distribution',
        artifact: artifact.iri,
        id: artifact.id,
        title: 'Read counts of S7',
        matched: [{ field: 'distributions.checksum', value: HEX }],
      });
      expect(answer.content_identifier, name).toBe(NI);
      expect(answer.aliases, name).toContainEqual({ form: 'hash-uri', name: `hash://sha256/${HEX}` });
    }
  });

  it('prints the matches as a table and every name of the content on standard error', async () => {
    const result = await runReg(['identify', `hash://sha256/${HEX}`], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^KIND +TITLE +MATCHED +ORIGIN +ID$/m);
    expect(result.stdout).toMatch(
      new RegExp(
        `^distribution +Read counts of S7 +distributions\\.checksum=\\S+ +local +${artifact.id}$`,
        'm',
      ),
    );
    expect(result.stderr.split('\n')).toEqual(
      expect.arrayContaining([`ni\t${NI}`, `oci\tsha256:${HEX}`, `hex\t${HEX}`]),
    );
  });

  it('finds a release by its image digest and by its SWHID', async () => {
    const byImage = JSON.parse((await runReg(['identify', `sha256:${IMAGE_HEX}`, '--json'], env)).stdout);
    expect(byImage.matches).toEqual([
      expect.objectContaining({ kind: 'release', iri: release.iri, title: 'counter 0.9.0' }),
    ]);
    const bySwhid = await runReg(['identify', RELEASE_SWHID], env);
    expect(bySwhid.code, bySwhid.stderr).toBe(0);
    expect(bySwhid.stdout).toMatch(
      new RegExp(`^release +counter 0\\.9\\.0 +swhids=${RELEASE_SWHID} .*${release.id}$`, 'm'),
    );
  });

  it('refuses a name it cannot read (exit 8) and reports content nothing holds (exit 7), in one line', async () => {
    const bad = await runReg(['identify', 'sha256:not-hex'], env);
    expect(bad.code).toBe(8);
    expect(bad.stdout).toBe('');
    expect(bad.stderr.trim().split('\n')[0]).toContain('id "sha256:not-hex" is not a content name');
    const badJson = await runReg(['identify', 'swh:1:cnt:short', '--json'], env);
    expect(badJson.code).toBe(8);
    expect(JSON.stringify(JSON.parse(badJson.stdout))).toContain('bad-request');
    const unknown = await runReg(['identify', '0a'.repeat(32)], env);
    expect(unknown.code).toBe(7);
    expect(unknown.stderr.trim()).toMatch(/nothing in this registry holds the content/);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
  });
});
