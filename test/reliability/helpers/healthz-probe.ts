/**
 * A `/healthz` prober in a process of its own (so the attack clients in the test process cannot delay it):
 * `node --import tsx healthz-probe.ts INTERVAL_MS URL...` GETs every URL every INTERVAL_MS, each with a 10 s
 * timeout, and prints one JSON line per answer: `{ at, url, ms, status }` (`status` 0: no answer).
 * It stops by itself after 120 s, or when its stdin closes.
 */
import { request } from 'node:http';

const [intervalArg, ...urls] = process.argv.slice(2);
const intervalMs = Number(intervalArg ?? 100);

function probe(url: string): void {
  const started = Date.now();
  const t0 = performance.now();
  let done = false;
  const report = (status: number): void => {
    if (done) return;
    done = true;
    process.stdout.write(`${JSON.stringify({ at: started, url, ms: Math.round((performance.now() - t0) * 10) / 10, status })}\n`);
  };
  const req = request(url, { method: 'GET', timeout: 10_000, agent: false }, (res) => {
    res.resume();
    res.on('end', () => report(res.statusCode ?? 0));
    res.on('error', () => report(0));
  });
  req.on('timeout', () => {
    req.destroy();
    report(0);
  });
  req.on('error', () => report(0));
  req.end();
}

const timer = setInterval(() => {
  for (const url of urls) probe(url);
}, intervalMs);
const stop = (): void => {
  clearInterval(timer);
  setTimeout(() => process.exit(0), 200).unref();
};
setTimeout(stop, 120_000).unref();
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.resume();
