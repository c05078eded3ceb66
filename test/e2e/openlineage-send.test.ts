/**
 * `reg openlineage send` against a running registry, with genuine events written by the OpenLineage project
 * (test/fixtures/openlineage/events, see SOURCES.md there): single events, arrays and JSON Lines, one request per
 * event or in batches, standard input, refused events and malformed files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_TOKEN, runReg, startServe, tempDir, testEnv, type ServerProcess } from '../helpers.js';

const FIXTURES = new URL('../fixtures/openlineage/events/', import.meta.url);
const fixture = (file: string): string => new URL(file, FIXTURES).pathname;
const eventsOf = (file: string): Record<string, any>[] => {
  const body = JSON.parse(fs.readFileSync(fixture(file), 'utf8')) as unknown;
  return (Array.isArray(body) ? body : [body]) as Record<string, any>[];
};

let server: ServerProcess;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startServe(testEnv());
  env = { REG_URL: server.url, REG_TOKEN: ROOT_TOKEN, XDG_CONFIG_HOME: tempDir('reg-xdg-') };
});
afterAll(async () => {
  await server.stop();
});

async function json(args: string[], environment = env): Promise<Record<string, any>> {
  const result = await runReg([...args, '--json'], environment);
  expect(result.code, `reg ${args.join(' ')}: ${result.stdout}${result.stderr}`).toBe(0);
  return JSON.parse(result.stdout) as Record<string, any>;
}

/** The environment of a new deployment, with its own token (advertise:produce and advertise:consume). */
async function deployment(label: string): Promise<Record<string, string>> {
  const software = await json(['software', 'create', '--name', `pipelines of ${label}`]);
  const instance = await json(['instances', 'create', '--software', software.id, '--label', label]);
  const minted = await json(['tokens', 'create', '--instance', instance.id]);
  return { ...env, REG_TOKEN: minted.token as string };
}

/** Whether the registry's graph holds anything about `iri`. */
async function known(iri: string): Promise<boolean> {
  const result = await runReg(['sparql', `ASK { GRAPH ?g { <${iri}> ?p ?o } }`], env);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout === 'true\n';
}

describe('reg openlineage send', () => {
  it('sends single events one request each and records their run', async () => {
    const as = await deployment('getting started');
    const start = fixture('docs-getting-started-start.json');
    const complete = fixture('docs-getting-started-complete.json');
    const sent = await runReg(['openlineage', 'send', start, complete], as);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).toBe('');
    expect(sent.stderr).toBe('2 events sent: 2 accepted, 0 refused\n');

    const summary = await json(['openlineage', 'send', start, complete], as);
    expect(summary).toMatchObject({ sent: 2, accepted: 2, refused: 0 });
    expect(summary.events[0]).toMatchObject({ file: start, line: 1, status: 202, accepted: true });
    expect(summary.events[1].answer).toMatchObject({ kind: 'run', replayed: true });
    const output = eventsOf('docs-getting-started-complete.json')[0]!.outputs as unknown[];
    expect(summary.events[1].answer.produced).toHaveLength(output.length);
    expect(await known(summary.events[1].answer.run as string)).toBe(true);
  });

  it('sends arrays and JSON Lines in batches, and reads standard input', async () => {
    const as = await deployment('dbt');
    const batch = fixture('dbt-large-batch.json');
    const large = eventsOf('dbt-large-batch.json');
    const summary = await json(['openlineage', 'send', batch, '--batch', '4'], as);
    expect(summary).toMatchObject({ sent: large.length, accepted: large.length, refused: 0 });
    expect(summary.events.map((event: any) => event.item)).toEqual(large.map((_, at) => at + 1));
    for (const event of summary.events) expect(event.answer.kind).toBe('run');

    // The Python client's logged events, one per line, as a JSON Lines file (with a blank line).
    const files = ['run1-start', 'run1-complete', 'run2-start', 'run2-complete'].map(
      (name) => `python-client-logging-${name}.json`,
    );
    const lines = files.map((file) => JSON.stringify(eventsOf(file)[0]));
    const jsonl = path.join(tempDir('reg-ol-'), 'events.jsonl');
    fs.writeFileSync(jsonl, `${lines[0]}\n${lines[1]}\n\n${lines[2]}\n${lines[3]}\n`);
    const lined = await json(['openlineage', 'send', jsonl, '--batch', '3'], await deployment('python'));
    expect(lined).toMatchObject({ sent: 4, accepted: 4, refused: 0 });
    expect(lined.events.map((event: any) => event.line)).toEqual([1, 2, 4, 5]);
    const runs = new Set(lined.events.map((event: any) => event.answer.run));
    expect(runs.size).toBe(2);

    const piped = await runReg(
      ['openlineage', 'send', '-', '--json'],
      await deployment('stdin'),
      fs.readFileSync(fixture('python-client-serde-job-event.json'), 'utf8'),
    );
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stderr).toBe('');
    expect(JSON.parse(piped.stdout)).toMatchObject({
      sent: 1,
      accepted: 1,
      events: [{ file: 'standard input', answer: { kind: 'job' } }],
    });
  });

  it('reports refused events with their file and reason, and exits 8', async () => {
    const as = await deployment('fluentd');
    const good = fixture('fluentd-event-simple.json');
    const bad = fixture('fluentd-no-run-id.json');
    const sent = await runReg(['openlineage', 'send', good, bad], as);
    expect(sent.code).toBe(8);
    const [first, ...refusals] = sent.stderr.trimEnd().split('\n');
    expect(first).toBe('2 events sent: 1 accepted, 1 refused');
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatch(new RegExp(`^  ${bad}:1: .*runId`));

    // In a batch the refused event is answered on its own; the others stand.
    const dir = tempDir('reg-ol-');
    const array = path.join(dir, 'mixed.json');
    fs.writeFileSync(
      array,
      JSON.stringify([...eventsOf('fluentd-no-run-id.json'), ...eventsOf('fluentd-docker-test-start.json')]),
    );
    const batched = await runReg(['openlineage', 'send', array, '--batch', '2', '--json'], as);
    expect(batched.code).toBe(8);
    const summary = JSON.parse(batched.stdout) as Record<string, any>;
    expect(summary).toMatchObject({ sent: 2, accepted: 1, refused: 1 });
    expect(summary.events[0]).toMatchObject({ item: 1, accepted: false, status: 400 });
    expect(summary.events[0].reason).toContain('runId');
    expect(summary.events[1]).toMatchObject({ item: 2, accepted: true });

    // The root token acts as no deployment: the whole sending stops with one line.
    const root = await runReg(['openlineage', 'send', good], env);
    expect(root.code).toBe(9);
    expect(root.stderr).toMatch(/^reg: 403 [^\n]*\n$/);
  });

  it('refuses malformed files before sending anything, naming the file and line', async () => {
    const as = await deployment('malformed');
    const dir = tempDir('reg-ol-');
    const line = JSON.stringify(eventsOf('fluentd-event-full.json')[0]);
    const cut = path.join(dir, 'cut.jsonl');
    fs.writeFileSync(cut, `${line}\n${line}\n${line.slice(0, 40)}\n`);
    const broken = await runReg(['openlineage', 'send', fixture('fluentd-event-simple.json'), cut], as);
    expect(broken.code).toBe(5);
    expect(broken.stderr).toBe(`reg: ${cut} line 3: not JSON: ${broken.stderr.split('not JSON: ')[1]}`);
    expect(broken.stderr.trim().split('\n')).toHaveLength(1);

    const pretty = path.join(dir, 'pretty.json');
    const text = fs.readFileSync(fixture('fluentd-event-simple.json'), 'utf8');
    fs.writeFileSync(pretty, text.replace('"eventTime"', '"eventTime" "'));
    const prettyBroken = await runReg(['openlineage', 'send', pretty, '--json'], as);
    expect(prettyBroken.code).toBe(5);
    const lineOf = text.slice(0, text.indexOf('"eventTime"')).split('\n').length;
    expect(JSON.parse(prettyBroken.stdout).error.message).toMatch(
      new RegExp(`^${pretty} line ${lineOf}: not JSON`),
    );

    const scalar = path.join(dir, 'numbers.json');
    fs.writeFileSync(scalar, '[1, 2]');
    const notEvents = await runReg(['openlineage', 'send', scalar], as);
    expect(notEvents.code).toBe(5);
    expect(notEvents.stderr).toBe(`reg: ${scalar} item 1: an event must be a JSON object\n`);

    expect((await runReg(['openlineage', 'send', path.join(dir, 'absent.json')], as)).code).toBe(5);
    expect(
      (await runReg(['openlineage', 'send', fixture('fluentd-event-simple.json'), '--batch', '0'], as)).code,
    ).toBe(2);
    expect((await runReg(['openlineage', 'send'], as)).code).toBe(2);
    // Nothing of the malformed sends was recorded: the deployment's first event is still new.
    const fresh = await json(['openlineage', 'send', fixture('fluentd-event-simple.json')], as);
    expect(fresh.events[0].answer.replayed).toBe(false);
  });
});
