import * as grpc from '@grpc/grpc-js';
import { afterAll, describe, expect, it } from 'vitest';
import { createOtlpGrpcReceiver } from '../../src/ingest/grpc/receiver.js';
import { createOtlpHttpReceiver } from '../../src/ingest/http/receiver.js';
import type { OfferResult, Refusal, SpanBatch, SpanSink } from '../../src/ingest/sink.js';
import { componentSettings } from '../../src/component.js';
import { deadlineIn, testIngest } from './receivers.js';

/** A saturated sink: `pressure()` refuses; `offer` must never be reached (it would accept). */
class SaturatedSink implements SpanSink {
  offers = 0;
  pressureCalls = 0;
  offer(_batch: SpanBatch): OfferResult {
    this.offers++;
    return { accepted: true };
  }
  pressure(): Refusal {
    this.pressureCalls++;
    return { accepted: false, reason: 'buffer_full', retryAfterMs: 2000 };
  }
}

describe('receivers refuse before decoding when the sink is saturated', () => {
  const sink = new SaturatedSink();
  const settings = componentSettings();
  const ingest = testIngest(sink, settings);
  const http = createOtlpHttpReceiver({ host: '127.0.0.1', port: 0, maxBodyBytes: 1024 * 1024, ingest, settings, isReady: () => true });
  const grpcReceiver = createOtlpGrpcReceiver({ host: '127.0.0.1', port: 0, maxMessageBytes: 1024 * 1024, ingest, settings });
  afterAll(async () => {
    await http.shutdown(deadlineIn());
    await grpcReceiver.shutdown(deadlineIn());
  });

  it('HTTP: 429 with Retry-After even for a body that would not decode (it is never read)', async () => {
    await http.start();
    const port = http.port;
    const res = await fetch(`http://127.0.0.1:${port}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{ not json' });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(sink.offers).toBe(0);
    expect(sink.pressureCalls).toBe(1);
  });

  it('gRPC: RESOURCE_EXHAUSTED for garbage bytes, without decoding them', async () => {
    await grpcReceiver.start();
    const port = grpcReceiver.port;
    const client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    const err = await new Promise<grpc.ServiceError | null>((resolve) => {
      client.makeUnaryRequest(
        '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
        (b: Buffer) => b,
        (b: Buffer) => b,
        Buffer.from([0xff, 0xff, 0xff, 0xff]),
        (e) => resolve(e),
      );
    });
    client.close();
    expect(err?.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(sink.offers).toBe(0);
  });
});
