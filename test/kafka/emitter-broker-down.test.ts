/**
 * Issue #30, the Kafka emitter: the real service (OTLP/HTTP in, score records to Kafka) writes to a second,
 * private broker on 127.0.0.1:19192 (its own data dir; scripts/kafka/start.sh with TRACEJUDGE_KAFKA_* set),
 * which is stopped by its pid for `OUTAGE_MS` and started again, while a Collector-like client keeps sending.
 * The shared broker on 9092 is never touched. Counts: sent, acknowledged, delivered (trace ids with a record
 * in the topic), lost, duplicated (records read more than once), and the warn/error log lines of the outage.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post } from '../reliability/helpers/clients.js';
import { CODE_SCORERS, startDeliveryService, type DeliveryService } from '../reliability/helpers/delivery-service.js';
import { MemorySampler, mib } from '../reliability/helpers/memory.js';
import { writeResult } from '../reliability/helpers/results.js';
import { Rng } from '../reliability/helpers/rng.js';
import { ROOT } from '../reliability/helpers/serve-process.js';
import { ProtoStamper } from '../reliability/helpers/traces.js';
import { uniqueName, waitFor } from './helpers.js';

const run = promisify(execFile);
const PORT = 19192;
const OUTAGE_MS = Number(process.env.TRACEJUDGE_EMIT_OUTAGE_MS ?? 15_000);
const dir = mkdtempSync(join(tmpdir(), 'tj-kafka-private-'));
const env = {
  ...process.env,
  TRACEJUDGE_KAFKA_PORT: String(PORT),
  TRACEJUDGE_KAFKA_CONTROLLER_PORT: String(PORT + 1),
  TRACEJUDGE_KAFKA_DIR: dir,
  TRACEJUDGE_KAFKA_LIBS: join(ROOT, '.kafka', 'libs'),
  TRACEJUDGE_KAFKA_HEAP: '384m',
};
/** Starts (or restarts, on its data) the private broker; stop.sh stops it by the pid in its own dir. */
const startBroker = (): Promise<unknown> => run('bash', [join(ROOT, 'scripts/kafka/start.sh')], { env, timeout: 90_000 });
const stopBroker = (): Promise<unknown> => run('bash', [join(ROOT, 'scripts/kafka/stop.sh')], { env, timeout: 40_000 });

describe('Kafka emitter with its broker down', () => {
  let service: DeliveryService | undefined;
  let consumer: Consumer | undefined;
  beforeAll(async () => {
    await startBroker();
  }, 120_000);
  afterAll(async () => {
    await consumer?.disconnect().catch(() => undefined);
    await service?.service.shutdown(Date.now() + 3000).catch(() => undefined);
    await stopBroker().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it(`rides out a ${OUTAGE_MS / 1000} s broker outage: 0 acknowledged traces lost, a few log lines`, { timeout: OUTAGE_MS * 2 + 120_000 }, async () => {
    const topic = uniqueName('tj-scores');
    const logs: { level: number; msg: string; at: number }[] = [];
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk: Buffer, _enc, done) {
          for (const l of chunk.toString().split('\n').filter(Boolean)) logs.push({ ...(JSON.parse(l) as { level: number; msg: string }), at: Date.now() });
          done();
        },
      }),
    );
    service = await startDeliveryService(
      {
        sources: { otlp: { http: { port: 0 }, grpc: { enabled: false } } },
        assembly: { decisionWaitMs: 200, tickMs: 50, maxInFlightTraces: 32, maxQueuedTraces: 100 },
        scorers: CODE_SCORERS,
        sampling: { default: { rate: 1 } },
        live: { enabled: false },
        emit: {
          stdout: { enabled: false },
          prometheus: { enabled: false },
          kafka: { enabled: true, brokers: [`127.0.0.1:${PORT}`], topic, requestTimeoutMs: 3000 },
          buffer: { maxRecords: 300 },
          retry: { initialBackoffMs: 200, maxBackoffMs: 2000 },
        },
        telemetry: { shutdownTimeoutMs: 5000 },
      },
      logger,
    );
    const url = `${service.httpUrl}/v1/traces`;
    const stamper = new ProtoStamper(new Rng(0x32));
    const sent = new Set<string>();
    const acknowledged = new Set<string>();
    const statuses: Record<string, number> = {};
    let sending = true;
    const client = (async () => {
      while (sending) {
        const b = stamper.batch(5);
        for (const id of b.traceIds) sent.add(id);
        while (sending) {
          const a = await post(url, b.body, 'application/x-protobuf').catch(() => ({ status: 0, headers: new Headers() }));
          statuses[a.status] = (statuses[a.status] ?? 0) + 1;
          if (a.status === 200) {
            for (const id of b.traceIds) acknowledged.add(id);
            break;
          }
          await new Promise((r) => setTimeout(r, Math.min(1000, Number(a.headers.get('retry-after') ?? '1') * 1000)));
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    })();

    const memory = new MemorySampler(undefined, 200);
    let maxBuffered = 0;
    const watch = setInterval(() => {
      for (const o of service?.outputs ?? []) maxBuffered = Math.max(maxBuffered, o.buffered);
    }, 50);
    await new Promise((r) => setTimeout(r, 4000));
    const downAt = Date.now();
    await stopBroker();
    await new Promise((r) => setTimeout(r, Math.max(0, downAt + OUTAGE_MS - Date.now())));
    await startBroker();
    const upAt = Date.now();
    await new Promise((r) => setTimeout(r, 3000));
    sending = false;
    await client;
    clearInterval(watch);
    const peaks = memory.stop();

    // Read the topic back from the restarted broker.
    const records = new Map<string, number>();
    const traces = new Set<string>();
    const kafka = new Kafka({ clientId: 'tj-test-reader', brokers: [`127.0.0.1:${PORT}`], logLevel: logLevel.NOTHING });
    consumer = kafka.consumer({ groupId: uniqueName('reader') });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        const r = JSON.parse(message.value?.toString() ?? '{}') as { evaluationId: string; traceId: string };
        records.set(r.evaluationId, (records.get(r.evaluationId) ?? 0) + 1);
        traces.add(r.traceId);
        return Promise.resolve();
      },
    });
    await waitFor(() => [...acknowledged].every((id) => traces.has(id)), 60_000, 'every acknowledged trace in the topic').catch(() => undefined);
    const lost = [...acknowledged].filter((id) => !traces.has(id)).length;
    let duplicated = 0;
    for (const c of records.values()) duplicated += c - 1;
    const outageLogs = logs.filter((l) => l.at >= downAt && l.at <= upAt && l.level >= 40);
    writeResult('kafka-emitter-broker-down', {
      outageMs: upAt - downAt,
      sent: sent.size,
      acknowledged: acknowledged.size,
      delivered: acknowledged.size - lost,
      lost,
      duplicated,
      records: records.size,
      statuses,
      warnOrErrorLinesDuringOutage: outageLogs.length,
      maxBufferedRecords: maxBuffered,
      bufferBound: 300,
      peakRssMiB: mib(peaks.peakRssBytes),
      outageMessages: [...new Set(outageLogs.map((l) => l.msg))],
    });
    expect(acknowledged.size).toBeGreaterThan(100);
    expect(lost).toBe(0);
    // The outage took effect: records were held for the broker, and the output said so.
    expect(maxBuffered).toBeGreaterThan(0);
    expect(outageLogs.length).toBeGreaterThan(0);
    expect(outageLogs.length).toBeLessThan(30);
    expect(maxBuffered).toBeLessThanOrEqual(300);
    expect(peaks.peakRssBytes).toBeLessThanOrEqual(512 * 1024 * 1024);
  });
});
