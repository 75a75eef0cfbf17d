/**
 * Hostile OTLP clients for the reliability suite, all against 127.0.0.1 and bounded in count and time:
 * gRPC streams that send part of a message and stall (raw HTTP/2, as no gRPC client can), HTTP requests
 * that send part of a declared body and stall (raw TCP), oversized bodies from Node's http.request, and a
 * protobuf request of many single-span traces. Plus the `/healthz` prober (its own process) and a sender
 * of valid traffic that retries what it is told to retry, as OTLP clients do.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { connect as http2Connect, constants as http2Constants, type ClientHttp2Session, type IncomingHttpHeaders } from 'node:http2';
import { connect as netConnect } from 'node:net';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { ROOT } from './serve-process.js';

export const TRACE_EXPORT_PATH = '/opentelemetry.proto.collector.trace.v1.TraceService/Export';

/** What happened to the hostile requests of one attack. */
export interface AttackOutcome {
  /** Requests (streams or connections) opened. */
  opened: number;
  /** How each ended: a gRPC status (`grpc 8`), an HTTP status (`http 408`), or `closed` without an answer. */
  endings: Record<string, number>;
  /** Requests still open when the attack's wait ran out (a hang). */
  stillOpen: number;
  /** Milliseconds from the start of the attack to its last request ending. */
  lastEndMs: number;
}

function count(endings: Record<string, number>, key: string): void {
  endings[key] = (endings[key] ?? 0) + 1;
}

/**
 * F1: `sessions` HTTP/2 connections with `streamsPerSession` Export calls each, every call carrying the
 * bearer token, declaring a `declaredBytes` message and sending `sendBytes` of it, then never finishing.
 * Resolves when every stream has ended, or after `maxWaitMs` (the rest count as still open).
 */
export async function stalledGrpcStreams(o: { port: number; token?: string; sessions: number; streamsPerSession: number; declaredBytes: number; sendBytes: number; maxWaitMs: number }): Promise<AttackOutcome> {
  const start = Date.now();
  const payload = Buffer.alloc(o.sendBytes, 0x0a);
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(o.declaredBytes, 1);
  const endings: Record<string, number> = {};
  const sessions: ClientHttp2Session[] = [];
  let open = 0;
  let opened = 0;
  let lastEnd = start;
  let allEnded: (() => void) | undefined;
  const ended = (key: string): void => {
    count(endings, key);
    lastEnd = Date.now();
    if (--open === 0) allEnded?.();
  };
  for (let s = 0; s < o.sessions; s++) {
    // The client holds its unsent writes in session memory; past nghttp2's default 10 MB it refuses streams itself.
    const session = http2Connect(`http://127.0.0.1:${o.port}`, { maxSessionMemory: 4096 });
    session.on('error', () => undefined);
    sessions.push(session);
    for (let i = 0; i < o.streamsPerSession; i++) {
      const headers: Record<string, string> = { ':method': 'POST', ':path': TRACE_EXPORT_PATH, 'content-type': 'application/grpc', te: 'trailers' };
      if (o.token !== undefined) headers.authorization = `Bearer ${o.token}`;
      const stream = session.request(headers);
      open++;
      opened++;
      let status: string | undefined;
      const statusOf = (h: IncomingHttpHeaders): void => {
        const v = h['grpc-status'];
        if (v !== undefined) status = String(v);
      };
      stream.on('response', statusOf);
      stream.on('trailers', statusOf);
      stream.on('error', () => undefined);
      stream.on('close', () => ended(status !== undefined ? `grpc ${status}` : `closed (rst ${stream.rstCode})`));
      stream.resume();
      // The same buffer for every stream: the client holds one copy, the server what it reads.
      stream.write(prefix);
      stream.write(payload);
    }
  }
  await new Promise<void>((resolve) => {
    allEnded = resolve;
    setTimeout(resolve, o.maxWaitMs).unref();
  });
  const stillOpen = open;
  const seen = { ...endings };
  for (const session of sessions) session.destroy(undefined, http2Constants.NGHTTP2_CANCEL);
  return { opened, endings: seen, stillOpen, lastEndMs: lastEnd - start };
}

/**
 * F2: `connections` HTTP/1.1 connections, each a POST /v1/traces with the bearer token declaring a
 * `declaredBytes` body and sending `sendBytes` of it, then never finishing. Resolves when every
 * connection has been answered and closed, or after `maxWaitMs`.
 */
export async function stalledHttpBodies(o: { port: number; token: string; connections: number; declaredBytes: number; sendBytes: number; maxWaitMs: number }): Promise<AttackOutcome> {
  const start = Date.now();
  const payload = Buffer.alloc(o.sendBytes, 0x0a);
  const head = Buffer.from(
    `POST /v1/traces HTTP/1.1\r\nhost: 127.0.0.1:${o.port}\r\ncontent-type: application/x-protobuf\r\nauthorization: Bearer ${o.token}\r\ncontent-length: ${o.declaredBytes}\r\n\r\n`,
  );
  const endings: Record<string, number> = {};
  const sockets: ReturnType<typeof netConnect>[] = [];
  let open = 0;
  let lastEnd = start;
  let allEnded: (() => void) | undefined;
  for (let i = 0; i < o.connections; i++) {
    const socket = netConnect({ host: '127.0.0.1', port: o.port });
    sockets.push(socket);
    open++;
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      if (answer.length < 64) answer += d;
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const m = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      count(endings, m ? `http ${m[1]}` : 'closed');
      lastEnd = Date.now();
      if (--open === 0) allEnded?.();
    });
    socket.on('connect', () => {
      socket.write(head);
      socket.write(payload);
    });
  }
  await new Promise<void>((resolve) => {
    allEnded = resolve;
    setTimeout(resolve, o.maxWaitMs).unref();
  });
  const stillOpen = open;
  const seen = { ...endings };
  for (const s of sockets) s.destroy();
  return { opened: o.connections, endings: seen, stillOpen, lastEndMs: lastEnd - start };
}

/** F3: `tries` POSTs of a `bytes` body (over the limit) with Node's http.request, one after another; what each saw. */
export async function oversizePosts(o: { port: number; token: string; bytes: number; tries: number }): Promise<Record<string, number>> {
  const body = Buffer.alloc(o.bytes, 0x0a);
  const seen: Record<string, number> = {};
  for (let i = 0; i < o.tries; i++) {
    const outcome = await new Promise<string>((resolve) => {
      const req = request(
        { host: '127.0.0.1', port: o.port, path: '/v1/traces', method: 'POST', agent: false, headers: { 'content-type': 'application/x-protobuf', authorization: `Bearer ${o.token}`, 'content-length': body.length } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(`http ${res.statusCode ?? 0}`));
          res.on('error', (err: NodeJS.ErrnoException) => resolve(`response ${err.code ?? err.message}`));
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) => resolve(`error ${err.code ?? err.message}`));
      req.end(body);
    });
    count(seen, outcome);
  }
  return seen;
}

/** F4: a protobuf ExportTraceServiceRequest of `traces` traces of one span each (trace ids from `seed`), written directly (no message objects). */
export function singleSpanTraces(traces: number, seed: number): Buffer {
  const SPAN = 2 + 16 + 2 + 8;
  const FIELD = 2 + SPAN;
  const scopeHead = Buffer.from([0x0a, 0x03, 0x0a, 0x01, 0x74]); // scope { name: "t" }
  const spansBytes = Buffer.alloc(traces * FIELD);
  for (let i = 0; i < traces; i++) {
    const at = i * FIELD;
    spansBytes[at] = 0x12; // ScopeSpans.spans
    spansBytes[at + 1] = SPAN;
    spansBytes[at + 2] = 0x0a; // Span.trace_id
    spansBytes[at + 3] = 16;
    spansBytes.writeUInt32BE(seed >>> 0, at + 4);
    spansBytes.writeUInt32BE(i + 1, at + 16);
    spansBytes[at + 20] = 0x12; // Span.span_id
    spansBytes[at + 21] = 8;
    spansBytes.writeUInt32BE(i + 1, at + 26);
  }
  const varint = (n: number): Buffer => {
    const out: number[] = [];
    let v = n;
    while (v > 0x7f) {
      out.push((v & 0x7f) | 0x80);
      v = Math.floor(v / 128);
    }
    out.push(v);
    return Buffer.from(out);
  };
  const scopeLen = scopeHead.length + spansBytes.length;
  const scope = Buffer.concat([Buffer.from([0x12]), varint(scopeLen), scopeHead, spansBytes]); // ResourceSpans.scope_spans
  return Buffer.concat([Buffer.from([0x0a]), varint(scope.length), scope]); // ExportTraceServiceRequest.resource_spans
}

/** One `/healthz` answer seen by the prober. */
export interface Probe {
  at: number;
  url: string;
  ms: number;
  status: number;
}

/** The prober process (helpers/healthz-probe.ts): every answer, as they come. */
export class HealthzProber {
  readonly probes: Probe[] = [];
  private readonly child: ChildProcess;

  constructor(urls: readonly string[], intervalMs = 100) {
    const script = fileURLToPath(new URL('./healthz-probe.ts', import.meta.url));
    this.child = spawn(process.execPath, ['--import', 'tsx', script, String(intervalMs), ...urls], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
    let rest = '';
    this.child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      rest += d;
      const lines = rest.split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (line.startsWith('{')) this.probes.push(JSON.parse(line) as Probe);
    });
  }

  /** Resolves once the prober has answered at least once for every URL. */
  async ready(urls: number, timeoutMs = 20_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (new Set(this.probes.filter((p) => p.status === 200).map((p) => p.url)).size < urls) {
      if (Date.now() > until) throw new Error('the /healthz prober got no answer');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Probes sent in [from, to): the slowest answer (a probe without an answer counts as its full timeout). */
  worst(from: number, to: number): { probes: number; maxMs: number; failed: number } {
    const window = this.probes.filter((p) => p.at >= from && p.at < to);
    return { probes: window.length, maxMs: Math.max(0, ...window.map((p) => (p.status === 200 ? p.ms : 10_000))), failed: window.filter((p) => p.status !== 200).length };
  }

  stop(): void {
    this.child.stdin?.end();
    setTimeout(() => this.child.kill('SIGKILL'), 1000).unref();
  }
}

/**
 * Valid traffic during the attacks: one request of `next()` every `everyMs` until `stop()`, each retried
 * (after Retry-After, at most every 250 ms) on 429, 503, 408 and connection failures until it gets its 200
 * or `giveUpMs` passes. Returns what was acknowledged.
 */
export class ValidSender {
  readonly acked: string[] = [];
  readonly statuses: Record<string, number> = {};
  readonly gaveUp: string[] = [];
  private stopped = false;
  private readonly loop: Promise<void>;

  constructor(
    private readonly url: string,
    private readonly token: string,
    next: () => { traceIds: string[]; body: Buffer },
    everyMs: number,
    private readonly giveUpMs = 60_000,
  ) {
    const inFlight: Promise<void>[] = [];
    this.loop = (async () => {
      while (!this.stopped) {
        inFlight.push(this.send(next()));
        await new Promise((r) => setTimeout(r, everyMs));
      }
      await Promise.all(inFlight);
    })();
  }

  private async send(batch: { traceIds: string[]; body: Buffer }): Promise<void> {
    const until = Date.now() + this.giveUpMs;
    for (;;) {
      const { status, retryAfterS } = await this.post(batch.body);
      count(this.statuses, String(status));
      if (status === 200) {
        this.acked.push(...batch.traceIds);
        return;
      }
      const retryable = status === 429 || status === 503 || status === 408 || status === 0;
      if (!retryable || Date.now() > until) {
        this.gaveUp.push(`${status}`);
        return;
      }
      await new Promise((r) => setTimeout(r, Math.max(250, (retryAfterS ?? 0) * 1000)));
    }
  }

  private post(body: Buffer): Promise<{ status: number; retryAfterS?: number }> {
    return new Promise((resolve) => {
      const target = new URL(this.url);
      const req = request(
        { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent: false, timeout: 15_000, headers: { 'content-type': 'application/x-protobuf', authorization: `Bearer ${this.token}`, 'content-length': body.length } },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, ...(res.headers['retry-after'] ? { retryAfterS: Number(res.headers['retry-after']) } : {}) }));
          res.on('error', () => resolve({ status: 0 }));
        },
      );
      req.on('timeout', () => req.destroy());
      req.on('error', () => resolve({ status: 0 }));
      req.end(body);
    });
  }

  /** Stop sending; resolves when every request has its final answer. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
  }
}

/**
 * Run one attack in helpers/hostile-child.ts, at the lowest CPU priority (see there why), and resolve with
 * its outcome; the child is killed after `timeoutMs`.
 */
export function runAttack<T>(command: Record<string, unknown> & { attack: string }, timeoutMs: number): Promise<T> {
  const script = fileURLToPath(new URL('./hostile-child.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(command)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid !== undefined) {
    try {
      setPriority(child.pid, 19);
    } catch {
      // not permitted: the attack runs at normal priority
    }
  }
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise<T>((resolve, reject) => {
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const line = out.split('\n').find((l) => l.startsWith('{') || l.startsWith('['));
      if (code === 0 && line) resolve(JSON.parse(line) as T);
      else reject(new Error(`attack ${command.attack} ended with ${code ?? signal ?? '?'}: ${err.slice(-2000)}`));
    });
  });
}
