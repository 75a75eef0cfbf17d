/**
 * Fuzzing both OTLP endpoints (HTTP JSON, HTTP protobuf, gRPC) and the Kafka decoder with seeded bad
 * payloads, while valid fixture traffic is interleaved. Every bad payload must get a 4xx (HTTP),
 * INVALID_ARGUMENT / RESOURCE_EXHAUSTED (gRPC) or a DecodeError (Kafka → dead-letter topic), or a 200 with
 * partialSuccess exactly when the decoder found some items valid and some not. The service must stay up,
 * its memory bounded, and every valid run must be scored by every configured scorer.
 */
import { gunzipSync } from 'node:zlib';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DecodeError } from '../../src/errors.js';
import { deadLetterHeaders } from '../../src/ingest/kafka/dead-letter.js';
import { Interner } from '../../src/ingest/otlp/intern.js';
import { decodeKafkaValue } from '../../src/ingest/kafka/decode-message.js';
import { decodeTraceRequestJson, decodeTraceRequestProto } from '../../src/ingest/otlp/decode.js';
import { otlp } from '../../src/otlp/descriptor.js';
import { post, RawGrpcClient } from './helpers/clients.js';
import { BadPayloads, gzipBomb, type BadPayload } from './helpers/fuzz-payloads.js';
import { MemorySampler, mib } from './helpers/memory.js';
import { writeResult } from './helpers/results.js';
import { Rng } from './helpers/rng.js';
import { startTestService, waitUntil, type TestService } from './helpers/service.js';
import { pool, Tally } from './helpers/tally.js';
import { validRequest, type ValidRequest } from './helpers/traces.js';

const SEED = 0x7ac3;
const LIMIT = 4 * 1024 * 1024;
const COUNTS = { httpJson: 2500, httpProto: 2500, grpc: 1500, kafkaProto: 2000, kafkaJson: 2000 };
/** One valid request after every VALID_EVERY bad ones, on the same channel. */
const VALID_EVERY = 20;
const SCORERS = ['similarity', 'tone'];

type Decoded = { rejected: number } | { error: unknown };

function decodeLocally(p: BadPayload): Decoded {
  try {
    const body = p.gzip ? gunzipSync(p.body, { maxOutputLength: LIMIT }) : p.body;
    const r = p.encoding === 'json' ? decodeTraceRequestJson(body) : decodeTraceRequestProto(body);
    return { rejected: r.rejected };
  } catch (error) {
    return { error };
  }
}

function rejectedSpansOf(body: Buffer, json: boolean): number {
  if (json) {
    const o = JSON.parse(body.toString('utf8')) as { partialSuccess?: { rejectedSpans?: string | number } };
    return Number(o.partialSuccess?.rejectedSpans ?? 0);
  }
  const o = otlp().types.ExportTraceServiceResponse.toObject(otlp().types.ExportTraceServiceResponse.decode(body), { longs: Number }) as { partialSuccess?: { rejectedSpans?: number } };
  return Number(o.partialSuccess?.rejectedSpans ?? 0);
}

describe('fuzzing the OTLP endpoints and the Kafka decoder', () => {
  const rng = new Rng(SEED);
  const bad = new BadPayloads(new Rng(SEED + 1), 6 * 1024 * 1024);
  const tally = new Tally();
  const valid: ValidRequest[] = [];
  let s: TestService;
  let grpcClient: RawGrpcClient;
  let memory: MemorySampler;

  beforeAll(async () => {
    s = await startTestService({
      sources: { otlp: { http: { maxBodyBytes: LIMIT }, grpc: { maxMessageBytes: LIMIT } } },
      // Fuzz traces without a root are decided at maxTraceAgeMs; keep it short so they do not pile up.
      assembly: { decisionWaitMs: 200, maxTraceAgeMs: 2000, tickMs: 50 },
      scorers: { similarity: { type: 'content-similarity' }, tone: { type: 'tone' } },
    });
    grpcClient = new RawGrpcClient(s.grpcPort);
    memory = new MemorySampler();
  });

  afterAll(async () => {
    memory.stop();
    grpcClient.close();
    await s.service.shutdown();
  });

  async function sendValid(channel: 'http-json' | 'http-proto' | 'grpc'): Promise<void> {
    const v = validRequest(rng);
    valid.push(v);
    if (channel === 'grpc') {
      const a = await grpcClient.export(v.proto);
      expect(a.code, `valid gRPC request: ${a.details}`).toBe(grpc.status.OK);
      return;
    }
    const json = channel === 'http-json';
    const a = await post(`${s.httpUrl}/v1/traces`, json ? v.json : v.proto, json ? 'application/json' : 'application/x-protobuf');
    expect(a.status, `valid ${channel} request`).toBe(200);
  }

  async function fuzzHttp(channel: 'http-json' | 'http-proto', p: BadPayload): Promise<void> {
    const headers: Record<string, string> = {};
    if (p.gzip) headers['content-encoding'] = 'gzip';
    if (p.contentEncoding) headers['content-encoding'] = p.contentEncoding;
    const contentType = p.contentType ?? (p.encoding === 'json' ? 'application/json' : 'application/x-protobuf');
    let a;
    try {
      a = await post(`${s.httpUrl}/v1/traces`, p.body, contentType, headers);
    } catch (err) {
      tally.bad(channel, p.family, `request failed: ${String(err)}`);
      return;
    }
    if (a.status === 200) {
      const local = decodeLocally(p);
      if ('error' in local) return tally.bad(channel, p.family, `200 for a payload the decoder refuses: ${String(local.error)}`);
      const rejected = rejectedSpansOf(a.body, p.encoding === 'json');
      if (rejected !== local.rejected) return tally.bad(channel, p.family, `partialSuccess.rejectedSpans ${rejected}, decoder rejected ${local.rejected}`);
      tally.add(channel, p.family, rejected > 0 ? '200-partial' : '200-clean');
    } else if (a.status === 429 || a.status === 503) {
      if (!a.headers.get('retry-after')) return tally.bad(channel, p.family, `${a.status} without Retry-After`);
      tally.add(channel, p.family, String(a.status));
    } else if (a.status >= 400 && a.status < 500) {
      if (a.body.length === 0) return tally.bad(channel, p.family, `${a.status} without a status body`);
      tally.add(channel, p.family, String(a.status));
    } else {
      tally.bad(channel, p.family, `status ${a.status}: ${a.body.toString('utf8').slice(0, 200)}`);
    }
  }

  async function fuzzGrpc(p: BadPayload, client: RawGrpcClient = grpcClient): Promise<void> {
    const a = await client.export(p.body);
    if (a.code === grpc.status.OK) {
      const local = decodeLocally(p);
      if ('error' in local) return tally.bad('grpc', p.family, `OK for a payload the decoder refuses: ${String(local.error)}`);
      const rejected = a.response ? rejectedSpansOf(a.response, false) : 0;
      if (rejected !== local.rejected) return tally.bad('grpc', p.family, `partialSuccess.rejectedSpans ${rejected}, decoder rejected ${local.rejected}`);
      tally.add('grpc', p.family, rejected > 0 ? 'OK-partial' : 'OK-clean');
    } else if (a.code === grpc.status.INVALID_ARGUMENT || a.code === grpc.status.RESOURCE_EXHAUSTED) {
      if (!a.details) return tally.bad('grpc', p.family, `${grpc.status[a.code]} without details`);
      tally.add('grpc', p.family, grpc.status[a.code]);
    } else {
      tally.bad('grpc', p.family, `${grpc.status[a.code]}: ${a.details}`);
    }
  }

  it(`HTTP JSON: ${COUNTS.httpJson} bad payloads with valid requests interleaved`, async () => {
    await pool(COUNTS.httpJson, 8, async (i) => {
      await fuzzHttp('http-json', bad.json(true));
      if (i % VALID_EVERY === 0) await sendValid('http-json');
    });
    expect(tally.unexpected).toEqual([]);
    expect(tally.channelTotal('http-json')).toBe(COUNTS.httpJson);
  });

  it(`HTTP protobuf: ${COUNTS.httpProto} bad payloads with valid requests interleaved`, async () => {
    await pool(COUNTS.httpProto, 8, async (i) => {
      await fuzzHttp('http-proto', bad.protobuf(true));
      if (i % VALID_EVERY === 0) await sendValid('http-proto');
    });
    expect(tally.unexpected).toEqual([]);
    expect(tally.channelTotal('http-proto')).toBe(COUNTS.httpProto);
  });

  it(`gRPC: ${COUNTS.grpc} bad messages (plus oversize and gzip-compressed bombs) with valid requests interleaved`, async () => {
    await pool(COUNTS.grpc, 8, async (i) => {
      await fuzzGrpc(bad.protobuf(false));
      if (i % VALID_EVERY === 0) await sendValid('grpc');
    });
    // Past maxMessageBytes, plain and as a gzip-compressed message that inflates to 32 MiB.
    await fuzzGrpc({ family: 'oversize', encoding: 'protobuf', body: new Rng(5).bytes(LIMIT + 1024) });
    const compressing = new RawGrpcClient(s.grpcPort, { compress: true });
    try {
      for (let i = 0; i < 3; i++) await fuzzGrpc({ family: 'compression-bomb', encoding: 'protobuf', body: Buffer.alloc(32 * 1024 * 1024) }, compressing);
    } finally {
      compressing.close();
    }
    expect(tally.counts.grpc?.oversize).toEqual({ RESOURCE_EXHAUSTED: 1 });
    expect(tally.counts.grpc?.['compression-bomb']).toEqual({ RESOURCE_EXHAUSTED: 3 });
    expect(tally.unexpected).toEqual([]);
  });

  it(`Kafka decoder: ${COUNTS.kafkaProto} protobuf + ${COUNTS.kafkaJson} JSON bad records → DecodeError and a dead-letter entry`, () => {
    const kafka = (p: BadPayload, configured: 'otlp_proto' | 'otlp_json', offset: number): void => {
      const channel = `kafka-${configured}`;
      try {
        const r = decodeKafkaValue(p.body, configured, undefined, new Interner());
        tally.add(channel, p.family, r.rejected > 0 ? 'decoded-partial' : 'decoded-clean');
      } catch (error) {
        if (!(error instanceof DecodeError)) return tally.bad(channel, p.family, `threw ${String(error)} instead of a DecodeError`);
        const headers = deadLetterHeaders({ topic: 'otlp_spans', partition: 0, message: { key: null, value: p.body, headers: {}, offset: String(offset), timestamp: '0', attributes: 0 }, error });
        if (!String(headers['tracejudge.error']).includes(error.message.slice(0, 100))) return tally.bad(channel, p.family, 'dead-letter headers lack the error');
        tally.add(channel, p.family, 'dead-letter');
      }
    };
    for (let i = 0; i < COUNTS.kafkaProto; i++) kafka(bad.protobuf(false), 'otlp_proto', i);
    for (let i = 0; i < COUNTS.kafkaJson; i++) kafka(bad.json(false), 'otlp_json', i);
    // A gzip bomb as a record value is just undecodable bytes to the decoder (Kafka compression is the broker's).
    kafka({ family: 'gzip-bomb', encoding: 'protobuf', body: gzipBomb(16) }, 'otlp_proto', -1);
    expect(tally.unexpected).toEqual([]);
  });

  it('stays up with bounded memory, and every interleaved valid run is scored by every scorer', async () => {
    const health = await fetch(`${s.httpUrl}/healthz`);
    expect(health.status).toBe(200);
    const ids = valid.flatMap((v) => v.traceIds);
    const complete = (): boolean => ids.every((id) => SCORERS.every((sc) => s.recorder.forTrace(id).some((r) => r.scorer === sc)));
    await waitUntil(complete, 30_000);
    const missing = ids.filter((id) => !SCORERS.every((sc) => s.recorder.forTrace(id).some((r) => r.scorer === sc && typeof r.score === 'number')));
    expect(missing).toEqual([]);
    // exactly one record per scorer per valid run: nothing duplicated by the fuzz around it
    expect(ids.every((id) => s.recorder.forTrace(id).length === SCORERS.length)).toBe(true);

    const peaks = memory.stop();
    const total = tally.total;
    const file = writeResult('fuzz', {
      seed: SEED,
      payloads: total,
      perChannel: Object.fromEntries(Object.keys(tally.counts).map((c) => [c, tally.outcomes(c)])),
      perFamily: tally.counts,
      validRequests: valid.length,
      validRuns: ids.length,
      memoryMiB: { startRss: mib(peaks.startRssBytes), peakRss: mib(peaks.peakRssBytes), startHeap: mib(peaks.startHeapBytes), peakHeap: mib(peaks.peakHeapBytes), samples: peaks.samples },
      assembler: s.service.assembler.stats,
    });
    expect(file).toMatch(/fuzz\.json$/);
    expect(total).toBeGreaterThanOrEqual(10_000);
    // Generous bound: the test process holds the service, the clients and the payload generator.
    expect(peaks.peakRssBytes - peaks.startRssBytes).toBeLessThan(768 * 1024 * 1024);
  });
});
