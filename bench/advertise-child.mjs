// Advertising load from its own process: `node advertise-child.mjs <url> <token> <seconds> <clients>` posts
// advertise/produced with one artifact and a unique run key per call, and prints counts and latencies as JSON.
import http from 'node:http';

const [url, token, seconds = '5', clients = '50'] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(clients) });
const target = new URL('/api/v1/advertise/produced', url);
const deadline = Date.now() + Number(seconds) * 1000;
const latencies = [];
let failures = 0;
let sequence = 0;

function once(n) {
  const body = JSON.stringify({
    run: { external_key: `bench/${process.pid}/${n}/${sequence++}` },
    artifacts: [
      {
        title: 'bench output',
        conforms_to: 'http://edamontology.org/data_0006',
        distributions: [{ download_url: 'https://data.bench.test/x' }],
      },
    ],
  });
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
        if (response.statusCode !== 201) failures++;
        response.resume();
        response.on('end', () => {
          latencies.push(performance.now() - started);
          resolve();
        });
      },
    );
    request.on('error', () => {
      failures++;
      resolve();
    });
    request.end(body);
  });
}

async function loop(n) {
  while (Date.now() < deadline) await once(n);
}

const started = Date.now();
await Promise.all(Array.from({ length: Number(clients) }, (_, n) => loop(n)));
latencies.sort((a, b) => a - b);
const at = (p) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? NaN;
process.stdout.write(
  `${JSON.stringify({ requests: latencies.length, failures, ms: Date.now() - started, p50: at(0.5), p95: at(0.95) })}\n`,
);
agent.destroy();
