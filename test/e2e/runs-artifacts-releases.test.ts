import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_TOKEN, runReg, startServe, tempDir, testEnv, type ServerProcess } from '../helpers.js';
import { TYPE, type Json } from '../support/api.js';
import { completeRunEvent } from '../support/openlineage.js';

let server: ServerProcess;
/** The client's environment: the registry's URL and the root token, and no config file of the developer's. */
let env: Record<string, string>;

beforeAll(async () => {
  server = await startServe(testEnv());
  env = { REG_URL: server.url, REG_TOKEN: ROOT_TOKEN, XDG_CONFIG_HOME: tempDir('reg-xdg-') };
});
afterAll(async () => {
  await server.stop();
});

/** A call of the HTTP API that must answer `status`; returns the JSON body. */
async function api(method: string, route: string, status: number, body?: unknown, token = ROOT_TOKEN) {
  const response = await fetch(`${server.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  expect(response.status, `${method} ${route}: ${text}`).toBe(status);
  return (text === '' ? {} : JSON.parse(text)) as Json;
}

/** `reg <args> --json`, which must succeed; returns its JSON. */
async function json(args: string[], input?: string): Promise<Json> {
  const result = await runReg([...args, '--json'], env, input);
  expect(result.code, `reg ${args.join(' ')}: ${result.stdout}${result.stderr}`).toBe(0);
  return JSON.parse(result.stdout) as Json;
}

/** A software with two deployments of its own, each with a token that may advertise. */
async function deployments(name: string) {
  const software = await api('POST', '/api/v1/software', 201, { name });
  const deployment = async (label: string) => {
    const instance = await api('POST', '/api/v1/instances', 201, { software: software.iri, label });
    const minted = await api('POST', `/api/v1/instances/${instance.id}/tokens`, 201, {
      scopes: ['advertise:produce', 'advertise:consume'],
    });
    return { instance, token: minted.token as string };
  };
  return { software, a: await deployment(`${name} a`), b: await deployment(`${name} b`) };
}

/** Advertises artifacts of one run (by external key) as produced or consumed; returns the answer. */
function advertise(token: string, role: 'produced' | 'consumed', run: Json, artifacts: Json[]) {
  return api('POST', `/api/v1/advertise/${role}`, 201, { run, artifacts }, token);
}

/** A file of 4096 random ASCII characters in a fresh directory, with its text and SHA-256 as hex. */
function dataFile(): { file: string; sha256: string; text: string } {
  const text = randomBytes(2048).toString('hex');
  const file = path.join(tempDir('reg-identify-'), 'table.csv');
  fs.writeFileSync(file, text);
  return { file, sha256: createHash('sha256').update(text).digest('hex'), text };
}

const idOf = (iri: string): string => iri.slice(iri.lastIndexOf('/') + 1);
const ids = (page: Json): string[] => (page.items as Json[]).map((item) => item.id as string);

describe('reg runs', () => {
  it('lists runs with the API filters, as a table with the title first and the id last, and as JSON', async () => {
    const { software, a, b } = await deployments('runs-list');
    const key = `nightly-${randomUUID()}`;
    const ran = await advertise(
      a.token,
      'produced',
      {
        external_key: key,
        status: 'success',
        started_at: '2026-11-20T10:00:00Z',
        ended_at: '2026-11-20T10:05:00Z',
      },
      [{ title: 'report', conforms_to: TYPE }],
    );
    const failed = await advertise(b.token, 'produced', { external_key: `${key}-b`, status: 'failed' }, []);

    const bySoftware = await json(['runs', 'list', '--software', software.id]);
    expect(bySoftware.total).toBe(2);
    expect(ids(bySoftware).sort()).toEqual([idOf(ran.run), idOf(failed.run)].sort());
    const first = (bySoftware.items as Json[]).find((item) => item.iri === ran.run)!;
    expect(first).toMatchObject({
      external_key: key,
      status: 'success',
      instance: a.instance.iri,
      instance_label: 'runs-list a',
      generated_count: 1,
    });

    const byInstance = await json(['runs', 'list', '--instance', a.instance.iri]);
    expect(ids(byInstance)).toEqual([idOf(ran.run)]);
    const byStatus = await json(['runs', 'list', '--software', software.id, '--status', 'failed']);
    expect(ids(byStatus)).toEqual([idOf(failed.run)]);
    const byQuery = await json(['runs', 'list', '--query', `${key}-b`]);
    expect(ids(byQuery)).toEqual([idOf(failed.run)]);

    const table = await runReg(['runs', 'list', '--deployment', a.instance.id], env);
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^TITLE +KEY +STATUS +STARTED +ENDED +DEPLOYMENT +ID$/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(
      new RegExp(
        `^${key} +success +2026-11-20T10:00:00.000Z +2026-11-20T10:05:00.000Z +runs-list a +${idOf(ran.run)}$`,
      ),
    );
    expect(table.stderr).toMatch(/^1 of 1$/m);

    const paged = await json(['runs', 'list', '--software', software.id, '--limit', '1']);
    expect(paged.items).toHaveLength(1);
    expect(paged.next_cursor).toEqual(expect.any(String));
    const all = await json(['runs', 'list', '--software', software.id, '--limit', '1', '--all']);
    expect(ids(all).sort()).toEqual(ids(bySoftware).sort());
    expect(all.next_cursor).toBeUndefined();

    const badStatus = await runReg(['runs', 'list', '--status', 'finished'], env);
    expect(badStatus.code).toBe(2);
    expect(badStatus.stderr).toContain('--status');
  });

  it('shows one run by id, IRI or external key, with what it used and generated', async () => {
    const { a } = await deployments('runs-get');
    // The shape of key the CI defaults of reg advertise give: slashes, so never an id.
    const key = `gh-actions/${randomUUID()}/build/attempt-1`;
    const produced = await advertise(a.token, 'produced', { external_key: key, status: 'success' }, [
      { title: 'trained model', conforms_to: TYPE },
    ]);
    const consumed = await advertise(a.token, 'consumed', { external_key: key }, [
      { title: 'training set', conforms_to: TYPE },
    ]);
    expect(consumed.run).toBe(produced.run);

    const byId = await json(['runs', 'get', idOf(produced.run)]);
    expect(byId).toMatchObject({
      iri: produced.run,
      external_key: key,
      status: 'success',
      instance: a.instance.iri,
    });
    expect((byId.generated as Json[]).map((ref) => ref.iri)).toEqual(produced.artifacts);
    expect((byId.used as Json[]).map((ref) => ref.title)).toEqual(['training set']);
    expect(await json(['runs', 'get', produced.run])).toEqual(byId);
    expect(await json(['runs', 'get', key])).toEqual(byId);

    const record = await runReg(['runs', 'get', key], env);
    expect(record.code, record.stderr).toBe(0);
    expect(record.stdout).toMatch(new RegExp(`^id +${idOf(produced.run)}$`, 'm'));
    expect(record.stdout).toMatch(new RegExp(`^external_key +${key}$`, 'm'));
    expect(record.stdout).toMatch(/^used +training set <http:\/\/registry\.test\/artifact\/[^>]+>$/m);
    expect(record.stdout).toMatch(new RegExp(`^generated +trained model <${produced.artifacts[0]}>$`, 'm'));
  });

  it('lists the candidates of a key several deployments used and exits 13; --instance picks one', async () => {
    const { a, b } = await deployments('runs-ambiguous');
    const key = `shared-${randomUUID()}`;
    const runA = await advertise(a.token, 'produced', { external_key: key, status: 'success' }, []);
    const runB = await advertise(b.token, 'produced', { external_key: key, status: 'failed' }, []);
    // A key that merely contains this one is no candidate.
    await advertise(a.token, 'produced', { external_key: `${key}-retry`, status: 'running' }, []);

    const plain = await runReg(['runs', 'get', key], env);
    expect(plain.code).toBe(13);
    expect(plain.stderr).toMatch(new RegExp(`^reg: external key ${key} names 2 runs`));
    const candidates = plain.stdout.trimEnd().split('\n');
    expect(candidates[0]).toMatch(/^TITLE +KEY +STATUS/);
    expect(candidates).toHaveLength(3);
    expect(plain.stdout).toContain(idOf(runA.run));
    expect(plain.stdout).toContain(idOf(runB.run));
    expect(plain.stdout).not.toContain('running');

    const asJson = await runReg(['runs', 'get', key, '--json'], env);
    expect(asJson.code).toBe(13);
    const { error } = JSON.parse(asJson.stdout) as Json;
    expect(error).toMatchObject({ code: 'ambiguous-name', status: 409, exit_code: 13 });
    expect((error.problem.candidates as Json[]).map((run) => run.iri).sort()).toEqual(
      [runA.run, runB.run].sort(),
    );

    const picked = await json(['runs', 'get', key, '--instance', b.instance.id]);
    expect(picked).toMatchObject({ iri: runB.run, status: 'failed' });
    const events = await runReg(['runs', 'events', key], env);
    expect(events.code).toBe(13);
  });

  it('exits 7 for a run that is neither an id nor an external key', async () => {
    const missing = await runReg(['runs', 'get', `no-such-run-${randomUUID()}`], env);
    expect(missing.code).toBe(7);
    expect(missing.stderr).toMatch(/^reg: no run has the id or external key no-such-run-/);
    expect(missing.stderr.trimEnd().split('\n')).toHaveLength(1);
    const spaced = await runReg(['runs', 'get', 'job with spaces', '--json'], env);
    expect(spaced.code).toBe(7);
    expect(JSON.parse(spaced.stdout).error).toMatchObject({ code: 'not-found', exit_code: 7 });
    const { a } = await deployments('runs-missing');
    const elsewhere = await runReg(['runs', 'get', 'ci-1', '--instance', a.instance.id], env);
    expect(elsewhere.code).toBe(7);
    expect(elsewhere.stderr).toContain(`of deployment ${a.instance.id}`);
    const events = await runReg(['runs', 'events', `no-such-run-${randomUUID()}`], env);
    expect(events.code).toBe(7);
  });

  it('prints the OpenLineage events a run was recorded from', async () => {
    const { a } = await deployments('runs-events');
    const start = completeRunEvent(
      'etl',
      '2026-11-21T08:00:00Z',
      [{ namespace: 's3://in', name: 'raw.csv' }],
      [],
    );
    start.eventType = 'START';
    const complete = {
      ...completeRunEvent(
        'etl',
        '2026-11-21T08:10:00Z',
        [{ namespace: 's3://in', name: 'raw.csv' }],
        [{ namespace: 's3://out', name: 'clean.csv' }],
      ),
      run: start.run,
    };
    const first = await api('POST', '/api/v1/openlineage', 202, start, a.token);
    const second = await api('POST', '/api/v1/openlineage', 202, complete, a.token);
    expect(second.run).toBe(first.run);
    const run = first.run as string;

    const page = await json(['runs', 'events', idOf(run)]);
    expect(page.run).toBe(run);
    expect(page.total).toBe(2);
    expect((page.items as Json[]).map((item) => item.event.eventType)).toEqual(['START', 'COMPLETE']);
    expect(page.items[1].event).toEqual(complete);
    // The run's external key is the OpenLineage runId.
    expect(await json(['runs', 'events', (start.run as Json).runId as string])).toEqual(page);

    const table = await runReg(['runs', 'events', run], env);
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^TIME +TYPE +JOB +INPUTS +OUTPUTS +RECEIVED +DIGEST$/);
    expect(lines[1]).toMatch(
      /^2026-11-21T08:00:00\.000Z +START +nightly\/etl +1 +0 +\S+ +sha-256:[0-9a-f]{64}$/,
    );
    expect(lines[2]).toMatch(/^2026-11-21T08:10:00\.000Z +COMPLETE +nightly\/etl +1 +1 /);

    const one = await json(['runs', 'events', run, '--limit', '1']);
    expect(one.items).toHaveLength(1);
    expect(one.next_cursor).toBe('1');
    const all = await json(['runs', 'events', run, '--limit', '1', '--all']);
    expect(all.items).toEqual(page.items);
  });
});

describe('reg artifacts', () => {
  it('lists artifacts by run, deployment, software and type, and shows one by id or IRI', async () => {
    const { software, a } = await deployments('artifacts-list');
    const key = `job-${randomUUID()}`;
    const produced = await advertise(a.token, 'produced', { external_key: key, status: 'success' }, [
      {
        title: 'summary table',
        conforms_to: TYPE,
        distributions: [{ download_url: 'https://data.example.org/t.csv' }],
      },
    ]);
    const consumed = await advertise(a.token, 'consumed', { external_key: key }, [
      { title: 'raw readings', conforms_to: TYPE },
    ]);
    const [made] = produced.artifacts as string[];
    const [read] = consumed.artifacts as string[];

    const byRun = await json(['artifacts', 'list', '--run', idOf(produced.run)]);
    expect(ids(byRun).sort()).toEqual([idOf(made!), idOf(read!)].sort());
    expect(await json(['artifacts', 'list', '--run', key])).toEqual(byRun);
    expect(ids(await json(['artifacts', 'list', '--instance', a.instance.id])).sort()).toEqual(
      ids(byRun).sort(),
    );
    expect(ids(await json(['artifacts', 'list', '--software', software.iri])).sort()).toEqual(
      ids(byRun).sort(),
    );
    const open = await json(['artifacts', 'list', '--software', software.id, '--availability', 'public']);
    expect(ids(open)).toEqual([idOf(made!)]);
    const typed = await json([
      'artifacts',
      'list',
      '--software',
      software.id,
      '--type',
      TYPE,
      '--query',
      'summary',
    ]);
    expect(ids(typed)).toEqual([idOf(made!)]);

    const table = await runReg(['artifacts', 'list', '--run', produced.run], env);
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^TITLE +TYPE +AVAILABILITY +ISSUED +RUN +ID$/);
    expect(lines.find((line) => line.startsWith('summary table'))).toMatch(
      new RegExp(`^summary table +Data +public +\\S+ +${idOf(produced.run)} +${idOf(made!)}$`),
    );
    expect(lines.find((line) => line.startsWith('raw readings'))).toMatch(
      new RegExp(`^raw readings +Data +metadata-only +\\S+ +${idOf(read!)}$`),
    );

    const record = await json(['artifacts', 'get', idOf(made!)]);
    expect(record).toMatchObject({ iri: made, title: 'summary table', was_generated_by: produced.run });
    expect(await json(['artifacts', 'get', made!])).toEqual(record);
    const fields = await runReg(['artifacts', 'get', made!], env);
    expect(fields.stdout).toMatch(/^title +summary table$/m);
    expect(fields.stdout).toMatch(/^availability +public$/m);

    const missing = await runReg(['artifacts', 'get', randomUUID()], env);
    expect(missing.code).toBe(7);
    expect(missing.stderr).toMatch(/^reg: 404 Not found/);
    const badFilter = await runReg(['artifacts', 'list', '--availability', 'secret'], env);
    expect(badFilter.code).toBe(2);
    const noRun = await runReg(['artifacts', 'list', '--run', `no-such-job-${randomUUID()}`], env);
    expect(noRun.code).toBe(7);
  });

  it('identifies a real file and standard input by their content, and exits 7 for unknown content', async () => {
    const { a } = await deployments('artifacts-identify');
    const { file, sha256, text } = dataFile();
    const produced = await advertise(
      a.token,
      'produced',
      { external_key: `id-${randomUUID()}`, status: 'success' },
      [
        {
          title: 'checksummed table',
          conforms_to: TYPE,
          distributions: [
            {
              download_url: 'https://data.example.org/c.csv',
              checksum: { algorithm: 'sha256', value: sha256 },
            },
          ],
        },
      ],
    );
    const contentId = `ni:///sha-256;${Buffer.from(sha256, 'hex').toString('base64url')}`;

    const found = await json(['artifacts', 'identify', file]);
    expect(found).toMatchObject({
      source: file,
      byte_size: 4096,
      content_identifier: contentId,
      algorithm: 'sha-256',
      digest_hex: sha256,
      total: 1,
    });
    expect(ids(found)).toEqual([idOf(produced.artifacts[0])]);
    expect((found.items as Json[])[0]!.content_identifiers).toEqual([contentId]);

    const piped = await runReg(['artifacts', 'identify', '-', '--json'], env, text);
    expect(piped.code, piped.stderr).toBe(0);
    expect(JSON.parse(piped.stdout)).toMatchObject({ source: '-', content_identifier: contentId, total: 1 });

    const table = await runReg(['artifacts', 'identify', file], env);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stderr).toContain(`${contentId} (4096 bytes)`);
    expect(table.stdout).toMatch(/^TITLE +TYPE/);
    expect(table.stdout).toMatch(
      new RegExp(`^checksummed table +Data +public .* ${idOf(produced.artifacts[0])}$`, 'm'),
    );

    const other = dataFile();
    const unknown = await runReg(['artifacts', 'identify', other.file], env);
    expect(unknown.code).toBe(7);
    expect(unknown.stderr).toBe(
      `reg: no artifact of this registry carries ni:///sha-256;${Buffer.from(other.sha256, 'hex').toString('base64url')} (${other.file})\n`,
    );
    const sha512 = await runReg(['artifacts', 'identify', file, '--algorithm', 'sha512', '--json'], env);
    expect(sha512.code).toBe(7);
    expect(JSON.parse(sha512.stdout).error.message).toContain('ni:///sha-512;');
    const absent = await runReg(['artifacts', 'identify', path.join(tempDir(), 'absent.csv')], env);
    expect(absent.code).toBe(5);
    expect(absent.stderr).toMatch(/cannot be read: no such file\n$/);
    const directory = await runReg(['artifacts', 'identify', tempDir()], env);
    expect(directory.code).toBe(5);
  });
});

describe('reg releases', () => {
  it('creates, lists and withdraws the releases of a software', async () => {
    const software = await api('POST', '/api/v1/software', 201, { name: 'releases-cli' });
    const created = await json([
      'releases',
      'create',
      software.id,
      '--version',
      '1.2.0',
      '--date-published',
      '2026-11-02',
      '--container-image',
      'ghcr.io/example/tool:1.2.0',
      '--download',
      'https://downloads.example.org/tool-1.2.0.tgz',
      '--produces',
      TYPE,
      '--swhid',
      `swh:1:rel:${'2'.repeat(40)}`,
    ]);
    expect(created).toMatchObject({
      version: '1.2.0',
      software: software.iri,
      date_published: '2026-11-02',
      container_image: 'ghcr.io/example/tool:1.2.0',
      downloads: [{ url: 'https://downloads.example.org/tool-1.2.0.tgz' }],
      swhids: [`swh:1:rel:${'2'.repeat(40)}`],
    });
    expect(created.capability.produces).toEqual([expect.objectContaining({ iri: TYPE })]);
    const file = path.join(tempDir(), 'release.json');
    fs.writeFileSync(file, JSON.stringify({ version: '0.9.0', install_command: 'pip install tool==0.9.0' }));
    const fromFile = await runReg(['releases', 'create', software.iri, '--file', file], env);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(fromFile.stdout).toMatch(
      /^created release 0\.9\.0 of releases-cli: [0-9a-f-]{36} \(http:\/\/registry\.test\/release\/[0-9a-f-]{36}\)\n$/,
    );

    const list = await json(['releases', 'list', software.id]);
    expect(list.total).toBe(2);
    expect((list.items as Json[]).map((release) => release.version)).toEqual(['0.9.0', '1.2.0']);
    const table = await runReg(['releases', 'list', software.iri], env);
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^VERSION +PUBLISHED +IMAGE +CAPABILITY +ID$/);
    expect(lines[2]).toMatch(
      new RegExp(`^1\\.2\\.0 +2026-11-02 +ghcr\\.io/example/tool:1\\.2\\.0 +produces Data +${created.id}$`),
    );
    expect(table.stderr).toMatch(/^2 of 2$/m);

    expect(await json(['releases', 'delete', software.id, created.id])).toEqual({
      software: software.id,
      id: created.id,
      withdrawn: true,
    });
    expect(ids(await json(['releases', 'list', software.id]))).not.toContain(created.id);
    // Withdrawing is idempotent: a second withdrawal answers as the first did.
    const again = await runReg(['releases', 'delete', software.id, created.id], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe(`withdrew release ${created.id} of software ${software.id}\n`);
  });

  it('refuses bad releases and unknown software with the documented exit codes', async () => {
    const software = await api('POST', '/api/v1/software', 201, { name: 'releases-refused' });
    const other = await api('POST', '/api/v1/software', 201, { name: 'releases-other' });
    const noVersion = await runReg(
      ['releases', 'create', software.id, '--date-published', 'soon', '--json'],
      env,
    );
    expect(noVersion.code).toBe(8);
    const fields = (JSON.parse(noVersion.stdout).error.errors as Json[]).map((error) => error.field).sort();
    expect(fields).toEqual(['date_published', 'version']);
    const nothing = await runReg(['releases', 'create', software.id], env);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('nothing to send');
    const unknown = await runReg(['releases', 'list', randomUUID()], env);
    expect(unknown.code).toBe(7);
    expect(unknown.stderr).toMatch(/^reg: 404 Not found: no software /);
    const release = await json(['releases', 'create', software.id, '--version', '3.0.0']);
    const elsewhere = await runReg(['releases', 'delete', other.id, release.id], env);
    expect(elsewhere.code).toBe(7);
    const anonymous = await runReg(['releases', 'create', software.id, '--version', '3.0.1'], {
      REG_URL: env.REG_URL!,
      XDG_CONFIG_HOME: env.XDG_CONFIG_HOME!,
    });
    expect(anonymous.code).toBe(9);
    expect(ids(await json(['releases', 'list', software.id]))).toEqual([release.id]);
  });
});
