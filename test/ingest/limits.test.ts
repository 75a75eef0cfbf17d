/**
 * The receivers' memory limits against hostile clients, one by one (issue #16): the in-flight budget
 * shared by both receivers, the bearer token checked before a body is read, the HTTP body timeout and the
 * gRPC message timeout, a 413 that Node clients actually receive, and the HTTP/2 stream limit. Memory and
 * latency are measured in test/reliability/hostile-clients.test.ts; these check behaviour.
 */
import { spawn } from 'node:child_process';
import { connect as http2Connect, type ClientHttp2Session, type IncomingHttpHeaders } from 'node:http2';
import { connect as netConnect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { componentSettings } from '../../src/component.js';
import { createOtlpGrpcReceiver } from '../../src/ingest/grpc/receiver.js';
import { createOtlpHttpReceiver } from '../../src/ingest/http/receiver.js';
import { bearerMatches, InFlightBudget, type OtlpReceiver } from '../../src/ingest/otlp/receiver.js';
import { otlp } from '../../src/otlp/descriptor.js';
import { RecordingSpanSink } from '../../src/testing/recording-sink.js';
import { encodeTraceRequest } from './helpers.js';
import { deadlineIn, testIngest, TOKEN } from './receivers.js';

const KIB = 1024;
const MIB = 1024 * KIB;
const EXPORT = '/opentelemetry.proto.collector.trace.v1.TraceService/Export';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const oneSpan = (n: number): Buffer =>
  Buffer.from(encodeTraceRequest([{ traceId: Buffer.alloc(16, n), spanId: Buffer.alloc(8, n), name: `s${n}`, startTimeUnixNano: 1, endTimeUnixNano: 2 }]));

interface Rig {
  sink: RecordingSpanSink;
  budget: InFlightBudget;
  http: OtlpReceiver;
  grpc: OtlpReceiver;
  url: string;
  stop(): Promise<void>;
}

async function rig(o: { budgetBytes?: number; maxBodyBytes?: number; bodyTimeoutMs?: number; messageTimeoutMs?: number; maxConcurrentStreams?: number; token?: string } = {}): Promise<Rig> {
  const settings = componentSettings();
  const sink = new RecordingSpanSink();
  const ingest = testIngest(sink, settings);
  const budget = new InFlightBudget(o.budgetBytes ?? 8 * MIB);
  const maxBodyBytes = o.maxBodyBytes ?? 4 * MIB;
  const bearerToken = o.token ?? TOKEN;
  const http = createOtlpHttpReceiver({ host: '127.0.0.1', port: 0, maxBodyBytes, bearerToken, ingest, settings, isReady: () => true, budget, bodyTimeoutMs: o.bodyTimeoutMs ?? 10_000 });
  const grpcReceiver = createOtlpGrpcReceiver({
    host: '127.0.0.1',
    port: 0,
    maxMessageBytes: maxBodyBytes,
    bearerToken,
    ingest,
    settings,
    budget,
    messageTimeoutMs: o.messageTimeoutMs ?? 10_000,
    maxConcurrentStreams: o.maxConcurrentStreams ?? 100,
  });
  await http.start();
  await grpcReceiver.start();
  return {
    sink,
    budget,
    http,
    grpc: grpcReceiver,
    url: `http://127.0.0.1:${http.port}/v1/traces`,
    async stop() {
      await Promise.all([http.shutdown(deadlineIn(2000)), grpcReceiver.shutdown(deadlineIn(2000))]);
    },
  };
}

/** A raw HTTP/1.1 request whose body is sent only in part (`send` of `declared` bytes); resolves with the first answer line, or 'closed'. */
function partialHttp(port: number, o: { declared: number; send: number; token?: string; contentType?: string }): { socket: Socket; answer: Promise<{ status: string; afterMs: number }> } {
  const t0 = Date.now();
  const socket = netConnect({ host: '127.0.0.1', port });
  let text = '';
  const answer = new Promise<{ status: string; afterMs: number }>((resolve) => {
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      text += d;
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (m) resolve({ status: m[1] as string, afterMs: Date.now() - t0 });
    });
    socket.on('close', () => resolve({ status: 'closed', afterMs: Date.now() - t0 }));
    socket.on('error', () => undefined);
  });
  socket.on('connect', () => {
    const auth = o.token === undefined ? '' : `authorization: Bearer ${o.token}\r\n`;
    socket.write(`POST /v1/traces HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: ${o.contentType ?? 'application/x-protobuf'}\r\n${auth}content-length: ${o.declared}\r\n\r\n`);
    socket.write(Buffer.alloc(o.send, 0x0a));
  });
  return { socket, answer };
}

/** A raw gRPC Export stream that sends `send` bytes of a `declared`-byte message and stalls; resolves with its grpc-status (or how it closed). */
function partialGrpc(session: ClientHttp2Session, o: { declared: number; send: number; token?: string }): Promise<{ status: string; afterMs: number }> {
  const t0 = Date.now();
  const headers: Record<string, string> = { ':method': 'POST', ':path': EXPORT, 'content-type': 'application/grpc', te: 'trailers' };
  if (o.token !== undefined) headers.authorization = `Bearer ${o.token}`;
  const stream = session.request(headers);
  let status: string | undefined;
  const statusOf = (h: IncomingHttpHeaders): void => {
    const v = h['grpc-status'];
    if (v !== undefined) status = String(v);
  };
  stream.on('response', statusOf);
  stream.on('trailers', statusOf);
  stream.on('error', () => undefined);
  stream.resume();
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(o.declared, 1);
  stream.write(prefix);
  if (o.send > 0) stream.write(Buffer.alloc(o.send, 0x0a));
  return new Promise((resolve) => stream.on('close', () => resolve({ status: status ?? `rst ${stream.rstCode}`, afterMs: Date.now() - t0 })));
}

const FRAME_HEADERS = 0x1;
const FRAME_RST_STREAM = 0x3;
const FRAME_SETTINGS = 0x4;
const FRAME_GOAWAY = 0x7;

/**
 * A minimal HTTP/2 client on a plain socket (prior knowledge): it sends the preface and an empty SETTINGS
 * frame, never acknowledges the server's SETTINGS, and opens streams with HEADERS frames (HPACK literals
 * without indexing), without any regard for the server's limits. `frames` lists what the server sent.
 */
function rawHttp2(port: number): { socket: Socket; frames: { type: number; stream: number; payload: Buffer }[]; headers(stream: number, h: Record<string, string>): void; resets(): Map<number, number> } {
  const frame = (type: number, flags: number, stream: number, payload: Buffer): Buffer => {
    const head = Buffer.alloc(9);
    head.writeUIntBE(payload.length, 0, 3);
    head[3] = type;
    head[4] = flags;
    head.writeUInt32BE(stream, 5);
    return Buffer.concat([head, payload]);
  };
  const literal = (name: string, value: string): Buffer => Buffer.concat([Buffer.from([0x00, name.length]), Buffer.from(name), Buffer.from([value.length]), Buffer.from(value)]);
  const socket = netConnect({ host: '127.0.0.1', port });
  socket.on('error', () => undefined);
  const frames: { type: number; stream: number; payload: Buffer }[] = [];
  let buf = Buffer.alloc(0);
  socket.on('data', (d: Buffer) => {
    buf = Buffer.concat([buf, d]);
    while (buf.length >= 9) {
      const len = buf.readUIntBE(0, 3);
      if (buf.length < 9 + len) break;
      frames.push({ type: buf[3] as number, stream: buf.readUInt32BE(5) & 0x7fffffff, payload: Buffer.from(buf.subarray(9, 9 + len)) });
      buf = buf.subarray(9 + len);
    }
  });
  socket.write(Buffer.concat([Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'), frame(FRAME_SETTINGS, 0, 0, Buffer.alloc(0))]));
  return {
    socket,
    frames,
    headers(stream, h) {
      // END_HEADERS, not END_STREAM: the request message is still to come.
      socket.write(frame(FRAME_HEADERS, 0x4, stream, Buffer.concat(Object.entries(h).map(([k, v]) => literal(k, v)))));
    },
    resets: () => new Map(frames.filter((f) => f.type === FRAME_RST_STREAM).map((f) => [f.stream, f.payload.readUInt32BE(0)])),
  };
}

async function until(check: () => boolean, timeoutMs = 5000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
  return true;
}

describe('bearer tokens', () => {
  it('compare the scheme case-insensitively (RFC 7235) and the token exactly', () => {
    expect(bearerMatches('Bearer abc', 'abc')).toBe(true);
    expect(bearerMatches('bearer abc', 'abc')).toBe(true);
    expect(bearerMatches('BEARER abc', 'abc')).toBe(true);
    expect(bearerMatches('Bearer  abc', 'abc')).toBe(true);
    expect(bearerMatches('Bearer ABC', 'abc')).toBe(false);
    expect(bearerMatches('Bearer abcd', 'abc')).toBe(false);
    expect(bearerMatches('Bearer ab', 'abc')).toBe(false);
    expect(bearerMatches('Basic abc', 'abc')).toBe(false);
    expect(bearerMatches('Bearerabc', 'abc')).toBe(false);
    expect(bearerMatches('abc', 'abc')).toBe(false);
    expect(bearerMatches(undefined, 'abc')).toBe(false);
  });
});

describe('InFlightBudget', () => {
  it('grows reservations while they fit, refuses beyond the limit, and gets everything back on release', () => {
    const budget = new InFlightBudget(100);
    const a = budget.open();
    const b = budget.open();
    expect(a.grow(60)).toBe(true);
    expect(b.grow(50)).toBe(false);
    expect(b.grow(40)).toBe(true);
    expect(budget.usedBytes).toBe(100);
    expect(budget.refusals).toBe(1);
    expect(a.resize(10)).toBe(true);
    expect(budget.usedBytes).toBe(50);
    a.release();
    a.release();
    expect(a.grow(1)).toBe(false);
    expect(budget.usedBytes).toBe(40);
    b.release();
    expect(budget.usedBytes).toBe(0);
    expect(budget.peakBytes).toBe(100);
  });
});

describe('one in-flight budget for both receivers', () => {
  let r: Rig;
  let session: ClientHttp2Session | undefined;
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const s of sockets.splice(0)) s.destroy();
    session?.destroy();
    session = undefined;
    await r.stop();
  });

  const grpcExport = (port: number, body: Buffer): Promise<number> => {
    const c = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    const md = new grpc.Metadata();
    md.set('authorization', `Bearer ${TOKEN}`);
    return new Promise((resolve) =>
      c.makeUnaryRequest<Buffer, Buffer>(EXPORT, (b) => b, (b) => b, body, md, { deadline: Date.now() + 10_000 }, (err) => {
        c.close();
        resolve(err?.code ?? 0);
      }),
    );
  };

  it('a stalled HTTP body makes gRPC calls get RESOURCE_EXHAUSTED, and a stalled gRPC message makes HTTP requests get 429', async () => {
    r = await rig({ budgetBytes: 1 * MIB, maxBodyBytes: 1 * MIB });
    const body = Buffer.concat([oneSpan(8), Buffer.alloc(200 * KIB)]);
    const httpPost = (): Promise<number> =>
      fetch(r.url, { method: 'POST', headers: { 'content-type': 'application/x-protobuf', authorization: `Bearer ${TOKEN}` }, body }).then((res) => res.status);

    // HTTP holds 900 KiB of the 1 MiB: gRPC has no room.
    const httpHolder = partialHttp(r.http.port, { declared: 1 * MIB, send: 900 * KIB, token: TOKEN });
    sockets.push(httpHolder.socket);
    expect(await until(() => r.budget.usedBytes >= 900 * KIB)).toBe(true);
    expect(await grpcExport(r.grpc.port, body)).toBe(grpc.status.RESOURCE_EXHAUSTED);
    httpHolder.socket.destroy();
    expect(await until(() => r.budget.usedBytes === 0)).toBe(true);

    // gRPC holds 900 KiB: HTTP has no room.
    session = http2Connect(`http://127.0.0.1:${r.grpc.port}`);
    session.on('error', () => undefined);
    const grpcHolder = partialGrpc(session, { declared: 1000 * KIB, send: 900 * KIB, token: TOKEN });
    expect(await until(() => r.budget.usedBytes >= 900 * KIB)).toBe(true);
    expect(await httpPost()).toBe(429);
    session.destroy();
    await grpcHolder;
    expect(await until(() => r.budget.usedBytes === 0)).toBe(true);

    // Free again: both take the same request.
    expect(await httpPost()).toBe(200);
    expect(await grpcExport(r.grpc.port, body)).toBe(grpc.status.OK);
    expect(r.sink.spans).toHaveLength(2);
  });
});

describe('OTLP/HTTP limits', () => {
  let r: Rig;
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const s of sockets.splice(0)) s.destroy();
    await r.stop();
  });

  it('checks the token (401) before the content type (415) and before reading a byte of the body', async () => {
    r = await rig();
    const wrongType = await fetch(r.url, { method: 'POST', headers: { 'content-type': 'text/plain', authorization: 'Bearer wrong' }, body: 'hello' });
    expect(wrongType.status).toBe(401);
    expect(wrongType.headers.get('www-authenticate')).toBe('Bearer');
    const noToken = await fetch(r.url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });
    expect(noToken.status).toBe(401);
    // With the right token, the content type is what is wrong.
    expect((await fetch(r.url, { method: 'POST', headers: { 'content-type': 'text/plain', authorization: `Bearer ${TOKEN}` }, body: 'hello' })).status).toBe(415);
    // A 3 MiB body with a bad token: refused, and none of it reserved (read only to be dropped).
    const big = await fetch(r.url, { method: 'POST', headers: { 'content-type': 'application/x-protobuf', authorization: 'Bearer wrong' }, body: Buffer.alloc(3 * MIB) });
    expect(big.status).toBe(401);
    expect(r.budget.peakBytes).toBe(0);
    expect(r.sink.offers).toBe(0);
  });

  it('accepts the bearer scheme in any case', async () => {
    r = await rig();
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      const res = await fetch(r.url, { method: 'POST', headers: { 'content-type': 'application/x-protobuf', authorization: `${scheme} ${TOKEN}` }, body: oneSpan(1) });
      expect(res.status, scheme).toBe(200);
    }
  });

  it('refuses with 429 and Retry-After when the shared budget is spent, and takes requests again once it is free', async () => {
    r = await rig({ budgetBytes: 1 * MIB, maxBodyBytes: 1 * MIB });
    // A stalled request holds 900 KiB of the 1 MiB budget.
    const holder = partialHttp(r.http.port, { declared: 1 * MIB, send: 900 * KIB, token: TOKEN });
    sockets.push(holder.socket);
    expect(await until(() => r.budget.usedBytes >= 900 * KIB)).toBe(true);
    const refused = await fetch(r.url, { method: 'POST', headers: { 'content-type': 'application/x-protobuf', authorization: `Bearer ${TOKEN}` }, body: Buffer.concat([oneSpan(2), Buffer.alloc(200 * KIB)]) });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    const status = otlp().types.Status.toObject(otlp().types.Status.decode(Buffer.from(await refused.arrayBuffer()))) as { message?: string };
    expect(status.message).toMatch(/maxInFlightBytes/);
    holder.socket.destroy();
    expect(await until(() => r.budget.usedBytes === 0)).toBe(true);
    const ok = await fetch(r.url, { method: 'POST', headers: { 'content-type': 'application/x-protobuf', authorization: `Bearer ${TOKEN}` }, body: oneSpan(3) });
    expect(ok.status).toBe(200);
    expect(r.sink.spans).toHaveLength(1);
  });

  it('answers 408 and closes when the body does not arrive within bodyTimeoutMs, giving its bytes back', async () => {
    r = await rig({ bodyTimeoutMs: 300 });
    const stalled = partialHttp(r.http.port, { declared: 1 * MIB, send: 64 * KIB, token: TOKEN });
    sockets.push(stalled.socket);
    expect(await until(() => r.budget.usedBytes > 0)).toBe(true);
    const answer = await stalled.answer;
    expect(answer.status).toBe('408');
    expect(answer.afterMs).toBeLessThan(5000);
    expect(await until(() => stalled.socket.destroyed || stalled.socket.readyState === 'closed')).toBe(true);
    expect(r.budget.usedBytes).toBe(0);
    // A refused request that never finishes its body is answered at the timeout too, not left hanging.
    const unauthenticated = partialHttp(r.http.port, { declared: 1 * MIB, send: 10, token: 'wrong' });
    sockets.push(unauthenticated.socket);
    expect((await unauthenticated.answer).status).toBe('401');
  });

  it('delivers the 413 to Node http.request and to the OTLP/HTTP exporter while they are still uploading: 30 of 30 each', async () => {
    // 4 MiB bodies against a 1 MiB limit: before the fix (413 and an immediate close) about 8 in 30 saw EPIPE.
    r = await rig({ maxBodyBytes: 1 * MIB, budgetBytes: 8 * MIB });
    const client = fileURLToPath(new URL('./fixtures/oversize-client.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', client, r.url, TOKEN, String(4 * MIB), '30'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    const seen = JSON.parse(out.trim().split('\n').pop() ?? '{}') as Record<string, Record<string, number>>;
    expect(seen).toEqual({ 'http.request': { '413': 30 }, exporter: { '413': 30 } });
    expect(r.sink.offers).toBe(0);
  }, 120_000);

  it('answers a body far past the limit at once and closes, rather than reading it all', async () => {
    r = await rig({ maxBodyBytes: 64 * KIB });
    const huge = partialHttp(r.http.port, { declared: 1024 * MIB, send: 16 * KIB, token: TOKEN });
    sockets.push(huge.socket);
    const answer = await huge.answer;
    expect(answer.status).toBe('413');
    expect(answer.afterMs).toBeLessThan(5000);
  });
});

describe('OTLP/gRPC limits', () => {
  let r: Rig;
  let session: ClientHttp2Session | undefined;
  let client: grpc.Client | undefined;
  afterEach(async () => {
    session?.destroy();
    session = undefined;
    client?.close();
    client = undefined;
    await r.stop();
  });

  const exportCall = (port: number, body: Buffer, token: string | undefined): Promise<{ code: number; retryInfo: boolean }> => {
    client ??= new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    const md = new grpc.Metadata();
    if (token !== undefined) md.set('authorization', `Bearer ${token}`);
    return new Promise((resolve) => {
      (client as grpc.Client).makeUnaryRequest<Buffer, Buffer>(EXPORT, (b) => b, (b) => b, body, md, { deadline: Date.now() + 10_000 }, (err) => {
        const details = err?.metadata?.get('grpc-status-details-bin')[0];
        resolve({ code: err?.code ?? 0, retryInfo: Buffer.isBuffer(details) && details.includes(Buffer.from('type.googleapis.com/google.rpc.RetryInfo')) });
      });
    });
  };

  it('rejects a call with a bad token from its headers, before reading its message', async () => {
    r = await rig();
    session = http2Connect(`http://127.0.0.1:${r.grpc.port}`);
    session.on('error', () => undefined);
    // The stream stalls mid-message: only a check on the headers can answer it.
    const noToken = await partialGrpc(session, { declared: 1 * MIB, send: 512 * KIB });
    const wrong = await partialGrpc(session, { declared: 1 * MIB, send: 512 * KIB, token: 'wrong' });
    expect(noToken.status).toBe(String(grpc.status.UNAUTHENTICATED));
    expect(wrong.status).toBe(String(grpc.status.UNAUTHENTICATED));
    expect(noToken.afterMs).toBeLessThan(5000);
    expect(r.budget.peakBytes).toBe(0);
    // Any case of the scheme.
    expect((await exportCall(r.grpc.port, oneSpan(4), undefined)).code).toBe(grpc.status.UNAUTHENTICATED);
    const md = new grpc.Metadata();
    md.set('authorization', `bearer ${TOKEN}`);
    const ok = await new Promise<number>((resolve) =>
      (client as grpc.Client).makeUnaryRequest<Buffer, Buffer>(EXPORT, (b) => b, (b) => b, oneSpan(5), md, (err) => resolve(err?.code ?? 0)),
    );
    expect(ok).toBe(grpc.status.OK);
  });

  it('refuses with RESOURCE_EXHAUSTED and RetryInfo when the shared budget is spent, and takes calls again once it is free', async () => {
    r = await rig({ budgetBytes: 1 * MIB, maxBodyBytes: 1 * MIB });
    session = http2Connect(`http://127.0.0.1:${r.grpc.port}`);
    session.on('error', () => undefined);
    const holder = partialGrpc(session, { declared: 1000 * KIB, send: 900 * KIB, token: TOKEN });
    expect(await until(() => r.budget.usedBytes >= 900 * KIB)).toBe(true);
    const refused = await exportCall(r.grpc.port, Buffer.alloc(300 * KIB), TOKEN);
    expect(refused).toEqual({ code: grpc.status.RESOURCE_EXHAUSTED, retryInfo: true });
    session.destroy();
    await holder;
    expect(await until(() => r.budget.usedBytes === 0)).toBe(true);
    expect((await exportCall(r.grpc.port, oneSpan(7), TOKEN)).code).toBe(grpc.status.OK);
    expect(r.sink.spans).toHaveLength(1);
  });

  it('cancels a call whose message does not arrive within messageTimeoutMs (DEADLINE_EXCEEDED), giving its bytes back', async () => {
    r = await rig({ messageTimeoutMs: 300 });
    session = http2Connect(`http://127.0.0.1:${r.grpc.port}`);
    session.on('error', () => undefined);
    const stalled = await partialGrpc(session, { declared: 1 * MIB, send: 256 * KIB, token: TOKEN });
    expect(stalled.status).toBe(String(grpc.status.DEADLINE_EXCEEDED));
    expect(stalled.afterMs).toBeLessThan(5000);
    expect(r.budget.peakBytes).toBeGreaterThan(0);
    expect(r.budget.usedBytes).toBe(0);
  });

  it('refuses streams beyond maxConcurrentStreams on one connection (RST_STREAM REFUSED_STREAM), keeping those within it', async () => {
    // A raw HTTP/2 client that ignores the advertised limit (Node's own client would hold the extra streams back).
    r = await rig({ maxConcurrentStreams: 3, messageTimeoutMs: 5000 });
    const h2 = rawHttp2(r.grpc.port);
    await until(() => h2.frames.some((f) => f.type === FRAME_SETTINGS));
    for (const id of [1, 3, 5, 7, 9]) h2.headers(id, { ':method': 'POST', ':scheme': 'http', ':path': EXPORT, ':authority': '127.0.0.1', 'content-type': 'application/grpc', te: 'trailers', authorization: `Bearer ${TOKEN}` });
    expect(await until(() => h2.resets().size >= 2)).toBe(true);
    await new Promise((res) => setTimeout(res, 200));
    // Streams 7 and 9 are the 4th and 5th: refused (REFUSED_STREAM = 7, safe to retry); 1, 3 and 5 stay open, waiting for their message.
    expect(Object.fromEntries(h2.resets())).toEqual({ 7: 7, 9: 7 });
    expect(h2.frames.filter((f) => f.type === FRAME_GOAWAY)).toEqual([]);
    h2.socket.destroy();
  });

  it('announces maxConcurrentStreams in its HTTP/2 settings', async () => {
    r = await rig({ maxConcurrentStreams: 7 });
    const s = http2Connect(`http://127.0.0.1:${r.grpc.port}`);
    session = s;
    s.on('error', () => undefined);
    await new Promise<void>((resolve) => s.once('remoteSettings', () => resolve()));
    expect(s.remoteSettings.maxConcurrentStreams).toBe(7);
  });
});
