import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as grpc from '@grpc/grpc-js';
import { ExportResultCode } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { otlp } from '../../src/otlp/descriptor.js';
import { createOtlpHttpReceiver } from '../../src/ingest/http/receiver.js';
import { RecordingSpanSink } from '../../src/testing/recording-sink.js';
import { makeTestSpans } from '../../src/testing/otel-spans.js';
import { componentSettings } from '../../src/component.js';
import { deadlineIn, exporterFor, exportSpans, startReceivers, testIngest, TOKEN, type Running } from './receivers.js';

describe('back-pressure from the sink', () => {
  const sink = new RecordingSpanSink({ retryAfterMs: 1000 });
  let r: Running;
  let spans: ReadableSpan[];

  beforeAll(async () => {
    r = await startReceivers(sink);
    spans = await makeTestSpans(1);
  });
  afterAll(async () => {
    await r.stop();
  });

  it('HTTP: 429 with Retry-After and a Status body while the sink refuses', async () => {
    sink.refuseAll();
    const res = await fetch(`${r.httpUrl}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-protobuf', authorization: `Bearer ${TOKEN}` },
      body: ProtobufTraceSerializer.serializeRequest(spans) as Uint8Array,
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
    const status = otlp().types.Status.toObject(otlp().types.Status.decode(Buffer.from(await res.arrayBuffer())));
    expect(status).toMatchObject({ code: 8, message: 'buffers are full; retry after 1s' });
    expect(sink.spans).toHaveLength(0);
    sink.acceptAll();
  });

  it('HTTP: the real exporter retries after Retry-After and succeeds once the sink drains; nothing lost or duplicated', async () => {
    const held = new RecordingSpanSink({ capacitySpans: spans.length, retryAfterMs: 1000 });
    const local = await startReceivers(held);
    try {
      // Fill the sink to capacity, so the next export is refused until drain().
      const first = exporterFor('http-json', local);
      expect((await exportSpans(first, spans)).code).toBe(ExportResultCode.SUCCESS);
      await first.shutdown();
      const exporter = exporterFor('http-proto', local);
      const pending = exportSpans(exporter, spans);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(held.refusals).toBeGreaterThanOrEqual(1);
      held.drain();
      const result = await pending;
      await exporter.shutdown();
      expect(result.code).toBe(ExportResultCode.SUCCESS);
      expect(held.spans).toHaveLength(spans.length * 2);
      expect(held.batches).toHaveLength(2);
    } finally {
      await local.stop();
    }
  });

  it('gRPC: RESOURCE_EXHAUSTED with a google.rpc.RetryInfo detail while the sink refuses', async () => {
    sink.refuseAll();
    const client = new grpc.Client(r.grpcUrl.replace('http://', ''), grpc.credentials.createInsecure());
    const md = new grpc.Metadata();
    md.set('authorization', `Bearer ${TOKEN}`);
    const err = await new Promise<grpc.ServiceError | null>((resolve) =>
      client.makeUnaryRequest('/opentelemetry.proto.collector.trace.v1.TraceService/Export', (b: Buffer) => b, (b: Buffer) => b, Buffer.from(ProtobufTraceSerializer.serializeRequest(spans) as Uint8Array), md, (e) => resolve(e)),
    );
    client.close();
    sink.acceptAll();
    expect(err?.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    const details = err?.metadata.get('grpc-status-details-bin')[0];
    expect(Buffer.isBuffer(details)).toBe(true);
    const status = otlp().types.Status.decode(details as Buffer);
    const detail = otlp().types.Status.toObject(status, { longs: Number }) as { code: number; details: { type_url: string; value: Uint8Array }[] };
    expect(detail.code).toBe(8);
    expect(detail.details[0]?.type_url).toBe('type.googleapis.com/google.rpc.RetryInfo');
    const retry = otlp().types.RetryInfo.toObject(otlp().types.RetryInfo.decode(detail.details[0]?.value as Uint8Array), { longs: Number, defaults: true });
    expect(retry).toEqual({ retryDelay: { seconds: 1, nanos: 0 } });
    expect(sink.spans).toHaveLength(0);
  });

  it('gRPC: the real exporter is refused with RESOURCE_EXHAUSTED (it does not retry), keeps nothing, and a re-export after drain lands once', async () => {
    const held = new RecordingSpanSink({ retryAfterMs: 1000 });
    const local = await startReceivers(held);
    try {
      held.refuseAll();
      const exporter = exporterFor('grpc', local);
      const refused = await exportSpans(exporter, spans);
      expect(refused.code).toBe(ExportResultCode.FAILED);
      expect((refused.error as grpc.ServiceError | undefined)?.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
      expect(held.spans).toHaveLength(0);
      held.acceptAll();
      const retried = await exportSpans(exporter, spans);
      await exporter.shutdown();
      expect(retried.code).toBe(ExportResultCode.SUCCESS);
      expect(held.spans.map((s) => s.spanId).sort()).toEqual(spans.map((s) => s.spanContext().spanId).sort());
    } finally {
      await local.stop();
    }
  });

  it('readyz follows isReady and shutdown; shutdown is safe twice and refuses new exports', async () => {
    let ready = false;
    const settings = componentSettings();
    const rec = createOtlpHttpReceiver({ host: '127.0.0.1', port: 0, maxBodyBytes: 1024, ingest: testIngest(sink, settings), settings, isReady: () => ready });
    await rec.start();
    const port = rec.port;
    expect(port).toBeGreaterThan(0);
    expect(rec.port).toBe(port);
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(503);
    ready = true;
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    const deadline = deadlineIn();
    const a = rec.shutdown(deadline);
    const b = rec.shutdown(deadline);
    expect(b).toBe(a);
    await a;
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });
});
