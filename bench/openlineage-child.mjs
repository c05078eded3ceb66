// OpenLineage load from its own process:
//   node openlineage-child.mjs <url> <token> <seconds> <producers> <batch> <event.json>
// Each producer posts COMPLETE RunEvents to /api/v1/lineage, as the OpenLineage clients' HTTP transport does, one
// request after the other: one event per request when <batch> is 1, else a JSON array of <batch> events. Events
// are the given genuine event with a fresh runId per run, the current eventTime, the producer's own job and
// parent run, and the producer's own input and output datasets (each run writes a new version of its outputs).
// Prints counts, the events accepted, the mean request body size and the latency of the requests as JSON.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';

const [url, token, seconds = '5', producers = '20', batch = '1', file] = process.argv.slice(2);
const size = Number(batch);
const template = JSON.parse(fs.readFileSync(file, 'utf8'));
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(producers) });
const target = new URL('/api/v1/lineage', url);
const deadline = Date.now() + Number(seconds) * 1000;
const latencies = [];
const statuses = {};
let bytes = 0;
let accepted = 0;
let refused = 0;
let failures = 0;
let firstProblem;

/** What producer `n` sends for one run: the template with this run's identity, time and datasets. */
function eventOf(n, parentRunId, time) {
  const named = (datasets, name) =>
    datasets.map((dataset, i) => ({ ...dataset, name: i === 0 ? name : `${name}_${i}` }));
  const facets = template.run.facets ?? {};
  const parent = facets.parent;
  return {
    ...template,
    eventTime: time,
    run: {
      ...template.run,
      runId: randomUUID(),
      facets:
        parent === undefined
          ? facets
          : {
              ...facets,
              parent: {
                ...parent,
                run: { runId: parentRunId },
                job: { ...parent.job, name: `bench.producer_${n}` },
              },
            },
    },
    job: { ...template.job, name: `bench.producer_${n}.task` },
    inputs: named(template.inputs, `bench.producer_${n}.source`),
    outputs: named(template.outputs, `bench.producer_${n}.table`),
  };
}

/** The next eventTime of a producer: now, and always after the producer's previous one. */
function clock() {
  let last = 0;
  return () => {
    last = Math.max(last + 1, Date.now());
    return new Date(last).toISOString();
  };
}

function post(body) {
  const started = performance.now();
  return new Promise((resolve) => {
    const request = http.request(
      target,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
            ms: performance.now() - started,
          }),
        );
      },
    );
    request.on('error', () => resolve({ status: 0, text: '', ms: performance.now() - started }));
    request.end(body);
  });
}

/** Counts one answer: a single event is accepted on 202; a batch says how many of its events were. */
function record(answer) {
  statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
  latencies.push(answer.ms);
  if (answer.status !== 202 && answer.status !== 207) {
    failures++;
    refused += size;
    firstProblem ??= `${answer.status} ${answer.text.slice(0, 500)}`;
    return;
  }
  if (size === 1) {
    accepted++;
    return;
  }
  const body = JSON.parse(answer.text);
  accepted += body.accepted;
  refused += body.refused;
  if (body.refused > 0) {
    const problem = body.events.find((event) => event.status !== 202);
    firstProblem ??= JSON.stringify(problem).slice(0, 500);
  }
}

async function producer(n) {
  const parentRunId = randomUUID();
  const time = clock();
  while (Date.now() < deadline) {
    const events = Array.from({ length: size }, () => eventOf(n, parentRunId, time()));
    const body = JSON.stringify(size === 1 ? events[0] : events);
    bytes += Buffer.byteLength(body);
    record(await post(body));
  }
}

const started = Date.now();
// Producer numbers are unique to this process, so two loads never share a producer's datasets.
await Promise.all(Array.from({ length: Number(producers) }, (_, n) => producer(`${process.pid}_${n}`)));
const ms = Date.now() - started;
latencies.sort((a, b) => a - b);
const at = (p) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? NaN;
process.stdout.write(
  `${JSON.stringify({ requests: latencies.length, accepted, refused, failures, statuses, firstProblem, bytes: bytes / latencies.length, ms, p50: at(0.5), p95: at(0.95) })}\n`,
);
agent.destroy();
