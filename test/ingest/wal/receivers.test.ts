/**
 * The receivers with the write-ahead log on, against a real assembler: a request is answered 200/OK only
 * after its record is in the log, is settled once its traces were handled, and a failed or refused append
 * leaves nothing behind in the assembler. Then replay at startup feeds the assembler from the log.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { componentSettings, type ComponentSettings } from '../../../src/component.js';
import { TraceAssembler } from '../../../src/ingest/assembler.js';
import { createOtlpGrpcReceiver } from '../../../src/ingest/grpc/receiver.js';
import { createOtlpHttpReceiver } from '../../../src/ingest/http/receiver.js';
import { OtlpIngest } from '../../../src/ingest/otlp/ingest.js';
import type { OtlpReceiver } from '../../../src/ingest/otlp/receiver.js';
import type { Trace } from '../../../src/model/span.js';
import { WriteAheadLog, type WalOptions } from '../../../src/ingest/wal/log.js';
import type { WalRecordKind } from '../../../src/ingest/wal/record.js';
import { replayWal } from '../../../src/ingest/wal/replay.js';
import { RawGrpcClient } from '../../reliability/helpers/clients.js';
import { testMeter } from '../../assembler/helpers.js';
import { encodeTraceRequest, jsonSpan, jsonTraceRequest } from '../helpers.js';
import { deadlineIn, ingestSettings } from '../receivers.js';

const opts = (over: Partial<WalOptions> = {}): WalOptions => ({
  dir: mkdtempSync(join(tmpdir(), 'tracejudge-walrx-')), fsync: 'always', segmentBytes: 1 << 20, maxBytes: 8 << 20, checkpointIntervalMs: 60_000, ...over,
});

/** A log whose appends fail as a full or broken disk would (fault injection for the receivers' failure path). */
class BrokenDiskWal extends WriteAheadLog {
  override append(): number {
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  }
}

const traceId = (n: number): string => n.toString(16).padStart(32, 'a');
const logsJson = (id: string): string =>
  JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ traceId: id, spanId: '00000000000000a1', timeUnixNano: '1700000000500000000', body: { stringValue: 'hello' } }] }] }] });

interface Rig {
  wal: WriteAheadLog;
  assembler: TraceAssembler;
  handled: Trace[];
  http: string;
  grpcPort: number;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function rig(wal: WriteAheadLog, recover = true, settings: ComponentSettings = componentSettings()): Promise<Rig> {
  if (recover) await wal.recover(() => Promise.resolve());
  const handled: Trace[] = [];
  const assembler = new TraceAssembler({ config: { decisionWaitMs: 60_000 }, settings, onTrace: (t) => {
    handled.push(t);
    return Promise.resolve();
  } });
  const ingest = new OtlpIngest({ sink: assembler, wal, settings: ingestSettings(settings) });
  const http = createOtlpHttpReceiver({ host: '127.0.0.1', port: 0, maxBodyBytes: 1 << 20, ingest, settings, isReady: () => true });
  const grpcReceiver = createOtlpGrpcReceiver({ host: '127.0.0.1', port: 0, maxMessageBytes: 1 << 20, ingest, settings });
  const receivers: OtlpReceiver[] = [http, grpcReceiver];
  await Promise.all(receivers.map((r) => r.start()));
  cleanups.push(async () => {
    await Promise.all(receivers.map((r) => r.shutdown(deadlineIn())));
    await assembler.close();
    await wal.close();
  });
  return { wal, assembler, handled, http: `http://127.0.0.1:${http.port}`, grpcPort: grpcReceiver.port };
}

const post = (url: string, body: string | Uint8Array, type = 'application/json'): Promise<Response> => fetch(url, { method: 'POST', headers: { 'content-type': type }, body });

describe('OTLP receivers with the write-ahead log', () => {
  it('HTTP: 200 only with the record in the log; the record settles once the trace was handled', async () => {
    const r = await rig(new WriteAheadLog(opts()));
    const res = await post(`${r.http}/v1/traces`, jsonTraceRequest([jsonSpan('root', traceId(1)), jsonSpan('child', traceId(1))]));
    expect(res.status).toBe(200);
    expect(r.wal.unsettled).toBe(1);
    expect(r.wal.bytes).toBeGreaterThan(0);
    expect((await post(`${r.http}/v1/logs`, logsJson(traceId(1)))).status).toBe(200);
    expect(r.wal.unsettled).toBe(2);
    expect(r.assembler.bufferedTraces).toBe(1);
    await r.assembler.flush();
    expect(r.handled.map((t) => [t.traceId, t.spans.length, t.logs.length])).toEqual([[traceId(1), 2, 1]]);
    await new Promise((res2) => setImmediate(res2));
    expect(r.wal.unsettled).toBe(0);
    await r.wal.checkpoint();
    expect(r.wal.watermark).toBe(2);
  });

  it('HTTP: a malformed request gets 400 and writes nothing; an empty one writes nothing', async () => {
    const r = await rig(new WriteAheadLog(opts()));
    expect((await post(`${r.http}/v1/traces`, '{"resourceSpans": 7')).status).toBe(400);
    expect((await post(`${r.http}/v1/traces`, '{}')).status).toBe(200);
    expect(r.wal.bytes).toBe(0);
    expect(r.wal.unsettled).toBe(0);
  });

  it('HTTP and gRPC: a full log refuses with back-pressure (429 + Retry-After / RESOURCE_EXHAUSTED), nothing reaches the assembler', async () => {
    const r = await rig(new WriteAheadLog(opts({ segmentBytes: 1000, maxBytes: 2000, checkpointIntervalMs: 1000 })));
    const big = jsonTraceRequest(Array.from({ length: 12 }, (_, i) => jsonSpan(`s${i}`, traceId(2))));
    expect(Buffer.byteLength(big)).toBeGreaterThan(1000);
    const res = await post(`${r.http}/v1/traces`, big);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
    const client = new RawGrpcClient(r.grpcPort);
    const proto = encodeTraceRequest(Array.from({ length: 30 }, (_, i) => ({ traceId: Buffer.from(traceId(3), 'hex'), spanId: Buffer.alloc(8, i + 1), name: `span-${i}-${'x'.repeat(50)}`, startTimeUnixNano: 1, endTimeUnixNano: 2 })));
    expect(proto.length).toBeGreaterThan(2000);
    const answer = await client.export(proto);
    client.close();
    expect(answer.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(r.assembler.bufferedTraces).toBe(0);
    expect(r.wal.bytes).toBe(0);
  });

  it('HTTP and gRPC: an append that fails answers 503 / UNAVAILABLE naming the log, and nothing is accepted', async () => {
    const r = await rig(new BrokenDiskWal(opts()));
    const res = await post(`${r.http}/v1/traces`, jsonTraceRequest([jsonSpan('root', traceId(4))]));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    const status = (await res.json()) as { code: number; message: string };
    expect(status.code).toBe(14);
    expect(status.message).toMatch(/write-ahead log append failed: ENOSPC/);
    const client = new RawGrpcClient(r.grpcPort);
    const answer = await client.export(encodeTraceRequest([{ traceId: Buffer.from(traceId(5), 'hex'), spanId: Buffer.alloc(8, 1), name: 'a', startTimeUnixNano: 1, endTimeUnixNano: 2 }]));
    client.close();
    expect(answer.code).toBe(grpc.status.UNAVAILABLE);
    expect(answer.details).toMatch(/write-ahead log append failed/);
    expect(r.assembler.bufferedTraces).toBe(0);
    expect(r.assembler.stats.spansAccepted).toBe(0);
  });

  it('gRPC: OK only with the record in the log; a request the assembler refuses is settled at once', async () => {
    const r = await rig(new WriteAheadLog(opts()));
    const client = new RawGrpcClient(r.grpcPort);
    const req = (id: string): Uint8Array => encodeTraceRequest([{ traceId: Buffer.from(id, 'hex'), spanId: Buffer.alloc(8, 1), name: 'a', startTimeUnixNano: 1, endTimeUnixNano: 2 }]);
    expect((await client.export(req(traceId(6)))).code).toBe(grpc.status.OK);
    expect(r.wal.unsettled).toBe(1);
    await r.assembler.close();
    expect((await client.export(req(traceId(7)))).code).toBe(grpc.status.UNAVAILABLE);
    client.close();
    await new Promise((res2) => setImmediate(res2));
    expect(r.wal.unsettled).toBe(0);
    expect(r.handled.map((t) => t.traceId)).toEqual([traceId(6)]);
  });
});

describe('replay at startup', () => {
  it('feeds every unsettled record back to the assembler, settles them as they are handled, and skips settled ones', async () => {
    const options = opts();
    const first = new WriteAheadLog(options);
    await first.recover(() => Promise.resolve());
    const write = (kind: WalRecordKind, body: string | Uint8Array): number => first.append(kind, Buffer.from(body));
    write('traces-json', jsonTraceRequest([jsonSpan('a', traceId(10))]));
    write('traces-json', jsonTraceRequest([jsonSpan('b', traceId(11))]));
    const settled = write('traces-protobuf', encodeTraceRequest([{ traceId: Buffer.from(traceId(12), 'hex'), spanId: Buffer.alloc(8, 2), name: 'c', startTimeUnixNano: 1, endTimeUnixNano: 2 }]));
    write('logs-json', logsJson(traceId(10)));
    write('traces-json', '{"resourceSpans": "no longer decodes"}');
    first.settle(0);
    first.settle(settled);
    await first.close();

    const handled: Trace[] = [];
    const assembler = new TraceAssembler({ config: { decisionWaitMs: 60_000 }, onTrace: (t) => {
    handled.push(t);
    return Promise.resolve();
  } });
    const second = new WriteAheadLog(options);
    const settings = componentSettings();
    const result = await replayWal(second, new OtlpIngest({ sink: assembler, settings: ingestSettings(settings) }), settings);
    // Record 0 is below the watermark; 2 settled out of order above it, which the checkpoint records: neither is replayed.
    expect(result).toMatchObject({ replayed: 3, skipped: 0, left: 0 });
    await assembler.close();
    await new Promise((res) => setImmediate(res));
    expect(handled.map((t) => [t.traceId, t.spans.length, t.logs.length]).sort()).toEqual([
      [traceId(10), 0, 1],
      [traceId(11), 1, 0],
    ]);
    expect(second.unsettled).toBe(0);
    await second.close();
    expect(second.watermark).toBe(5);
  });
});

describe('write-ahead log metrics', () => {
  it('counts appends by outcome and replays, and reports the log bytes and unsettled records', async () => {
    const meter = testMeter();
    const dir = opts().dir;
    const r = await rig(new WriteAheadLog(opts({ dir }), meter.settings), true, meter.settings);
    expect((await post(`${r.http}/v1/traces`, jsonTraceRequest([jsonSpan('root', traceId(9))]))).status).toBe(200);
    expect(await meter.sum('tracejudge.wal.appends', { outcome: 'durable' })).toBe(1);
    expect(await meter.sum('tracejudge.wal.unsettled')).toBe(1);
    expect(await meter.sum('tracejudge.wal.bytes')).toBe(r.wal.bytes);
    expect(r.wal.bytes).toBeGreaterThan(0);
    // Not handled before the log closes: the record is replayed by the next log on the same directory.
    await r.wal.close();
    expect(await meter.sum('tracejudge.wal.bytes')).toBe(0);
    const next = new WriteAheadLog(opts({ dir }), meter.settings);
    const assembler = new TraceAssembler({ config: { decisionWaitMs: 60_000 }, onTrace: () => Promise.resolve(), settings: meter.settings });
    cleanups.push(async () => {
      await assembler.close();
      await next.close();
    });
    const replay = await replayWal(next, new OtlpIngest({ sink: assembler, settings: ingestSettings(meter.settings) }), meter.settings);
    expect(replay.replayed).toBe(1);
    expect(await meter.sum('tracejudge.wal.replayed')).toBe(1);
    expect(await meter.sum('tracejudge.wal.unsettled')).toBe(1);
    await assembler.flush();
    await new Promise((res) => setImmediate(res));
    expect(await meter.sum('tracejudge.wal.unsettled')).toBe(0);
  });
});
