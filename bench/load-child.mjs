// A loopback HTTP load generator run as its own process, so it does not share the server's event loop:
// `node load-child.mjs <url> <seconds> <connections> [authorization]` prints {requests, failures, ms} as JSON.
import http from 'node:http';

const [url, seconds = '5', connections = '50', authorization] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(connections) });
const headers = authorization === undefined ? {} : { authorization };
const deadline = Date.now() + Number(seconds) * 1000;
let requests = 0;
let failures = 0;

function once() {
  return new Promise((resolve) => {
    const request = http.get(url, { agent, headers }, (response) => {
      if (response.statusCode !== 200) failures++;
      response.resume();
      response.on('end', resolve);
    });
    request.on('error', () => {
      failures++;
      resolve();
    });
  });
}

async function loop() {
  while (Date.now() < deadline) {
    await once();
    requests++;
  }
}

const started = Date.now();
await Promise.all(Array.from({ length: Number(connections) }, loop));
process.stdout.write(`${JSON.stringify({ requests, failures, ms: Date.now() - started })}\n`);
agent.destroy();
