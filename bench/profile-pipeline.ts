/**
 * CPU profile of one hot path, without data generation in it: builds the dataset first, then profiles
 * the pipeline run (string code scorers) or the ingest path (OTLP/HTTP JSON) with node:inspector and
 * writes a .cpuprofile (summarise it with bench/profile-summary.ts).
 *
 *     node --import tsx bench/profile-pipeline.ts pipeline|pipeline-floor|pipeline-assembly|pipeline-completeness|ingest-json|extract|kafka <out.cpuprofile>
 *
 * `PROFILE_WARMUP=N` first runs the same work N times unprofiled, so the profile shows a warm (JIT-compiled)
 * service as a long-running `serve` is, instead of V8's warm-up; `PROFILE_ROUNDS=M` profiles M rounds (1).
 *
 * `kafka` needs the development broker (scripts/kafka/start.sh); it writes the topic before profiling and
 * profiles only the tracejudge consumer (Kafka source → assembler → pipeline).
 */
import { writeFileSync } from 'node:fs';
import { Kafka, logLevel } from 'kafkajs';
import { Session } from 'node:inspector/promises';
import { decodeTraceRequestProto } from '../src/ingest/otlp/decode.js';
import { Extractor } from '../src/extract/extract.js';
import { benchConfig, benchService, startProductService, STRING_SCORERS } from './lib/bench-service.js';
import { buildDataset } from './lib/dataset.js';
import { postAll } from './lib/http-client.js';
import { produceDataset, tracejudgeConsume } from './scenarios/kafka.js';

process.env.TRACEJUDGE_LOG_LEVEL ??= 'warn';
const [what = 'pipeline', out = 'hot-path.cpuprofile'] = process.argv.slice(2);
const ds = what === 'kafka' ? buildDataset(what, 5000, 64, { seed: 77, messageSize: 'llm' }) : buildDataset(what, 1500, 512, { seed: 99, messageSize: 'llm' });
const kafkaTopic = `profile_otlp_${process.pid}`;
const kafka = new Kafka({ clientId: 'tracejudge-profile', brokers: ['127.0.0.1:9092'], logLevel: logLevel.NOTHING });
const admin = kafka.admin();
if (what === 'kafka') {
  await admin.connect();
  await produceDataset(kafka, admin, ds, kafkaTopic);
}
const warmup = Number(process.env.PROFILE_WARMUP ?? '0');
const session = new Session();
session.connect();
await session.post('Profiler.enable');
const rounds = Number(process.env.PROFILE_ROUNDS ?? '1');
for (let round = 0; round < warmup + rounds; round++) {
  if (round === warmup) await session.post('Profiler.start');
  await work();
}

async function work(): Promise<void> {
if (what === 'pipeline-completeness') {
  const small = buildDataset(what, 400, 512, { seed: 98, messageSize: 'llm' });
  const { service } = await startProductService([...STRING_SCORERS, 'completeness'], '/dev/null');
  await postAll(service.ports().http ?? 0, small.proto, 'application/x-protobuf', 4, { maxRetries: 100, retryDelayMs: 20 });
  await service.shutdown(Date.now() + 60_000);
} else if (what === 'pipeline') {
  const { service } = await startProductService(STRING_SCORERS, '/dev/null');
  await postAll(service.ports().http ?? 0, ds.proto, 'application/x-protobuf', 4, { maxRetries: 100, retryDelayMs: 20 });
  await service.shutdown(Date.now() + 60_000);
} else if (what === 'pipeline-floor' || what === 'pipeline-assembly') {
  // The pipeline bench's floor (assembly and extraction, no scorers), or its baseline (assembly alone).
  const config = benchConfig([], '/dev/null');
  const extract = what === 'pipeline-floor';
  const extractor = new Extractor(config.extract);
  const service = await benchService(config, {
    source: { kind: 'configured' },
    handleTrace: (trace) => {
      if (extract) extractor.runContexts(trace);
      return Promise.resolve();
    },
  });
  await service.start();
  await postAll(service.ports().http ?? 0, ds.proto, 'application/x-protobuf', 4, { maxRetries: 100, retryDelayMs: 20 });
  await service.shutdown(Date.now() + 60_000);
} else if (what === 'ingest-json') {
  // The receiver and the assembler as `serve` builds them, with a handler that does nothing.
  const config = benchConfig([], '/dev/null', { sources: { otlp: { http: { host: '127.0.0.1', port: 0, maxBodyBytes: 64 * 1024 * 1024 }, grpc: { enabled: false } } } });
  const service = await benchService(config, { source: { kind: 'configured' }, handleTrace: () => Promise.resolve() });
  await service.start();
  await postAll(service.ports().http ?? 0, ds.json, 'application/json', 4);
  await service.shutdown(Date.now() + 60_000);
} else if (what === 'kafka') {
  const t = await tracejudgeConsume(kafkaTopic, ds, 120_000);
  process.stderr.write(`kafka: ${t.traces} traces, ${Math.round(t.spans / t.seconds)} spans/s\n`);
} else {
  const extractor = new Extractor();
  for (const b of ds.proto) {
    const spans = decodeTraceRequestProto(b).spans;
    const byTrace = new Map<string, typeof spans>();
    for (const s of spans) byTrace.set(s.traceId, [...(byTrace.get(s.traceId) ?? []), s]);
    for (const [traceId, list] of byTrace) extractor.runContexts({ traceId, spans: list, logs: [], source: 'otlp' });
  }
}
}
const { profile } = await session.post('Profiler.stop');
writeFileSync(out, JSON.stringify(profile));
session.disconnect();
if (what === 'kafka') {
  await admin.deleteTopics({ topics: [kafkaTopic] }).catch(() => undefined);
  await admin.disconnect();
}
process.stderr.write(`wrote ${out}\n`);
