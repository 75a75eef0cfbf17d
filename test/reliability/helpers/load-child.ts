/**
 * One load-generator process of the overload scenario (started by load-generator.ts with
 * `node --import tsx`). It prebuilds its request bodies, waits for "go", then sends protobuf OTLP requests
 * open loop (on a clock, not when the previous one answered) over a keep-alive agent for `durationMs`,
 * and reports which requests were accepted, how many were refused and anything unexpected.
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { LoadBodies } from './load-ids.js';
import { Rng } from './rng.js';

/** What the parent sends to start a generator. */
export interface LoadChildConfig {
  url: string;
  gen: number;
  nonceHex: string;
  tracesPerSec: number;
  tracesPerRequest: number;
  durationMs: number;
  maxInFlight: number;
}

/** What a generator reports when its load is over and every request has answered. */
export interface LoadChildResult {
  gen: number;
  sentRequests: number;
  /** Requests not sent because `maxInFlight` were already waiting for an answer. */
  skippedRequests: number;
  acceptedSeqs: number[];
  refusedRequests: number;
  statuses: Record<string, number>;
  problems: string[];
  loadMs: number;
  lastAnswerMs: number;
}

type FromParent = { type: 'start'; config: LoadChildConfig } | { type: 'go' };

function send(message: unknown): void {
  if (process.send) process.send(message);
}

async function run(config: LoadChildConfig, bodies: LoadBodies): Promise<LoadChildResult> {
  const target = new URL(config.url);
  const agent = new Agent({ keepAlive: true, maxSockets: config.maxInFlight, maxFreeSockets: config.maxInFlight });
  const result: LoadChildResult = {
    gen: config.gen, sentRequests: 0, skippedRequests: 0, acceptedSeqs: [], refusedRequests: 0, statuses: {}, problems: [], loadMs: 0, lastAnswerMs: 0,
  };
  const problem = (text: string): void => {
    if (result.problems.length < 20) result.problems.push(text);
  };
  let inFlight = 0;
  let drained: (() => void) | undefined;
  const done = (): void => {
    inFlight--;
    if (inFlight === 0 && drained) drained();
  };
  const fire = (seq: number): void => {
    const body = bodies.next(seq);
    inFlight++;
    result.sentRequests++;
    const req = request(
      { agent, hostname: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { 'content-type': 'application/x-protobuf', 'content-length': body.length } },
      (res) => {
        const status = res.statusCode ?? 0;
        result.statuses[status] = (result.statuses[status] ?? 0) + 1;
        if (status === 200) result.acceptedSeqs.push(seq);
        else if (status === 429 || status === 503) {
          result.refusedRequests++;
          if (!res.headers['retry-after']) problem(`${status} without Retry-After`);
        } else problem(`status ${status}`);
        res.resume();
        res.on('end', done);
        res.on('error', (err) => {
          problem(`response failed: ${String(err)}`);
          done();
        });
      },
    );
    req.on('error', (err) => {
      // Which socket failed tells a keep-alive race (a reused socket the server had just closed) from a refused connection.
      const socket: (typeof req.socket & { tjLastUsed?: number }) | null = req.socket;
      const idle = socket?.tjLastUsed !== undefined ? `, idle ${Math.round(performance.now() - socket.tjLastUsed)} ms` : '';
      problem(`request ${seq} failed: ${String(err)} (${req.reusedSocket ? 'reused' : 'new'} socket${idle}, at ${Math.round(performance.now() - start)} ms)`);
      done();
    });
    req.on('socket', (socket: typeof req.socket & { tjLastUsed?: number }) => {
      socket.once('free', () => (socket.tjLastUsed = performance.now()));
    });
    req.end(body);
  };

  const perMs = config.tracesPerSec / config.tracesPerRequest / 1000;
  const start = performance.now();
  let last = start;
  let credit = 0;
  let seq = 0;
  while (performance.now() - start < config.durationMs) {
    const now = performance.now();
    credit += (now - last) * perMs;
    last = now;
    for (; credit >= 1; credit--) {
      if (inFlight >= config.maxInFlight) result.skippedRequests++;
      else fire(seq++);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  result.loadMs = Math.round(performance.now() - start);
  if (inFlight > 0) await new Promise<void>((r) => (drained = r));
  result.lastAnswerMs = Math.round(performance.now() - start);
  agent.destroy();
  return result;
}

let config: LoadChildConfig | undefined;
let bodies: LoadBodies | undefined;
process.on('message', (m: FromParent) => {
  if (m.type === 'start') {
    config = m.config;
    bodies = new LoadBodies(new Rng(0x10ad + m.config.gen), m.config.nonceHex, m.config.gen, m.config.tracesPerRequest);
    send({ type: 'ready' });
  } else if (config && bodies) {
    run(config, bodies).then(
      (result) => {
        send({ type: 'result', result });
        process.disconnect();
      },
      (err: unknown) => {
        send({ type: 'failed', error: String(err) });
        process.disconnect();
      },
    );
  }
});
