/**
 * Kafka: tracejudge (Kafka source → assembler → extraction → string code scorers → JSONL) against a bare
 * kafkajs consumer that only decodes the same topic, both reading it from the beginning in their own group.
 * Needs the development broker on 127.0.0.1:9092 (scripts/kafka/start.sh); without it, "not measured".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import { decodeTraceRequestProto } from '../../src/ingest/otlp/decode.js';
import { Interner } from '../../src/ingest/otlp/intern.js';
import type { Pipeline } from '../../src/pipeline/pipeline.js';
import { benchConfig, benchService, STRING_SCORERS } from '../lib/bench-service.js';
import { buildDataset, type Dataset } from '../lib/dataset.js';
import type { Row } from '../lib/results.js';
import { median } from '../lib/stats.js';
import type { BenchContext } from './context.js';

const BROKER = '127.0.0.1:9092';
const ROUNDS = 3;

function brokerAnswers(): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(9092, '127.0.0.1');
    const done = (ok: boolean): void => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(1000, () => done(false));
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

async function waitFor(cond: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
  return true;
}

async function bare(kafka: Kafka, topic: string, ds: Dataset, timeoutMs: number, round = 0): Promise<{ seconds: number; spans: number }> {
  const consumer = kafka.consumer({ groupId: `${topic}-bare-${round}` });
  // One interner for the whole stream, as the tracejudge source has.
  const interner = new Interner();
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  let spans = 0;
  let t0 = 0;
  let t1 = 0;
  await consumer.run({
    eachBatch: async ({ batch, resolveOffset, heartbeat }) => {
      if (t0 === 0) t0 = performance.now();
      for (const m of batch.messages) {
        if (m.value) spans += decodeTraceRequestProto(m.value, interner).spans.length;
        resolveOffset(m.offset);
      }
      if (spans >= ds.spans && t1 === 0) t1 = performance.now();
      await heartbeat();
    },
  });
  await waitFor(() => t1 !== 0, timeoutMs);
  await consumer.disconnect();
  return { seconds: ((t1 || performance.now()) - t0) / 1000, spans };
}

export async function tracejudgeConsume(topic: string, ds: Dataset, timeoutMs: number, round = 0): Promise<{ seconds: number; spans: number; traces: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'tracejudge-bench-'));
  // The service as `serve` builds it, with the Kafka source on and the OTLP receivers off.
  const config = benchConfig(STRING_SCORERS, join(dir, 'scores.jsonl'), {
    sources: {
      otlp: { http: { enabled: false }, grpc: { enabled: false } },
      kafka: {
        enabled: true,
        brokers: [BROKER],
        topic,
        groupId: `${topic}-tracejudge-${round}`,
        clientId: 'tracejudge-bench',
        encoding: 'otlp_proto',
        initialOffset: 'earliest',
        commitIntervalMs: 1000,
        sessionTimeoutMs: 30_000,
        heartbeatIntervalMs: 3000,
      },
    },
  });
  const service = await benchService(config, { source: { kind: 'configured' } });
  const pipeline = service.pipeline as Pipeline;
  let t0 = 0;
  const started = performance.now();
  await service.start();
  // The clock starts with the first span, as for the bare consumer (group join time excluded on both sides).
  await waitFor(() => service.assembler.stats.spansAccepted > 0, timeoutMs);
  t0 = performance.now();
  await waitFor(() => pipeline.stats().tracesDone >= ds.traces, Math.max(0, timeoutMs - (t0 - started)));
  const t1 = performance.now();
  await service.shutdown(Date.now() + 10_000);
  rmSync(dir, { recursive: true, force: true });
  return { seconds: (t1 - t0) / 1000, spans: service.assembler.stats.spansAccepted, traces: pipeline.stats().tracesDone };
}

export async function kafkaScenario(ctx: BenchContext): Promise<Row[]> {
  const scenario = 'kafka (otlp_proto, from earliest)';
  if (!(await brokerAnswers())) {
    return [{ scenario, metric: 'tracejudge vs bare consumer', value: null, note: `no broker on ${BROKER}; start it with scripts/kafka/start.sh` }];
  }
  const ds = buildDataset('kafka', ctx.quick ? 1500 : 5000, 64, { seed: 77, messageSize: 'llm' });
  const topic = `bench_otlp_${process.pid}_${Date.now()}`;
  const kafka = new Kafka({ clientId: 'tracejudge-bench', brokers: [BROKER], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  try {
    return await measure(ctx, kafka, admin, ds, topic, scenario);
  } finally {
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect();
  }
}

/** Creates `topic` (2 partitions) and writes the dataset's protobuf requests to it, as the Collector would. */
export async function produceDataset(kafka: Kafka, admin: Admin, ds: Dataset, topic: string): Promise<void> {
  await admin.createTopics({ topics: [{ topic, numPartitions: 2 }], waitForLeaders: true });
  const producer = kafka.producer();
  await producer.connect();
  // Four messages per produce request: ~64 llm spans are ~170 KB, and the broker caps a record batch at 1 MB.
  for (let i = 0; i < ds.proto.length; i += 4) {
    const chunk = ds.proto.slice(i, i + 4).map((value, k) => ({ key: ds.traceIdsByRequest[i + k]?.[0] ?? null, value: Buffer.from(value) }));
    await producer.send({ topic, messages: chunk });
  }
  await producer.disconnect();
}

async function measure(ctx: BenchContext, kafka: Kafka, admin: Admin, ds: Dataset, topic: string, scenario: string): Promise<Row[]> {
  await produceDataset(kafka, admin, ds, topic);
  const timeoutMs = ctx.quick ? 30_000 : 120_000;
  // Alternating rounds in one process, each side in a fresh consumer group reading from the beginning; the
  // median of each side is reported (the first round carries JIT warm-up for both).
  const bares: Array<{ seconds: number; spans: number }> = [];
  const tjs: Array<{ seconds: number; spans: number; traces: number }> = [];
  for (let round = 0; round < ROUNDS; round++) {
    bares.push(await bare(kafka, topic, ds, timeoutMs, round));
    tjs.push(await tracejudgeConsume(topic, ds, timeoutMs, round));
  }
  const bareRates = bares.map((b) => b.spans / b.seconds);
  const tjRates = tjs.map((t) => t.spans / t.seconds);
  const bareRate = median(bareRates);
  const tjRate = median(tjRates);
  const b = { spans: Math.min(...bares.map((x) => x.spans)), seconds: ds.spans / bareRate };
  const t = { traces: Math.min(...tjs.map((x) => x.traces)), seconds: ds.spans / tjRate };
  const complete = t.traces >= ds.traces && b.spans >= ds.spans;
  const ratio = tjRate / bareRate;
  const fmt = (v: number): string => Math.round(v).toLocaleString('en-US');
  ctx.notes.push(
    `Kafka rounds (bare / tracejudge spans/s, in order): ${bareRates.map((r, i) => `${fmt(r)} / ${fmt(tjRates[i] ?? 0)}`).join('; ')}.`,
  );
  ctx.notes.push(
    `Kafka: ${ds.proto.length} messages (${ds.spans} spans, ~64 spans per ExportTraceServiceRequest) on a fresh 2-partition topic; each side reads it from the beginning in its own consumer group, timed from its first fetched batch to the last span decoded (bare) or the last trace scored and handed to the JSONL emitter (tracejudge, 4 string code scorers); ${ROUNDS} alternating rounds, each side's median reported.`,
  );
  return [
    { scenario, metric: 'bare kafkajs consumer (decode only)', value: bareRate, unit: 'spans/s', ...(b.spans < ds.spans ? { note: `only ${b.spans}/${ds.spans} spans before the timeout` } : {}) },
    { scenario, metric: 'bare kafkajs consumer messages/s', value: ds.proto.length / b.seconds, unit: 'msg/s' },
    {
      scenario,
      metric: 'tracejudge with code scorers',
      value: tjRate,
      unit: 'spans/s',
      baseline: bareRate,
      baselineName: 'bare consumer',
      ratio,
      target: 'ratio ≥ 0.7',
      met: complete && ratio >= 0.7,
      ...(complete ? {} : { note: `incomplete: ${t.traces}/${ds.traces} traces scored before the timeout` }),
    },
    { scenario, metric: 'tracejudge messages/s', value: ds.proto.length / t.seconds, unit: 'msg/s' },
  ];
}
