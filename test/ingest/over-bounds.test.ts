/**
 * A request over the assembler's bounds (issue #16, F4) gets OTLP partial success: what fits is taken, the
 * rest counted in `rejected_spans` with a message naming the bound; a large protobuf request is split into
 * parts (without decoding) and decoded part by part, and decoding stops once it is past the bounds.
 */
import * as grpc from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { componentSettings } from '../../src/component.js';
import { TraceAssembler } from '../../src/ingest/assembler.js';
import { createOtlpGrpcReceiver } from '../../src/ingest/grpc/receiver.js';
import { createOtlpHttpReceiver } from '../../src/ingest/http/receiver.js';
import { decodeTraceRequestProto } from '../../src/ingest/otlp/decode.js';
import { splitTraceRequest } from '../../src/ingest/otlp/ingest.js';
import { otlp } from '../../src/otlp/descriptor.js';
import { createTestTelemetry } from '../../src/testing/test-telemetry.js';
import { singleSpanTraces } from '../reliability/helpers/hostile.js';
import { mergedRequest, validRequest } from '../reliability/helpers/traces.js';
import { Rng } from '../reliability/helpers/rng.js';
import { deadlineIn, testIngest } from './receivers.js';

describe('splitTraceRequest', () => {
  it('cuts a request into parts that decode to exactly the spans of the whole, resources and scopes included', () => {
    const rng = new Rng(0x5917);
    const request = mergedRequest(Array.from({ length: 30 }, () => validRequest(rng)));
    const body = Buffer.from(request.proto);
    const whole = decodeTraceRequestProto(body).spans;
    for (const perPart of [1, 7, 64, whole.length]) {
      const parts = splitTraceRequest(body, perPart);
      expect(parts).toBeDefined();
      expect(parts?.every((p) => p.spans <= perPart)).toBe(true);
      expect(parts?.reduce((n, p) => n + p.spans, 0)).toBe(whole.length);
      const fromParts = (parts ?? []).flatMap((p) => decodeTraceRequestProto(p.bytes).spans);
      expect(fromParts).toEqual(whole);
    }
  });

  it('returns undefined for malformed framing, so the whole body is decoded and its error reported', () => {
    const body = singleSpanTraces(100, 1);
    expect(splitTraceRequest(body.subarray(0, body.length - 3), 10)).toBeUndefined();
    expect(splitTraceRequest(Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]), 10)).toBeUndefined();
    expect(splitTraceRequest(Buffer.alloc(0), 10)).toEqual([]);
  });
});

describe('OTLP requests over the assembler bounds', () => {
  it('a 40,000-trace request to an assembler holding 1,000: partial success naming the bound, the rest never decoded', async () => {
    const meter = createTestTelemetry();
    const asm = new TraceAssembler({ config: { maxBufferedTraces: 1000, decisionWaitMs: 60_000 }, onTrace: () => Promise.resolve(), settings: meter.settings });
    const ingest = testIngest(asm, meter.settings);
    const body = singleSpanTraces(40_000, 7);
    const outcome = await ingest.accept('traces', 'protobuf', body);
    expect(outcome).toMatchObject({ kind: 'accepted', rejected: 39_000 });
    if (outcome.kind !== 'accepted') return;
    expect(outcome.message).toMatch(/^39000 spans rejected: the request holds more than assembly\.maxBufferedTraces \(1000 traces\)/);
    expect(outcome.message).toMatch(/not even read/);
    expect(asm.bufferedTraces).toBe(1000);
    expect(await meter.sum('tracejudge.spans.rejected', { source: 'otlp', reason: 'over_bounds' })).toBe(39_000);
    expect(await meter.sum('tracejudge.spans.received', { source: 'otlp' })).toBe(1000);
    await asm.close();
  });

  it('over HTTP: 200 with partialSuccess.rejectedSpans, and the assembler keeps its bound', async () => {
    const settings = componentSettings();
    const asm = new TraceAssembler({ config: { maxBufferedTraces: 50, decisionWaitMs: 60_000 }, onTrace: () => Promise.resolve(), settings });
    const http = createOtlpHttpReceiver({ host: '127.0.0.1', port: 0, maxBodyBytes: 4 << 20, ingest: testIngest(asm, settings), settings, isReady: () => true });
    await http.start();
    try {
      // Small enough to be decoded at once: the assembler itself takes 50 and rejects the rest.
      const res = await fetch(`http://127.0.0.1:${http.port}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/x-protobuf' }, body: singleSpanTraces(2000, 9) });
      expect(res.status).toBe(200);
      const answer = otlp().types.ExportTraceServiceResponse.toObject(otlp().types.ExportTraceServiceResponse.decode(Buffer.from(await res.arrayBuffer())), { longs: Number }) as {
        partialSuccess?: { rejectedSpans?: number; errorMessage?: string };
      };
      expect(answer.partialSuccess?.rejectedSpans).toBe(1950);
      expect(answer.partialSuccess?.errorMessage).toMatch(/1950 spans rejected: 1950 of the request's 2000 traces did not fit assembly\.maxBufferedTraces \(50 traces\)/);
      expect(asm.bufferedTraces).toBe(50);
    } finally {
      await http.shutdown(deadlineIn());
      await asm.close();
    }
  });

  it('over gRPC: OK with partial_success.rejected_spans and the message, and the assembler keeps its bound', async () => {
    const settings = componentSettings();
    const asm = new TraceAssembler({ config: { maxBufferedTraces: 50, decisionWaitMs: 60_000 }, onTrace: () => Promise.resolve(), settings });
    const receiver = createOtlpGrpcReceiver({ host: '127.0.0.1', port: 0, maxMessageBytes: 4 << 20, ingest: testIngest(asm, settings), settings });
    await receiver.start();
    const client = new grpc.Client(`127.0.0.1:${receiver.port}`, grpc.credentials.createInsecure());
    try {
      const type = otlp().types.ExportTraceServiceResponse;
      type Answer = { partialSuccess?: { rejectedSpans?: number; errorMessage?: string } };
      const answer = await new Promise<{ code: number; response?: Answer }>((resolve) =>
        client.makeUnaryRequest<Buffer, Buffer>(
          '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
          (b) => b,
          (b) => b,
          singleSpanTraces(2000, 11),
          { deadline: Date.now() + 10_000 },
          (err, res) => resolve({ code: err?.code ?? 0, ...(res ? { response: type.toObject(type.decode(res), { longs: Number }) } : {}) }),
        ),
      );
      expect(answer.code).toBe(grpc.status.OK);
      expect(answer.response?.partialSuccess?.rejectedSpans).toBe(1950);
      expect(answer.response?.partialSuccess?.errorMessage).toMatch(/assembly\.maxBufferedTraces \(50 traces\)/);
      expect(asm.bufferedTraces).toBe(50);
    } finally {
      client.close();
      await receiver.shutdown(deadlineIn());
      await asm.close();
    }
  });
});
