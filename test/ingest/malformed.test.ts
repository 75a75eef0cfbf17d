import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import * as grpc from '@grpc/grpc-js';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { otlp } from '../../src/otlp/descriptor.js';
import { RecordingSpanSink } from '../../src/testing/recording-sink.js';
import { makeTestSpans } from '../../src/testing/otel-spans.js';
import { deepAnyValueJson, jsonSpan, jsonSpanWithRawAttribute, jsonTraceRequest, prng } from './helpers.js';
import { startReceivers, TOKEN, type Running } from './receivers.js';

const MAX = 256 * 1024;
const auth = { authorization: `Bearer ${TOKEN}` };

describe('malformed input on the OTLP receivers', () => {
  const sink = new RecordingSpanSink();
  let r: Running;
  let good: Uint8Array;

  async function post(body: Uint8Array | string, contentType: string, headers: Record<string, string> = {}, path = '/v1/traces'): Promise<{ status: number; body: Buffer; headers: Headers }> {
    const res = await fetch(`${r.httpUrl}${path}`, { method: 'POST', headers: { 'content-type': contentType, ...auth, ...headers }, body });
    return { status: res.status, body: Buffer.from(await res.arrayBuffer()), headers: res.headers };
  }
  const statusMessage = (body: Buffer, json: boolean): string =>
    json ? String((JSON.parse(body.toString()) as { message?: string }).message) : String(otlp().types.Status.toObject(otlp().types.Status.decode(body)).message);

  beforeAll(async () => {
    r = await startReceivers(sink, { maxBodyBytes: MAX });
    good = ProtobufTraceSerializer.serializeRequest(await makeTestSpans(1)) as Uint8Array;
    const first = await post(good, 'application/x-protobuf');
    expect(first.status).toBe(200);
  });
  afterAll(async () => {
    await r.stop();
  });

  const cases: { name: string; send: () => Promise<{ status: number; body: Buffer }>; status: number; json: boolean; message: RegExp }[] = [
    { name: 'truncated protobuf', send: () => post(good.subarray(0, good.length - 7), 'application/x-protobuf'), status: 400, json: false, message: /^malformed protobuf ExportTraceServiceRequest: .* at byte offset \d+/ },
    {
      name: 'random bytes',
      send: () => {
        const next = prng(7);
        return post(new Uint8Array(512).map(() => next() & 0xff), 'application/x-protobuf');
      },
      status: 400,
      json: false,
      message: /^malformed protobuf/,
    },
    { name: 'invalid JSON', send: () => post('{"resourceSpans": [ {', 'application/json'), status: 400, json: true, message: /^invalid JSON ExportTraceServiceRequest: .* at byte offset 21$/ },
    { name: 'wrong content type', send: () => post('hello', 'text/plain'), status: 415, json: true, message: /unsupported Content-Type "text\/plain"/ },
    { name: 'unsupported content encoding', send: () => post(good, 'application/x-protobuf', { 'content-encoding': 'br' }), status: 415, json: false, message: /unsupported Content-Encoding "br"/ },
    { name: 'oversize body', send: () => post(new Uint8Array(MAX + 1), 'application/x-protobuf'), status: 413, json: false, message: /exceeds the limit of 262144 bytes/ },
    { name: 'corrupt gzip', send: () => post(Buffer.from('not gzip at all'), 'application/json', { 'content-encoding': 'gzip' }), status: 400, json: true, message: /^invalid gzip body/ },
    { name: 'bad bearer token', send: () => post(good, 'application/x-protobuf', { authorization: 'Bearer nope' }), status: 401, json: false, message: /bearer token/ },
    { name: 'missing bearer token', send: () => fetch(`${r.httpUrl}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).then(async (res) => ({ status: res.status, body: Buffer.from(await res.arrayBuffer()) })), status: 401, json: true, message: /bearer token/ },
  ];

  it.each(cases)('$name → $status with a message', async ({ send, status, json, message }) => {
    const res = await send();
    expect(res.status).toBe(status);
    expect(statusMessage(res.body, json)).toMatch(message);
  });

  it('gzip bomb (small compressed, huge inflated) → 413 without inflating it all', async () => {
    // 1 MiB of zeroes gzips to ~1 KiB; 512 concatenated gzip members inflate to 512 MiB.
    const member = gzipSync(Buffer.alloc(1024 * 1024));
    const bomb = Buffer.concat(Array.from({ length: 512 }, () => member));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const before = process.memoryUsage().arrayBuffers;
    const res = await post(bomb, 'application/x-protobuf', { 'content-encoding': 'gzip' });
    const grown = process.memoryUsage().arrayBuffers - before;
    expect(res.status).toBe(413);
    expect(statusMessage(res.body, false)).toMatch(/exceeds the limit of 262144 bytes after decompression/);
    expect(grown).toBeLessThan(64 * 1024 * 1024);
  });

  it('a gzip body within the limit is accepted', async () => {
    const before = sink.spans.length;
    const res = await post(gzipSync(jsonTraceRequest([jsonSpan('gz')])), 'application/json', { 'content-encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(sink.spans.length).toBe(before + 1);
  });

  it('bad hex ids, missing trace ids and deep nesting → 200 with partialSuccess, good spans kept', async () => {
    const before = sink.spans.length;
    const body = jsonTraceRequest([
      jsonSpan('ok-1'),
      { ...jsonSpan('bad-hex'), traceId: 'g'.repeat(32) },
      { ...jsonSpan('no-trace'), traceId: undefined },
      jsonSpanWithRawAttribute('deep', 'x', deepAnyValueJson(5000)),
      jsonSpan('ok-2'),
    ]);
    const res = await post(body, 'application/json');
    expect(res.status).toBe(200);
    const parsed = JSON.parse(res.body.toString()) as { partialSuccess?: { rejectedSpans?: string; errorMessage?: string } };
    expect(parsed.partialSuccess?.rejectedSpans).toBe('3');
    expect(parsed.partialSuccess?.errorMessage).toMatch(/^3 spans rejected: resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[1\]: traceId: expected 32 hex characters.*spans\[2\]: traceId: missing.*spans\[3\]: attribute value nested deeper than 64 levels/);
    expect(sink.spans.slice(before).map((s) => s.name)).toEqual(['ok-1', 'ok-2']);
  });

  it('answers a full success with no partialSuccess, in protobuf for protobuf', async () => {
    const res = await post(good, 'application/x-protobuf');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-protobuf');
    expect(otlp().types.ExportTraceServiceResponse.toObject(otlp().types.ExportTraceServiceResponse.decode(res.body))).toEqual({});
  });

  it('gRPC: malformed bytes → INVALID_ARGUMENT, bad token → UNAUTHENTICATED', async () => {
    const client = new grpc.Client(r.grpcUrl.replace('http://', ''), grpc.credentials.createInsecure());
    const call = (payload: Buffer, token: string): Promise<grpc.ServiceError | null> =>
      new Promise((resolve) => {
        const md = new grpc.Metadata();
        md.set('authorization', `Bearer ${token}`);
        client.makeUnaryRequest('/opentelemetry.proto.collector.trace.v1.TraceService/Export', (b: Buffer) => b, (b: Buffer) => b, payload, md, (err) => resolve(err));
      });
    const truncated = await call(Buffer.from(good.subarray(0, good.length - 7)), TOKEN);
    expect(truncated?.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(truncated?.details).toMatch(/^malformed protobuf ExportTraceServiceRequest: .* at byte offset \d+/);
    expect((await call(Buffer.from(good), 'nope'))?.code).toBe(grpc.status.UNAUTHENTICATED);
    const big = await call(Buffer.alloc(MAX + 10), TOKEN);
    expect(big?.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(await call(Buffer.from(good), TOKEN)).toBeNull();
    client.close();
  });

  it('keeps serving, and everything accepted earlier is still in the sink', async () => {
    const health = await fetch(`${r.httpUrl}/healthz`);
    expect(health.status).toBe(200);
    expect((await fetch(`${r.httpUrl}/readyz`)).status).toBe(200);
    expect((await fetch(`${r.httpUrl}/nope`)).status).toBe(404);
    expect((await fetch(`${r.httpUrl}/v1/traces`)).status).toBe(405);
    const names = sink.spans.map((s) => s.name);
    expect(names.filter((n) => n === 'invoke_agent agent-0').length).toBeGreaterThanOrEqual(2);
    for (const n of ['gz', 'ok-1', 'ok-2']) expect(names).toContain(n);
  });
});
