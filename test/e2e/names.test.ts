import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_TOKEN, runReg, startServe, tempDir, testEnv, type ServerProcess } from '../helpers.js';

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

async function json(args: string[]): Promise<Record<string, any>> {
  const result = await runReg([...args, '--json'], env);
  expect(result.code, `reg ${args.join(' ')}: ${result.stdout}${result.stderr}`).toBe(0);
  return JSON.parse(result.stdout) as Record<string, any>;
}

/** A name no other test uses. */
const unique = (stem: string): string => `${stem} ${Math.random().toString(36).slice(2, 8)}`;

/** Runs a command that must be refused, returning its stderr, after checking its exit code. */
async function refused(args: string[], code: number): Promise<string> {
  const result = await runReg(args, env);
  expect(result.code, `reg ${args.join(' ')}: ${result.stdout}${result.stderr}`).toBe(code);
  expect(result.stdout).toBe('');
  return result.stderr;
}

describe('records named instead of ids', () => {
  it('finds software by its name, refuses a name two records share, and offers close names', async () => {
    const name = unique('name-test aligner');
    const software = await json(['software', 'create', '--name', name, '--tagline', 'first']);
    expect((await json(['software', 'get', name])).id).toBe(software.id);
    expect((await json(['software', 'update', name, '--tagline', 'edited'])).tagline).toBe('edited');

    const twin = await json(['software', 'create', '--name', name, '--tagline', 'second']);
    const stderr = await refused(['software', 'get', name], 13);
    expect(stderr.split('\n')[0]).toBe(`reg: 2 software records are named "${name}": give one of their ids`);
    expect(stderr).toContain(`${software.id}  ${name}  (local, edited)`);
    expect(stderr).toContain(`${twin.id}  ${name}  (local, second)`);
    const ambiguous = await runReg(['software', 'get', name, '--json'], env);
    expect(ambiguous.code).toBe(13);
    const error = JSON.parse(ambiguous.stdout).error;
    expect(error).toMatchObject({ code: 'ambiguous-name', exit_code: 13 });
    expect(error.candidates.map((c: { id: string }) => c.id).sort()).toEqual([software.id, twin.id].sort());

    const missing = await refused(['software', 'get', name.slice(0, -1)], 7);
    expect(missing).toContain(`reg: no software is named "${name.slice(0, -1)}"`);
    expect(missing).toContain(`hint: close names: "${name}"`);
    // An id is used as it is, whatever names exist.
    expect((await json(['software', 'delete', twin.id])).id).toBe(twin.id);
    expect((await json(['software', 'get', name])).id).toBe(software.id);
  });

  it('finds deployments by label, also through --software and --instance flags', async () => {
    const softwareName = unique('name-test service');
    const software = await json(['software', 'create', '--name', softwareName]);
    const label = unique('name-test node');
    const node = await json(['instances', 'create', '--software', softwareName, '--label', label]);
    expect(node.software).toBe(software.iri);
    expect((await json(['instances', 'get', label])).id).toBe(node.id);
    const listed = await json(['instances', 'list', '--software', softwareName]);
    expect(listed.items.map((item: { id: string }) => item.id)).toEqual([node.id]);

    const minted = await json(['tokens', 'create', '--instance', label, '--label', 'name-test token']);
    expect(minted.record.instance_iri).toBe(node.iri);
    expect((await json(['tokens', 'list', '--instance', label])).items[0].id).toBe(minted.record.id);
    expect(await json(['tokens', 'revoke', 'name-test token', '--instance', label])).toEqual({
      id: minted.record.id,
      revoked: true,
    });
    await refused(['tokens', 'revoke', 'no such token', '--instance', label], 7);
    // --deployment is another name of --instance.
    expect((await json(['tokens', 'list', '--deployment', label])).items[0].revoked_at).not.toBeNull();

    const twin = await json(['instances', 'create', '--software', software.id, '--label', label]);
    const stderr = await refused(['instances', 'get', label], 13);
    expect(stderr).toContain(`reg: 2 deployments are named "${label}"`);
    expect(stderr).toContain(`${node.id}  ${label}  (${softwareName}, local)`);
    expect(stderr).toContain(`${twin.id}  ${label}`);
    // The same ambiguity through a flag, before anything is written.
    await refused(['tokens', 'create', '--instance', label], 13);
    expect((await json(['tokens', 'list', '--instance', node.id])).total).toBe(1);
    await refused(['subscribe', 'list', '--instance', label], 13);

    await refused(['instances', 'get', unique('name-test nowhere')], 7);
    await refused(['instances', 'create', '--software', unique('no such software'), '--label', 'x'], 7);
    await refused(['tokens', 'list', '--software', unique('no such software')], 7);
  });

  it('finds artifact types by slug or label, and subscriptions by label within their deployment', async () => {
    const slug = `name-test-${Math.random().toString(36).slice(2, 8)}`;
    const label = unique('Name test report');
    const type = await json(['types', 'create', '--label', label, '--slug', slug]);
    expect((await json(['types', 'get', slug])).iri).toBe(type.iri);
    expect((await json(['types', 'get', label.toUpperCase()])).iri).toBe(type.iri);
    const other = await json(['types', 'create', '--label', label, '--slug', `${slug}-b`]);
    const ambiguous = await refused(['types', 'get', label], 13);
    expect(ambiguous).toContain(`${type.iri}  ${label}`);
    expect(ambiguous).toContain(`${other.iri}  ${label}`);
    const missing = await refused(['types', 'get', `${slug}-c`], 7);
    expect(missing).toContain(`reg: no type is named "${slug}-c"`);

    const softwareName = unique('name-test producer');
    await json(['software', 'create', '--name', softwareName]);
    const nodeLabel = unique('name-test subscriber');
    const node = await json(['instances', 'create', '--software', softwareName, '--label', nodeLabel]);
    const created = await json([
      'subscribe',
      'create',
      '--instance',
      nodeLabel,
      '--label',
      'reports',
      '--conforms-to',
      slug,
      '--from-software',
      softwareName,
    ]);
    expect(created.subscription.instance_iri).toBe(node.iri);
    expect(created.subscription.filter.conforms_to).toEqual([type.iri]);
    expect(created.subscription.filter.software).toHaveLength(1);
    expect(created.subscription.filter.software[0]).toMatch(/^http:\/\/registry\.test\/software\//);
    await refused(['subscribe', 'create', '--instance', nodeLabel, '--conforms-to', `${slug}-c`], 7);

    const pulled = await json(['subscribe', 'pull', 'reports', '--instance', nodeLabel]);
    expect(pulled.items).toEqual([]);
    // Without --instance, a label is looked up among the caller's own subscriptions: the root token has none.
    expect(await refused(['subscribe', 'pull', 'reports'], 2)).toContain('needs --instance');
    await json(['subscribe', 'create', '--instance', node.id, '--label', 'reports']);
    const twice = await refused(['subscribe', 'delete', 'reports', '--instance', nodeLabel], 13);
    expect(twice).toContain(`${created.subscription.id}  reports`);
    await refused(['subscribe', 'delete', 'nothing like it', '--instance', nodeLabel], 7);
    expect(await json(['subscribe', 'delete', created.subscription.id])).toEqual({
      id: created.subscription.id,
      deleted: true,
    });
    const left = await json(['subscribe', 'list', '--instance', nodeLabel]);
    expect(left.total).toBe(1);
    expect((await json(['subscribe', 'delete', 'reports', '--instance', nodeLabel])).deleted).toBe(true);
    expect((await json(['subscribe', 'list', '--instance', nodeLabel])).total).toBe(0);
  });
});
