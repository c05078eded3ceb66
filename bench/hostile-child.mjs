// Load from its own process for the hostile-client benchmark, in one of three roles; prints its figures as JSON.
//   node hostile-child.mjs mix <url> <token> <seconds> <clients> <ids,...>
//     each client in turn reads a software record, lists software and advertises a small run
//   node hostile-child.mjs heavy <url> <seconds>
//     one anonymous client sends an expensive SPARQL query (a cross-product count), again as soon as it is answered
//   node hostile-child.mjs advert <url> <token> <seconds> <bytes>
//     one client posts an advertisement of about <bytes>, again as soon as it is answered
import http from 'node:http';

const [role, url, ...rest] = process.argv.slice(2);
const HEAVY = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f }';

/** Sends one request and resolves with its status and latency (status 0: no answer). */
function send(agent, method, path, headers = {}, body) {
  const started = performance.now();
  return new Promise((resolve) => {
    const request = http.request(
      new URL(path, url),
      {
        method,
        agent,
        headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }),
        );
      },
    );
    request.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    request.end(body);
  });
}

const at = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { count: sorted.length, p50: at(sorted, 0.5), p95: at(sorted, 0.95) };
}
const count = (statuses, status) => (statuses[status] = (statuses[status] ?? 0) + 1);

async function mix(token, seconds, clients, ids) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number(clients) });
  const deadline = Date.now() + Number(seconds) * 1000;
  const latencies = { get: [], list: [], advertise: [] };
  const statuses = {};
  const json = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  let sequence = 0;
  const ops = [
    ['get', (n) => send(agent, 'GET', `/api/v1/software/${ids[n % ids.length]}`), 200],
    ['list', () => send(agent, 'GET', '/api/v1/software?limit=25'), 200],
    [
      'advertise',
      (n) =>
        send(
          agent,
          'POST',
          '/api/v1/advertise/produced',
          json,
          JSON.stringify({
            run: { external_key: `hostile/${process.pid}/${n}/${sequence++}` },
            artifacts: [{ title: 'bench output', conforms_to: 'http://edamontology.org/data_0006' }],
          }),
        ),
      201,
    ],
  ];
  let failures = 0;
  const loop = async (n) => {
    for (let turn = n; Date.now() < deadline; turn++) {
      const [name, run, expected] = ops[turn % ops.length];
      const { status, ms } = await run(n);
      count(statuses, status);
      if (status !== expected) failures++;
      latencies[name].push(ms);
    }
  };
  await Promise.all(Array.from({ length: Number(clients) }, (_, n) => loop(n)));
  agent.destroy();
  const all = [...latencies.get, ...latencies.list, ...latencies.advertise];
  return {
    failures,
    statuses,
    get: summary(latencies.get),
    list: summary(latencies.list),
    advertise: summary(latencies.advertise),
    all: summary(all),
  };
}

async function heavy(seconds) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const deadline = Date.now() + Number(seconds) * 1000;
  const statuses = {};
  const times = [];
  while (Date.now() < deadline) {
    const { status, ms } = await send(agent, 'GET', `/sparql?query=${encodeURIComponent(HEAVY)}`, {
      accept: 'application/sparql-results+json',
    });
    count(statuses, status);
    times.push(ms);
  }
  agent.destroy();
  return { statuses, ...summary(times) };
}

/** An advertisement of about `bytes`: as many artifacts with long descriptions and many keywords as fit. */
function bigAdvertisement(bytes) {
  const description = 'A large advertised artifact, described at length to fill the request body. '.repeat(
    50,
  );
  const artifact = (n) => ({
    title: `bulk output ${n}`,
    description,
    conforms_to: 'http://edamontology.org/data_0006',
    keywords: Array.from({ length: 20 }, (_, k) => `bulk-keyword-${k}`),
    distributions: [{ download_url: `https://data.bench.test/bulk/${n}` }],
  });
  const one = JSON.stringify(artifact(0)).length + 1;
  const artifacts = Array.from({ length: Math.floor((bytes - 200) / one) }, (_, n) => artifact(n));
  return (key) => JSON.stringify({ run: { external_key: key }, artifacts });
}

async function advert(token, seconds, bytes) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const deadline = Date.now() + Number(seconds) * 1000;
  const body = bigAdvertisement(Number(bytes));
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const statuses = {};
  const times = [];
  let size = 0;
  for (let n = 0; Date.now() < deadline; n++) {
    const text = body(`bulk/${process.pid}/${n}`);
    size = Buffer.byteLength(text);
    const { status, ms } = await send(agent, 'POST', '/api/v1/advertise/produced', headers, text);
    count(statuses, status);
    times.push(ms);
  }
  agent.destroy();
  return { bytes: size, statuses, ...summary(times) };
}

let result;
if (role === 'mix') result = await mix(rest[0], rest[1], rest[2], rest[3].split(','));
else if (role === 'heavy') result = await heavy(rest[0]);
else if (role === 'advert') result = await advert(rest[0], rest[1], rest[2]);
else throw new Error(`unknown role ${role}`);
process.stdout.write(`${JSON.stringify(result)}\n`);
