/**
 * CPU profile of one hot path, without data generation in it: builds the dataset first, then profiles
 * the pipeline run (string code scorers) or the ingest path (OTLP/HTTP JSON) with node:inspector and
 * writes a .cpuprofile (summarise it with bench/profile-summary.ts).
 *
 *     node --import tsx bench/profile-pipeline.ts pipeline|ingest-json|extract <out.cpuprofile>
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { TraceAssembler } from '../src/ingest/assembler.js';
import { createOtlpHttpReceiver } from '../src/ingest/http/receiver.js';
import { decodeTraceRequestProto } from '../src/ingest/otlp/decode.js';
import { extractAgentRunContexts } from '../src/extract/extract.js';
import { startService } from '../src/service.js';
import { benchPipeline, STRING_SCORERS } from './lib/bench-service.js';
import { buildDataset } from './lib/dataset.js';
import { postAll } from './lib/http-client.js';

process.env.TRACEJUDGE_LOG_LEVEL ??= 'warn';
const [what = 'pipeline', out = 'hot-path.cpuprofile'] = process.argv.slice(2);
const ds = buildDataset(what, 1500, 512, { seed: 99, messageSize: 'llm' });
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.start');
if (what === 'pipeline') {
  const bp = await benchPipeline(STRING_SCORERS, '/dev/null');
  const service = await startService(bp.config, { handleTrace: bp.handleTrace });
  await postAll(service.ports.http ?? 0, ds.proto, 'application/x-protobuf', 4, { maxRetries: 100, retryDelayMs: 20 });
  await service.stop();
} else if (what === 'ingest-json') {
  const assembler = new TraceAssembler({ config: { decisionWaitMs: 0, tickMs: 5, maxBufferedTraces: 1e7, maxQueuedTraces: 1e7, maxBufferedBytes: 2 ** 45 }, onTrace: () => Promise.resolve() });
  const receiver = createOtlpHttpReceiver({ host: '127.0.0.1', port: 0, maxBodyBytes: 64 * 1024 * 1024, sink: assembler, isReady: () => true });
  const port = await receiver.start();
  assembler.start();
  await postAll(port, ds.json, 'application/json', 4);
  await assembler.close();
  await receiver.shutdown();
} else {
  for (const b of ds.proto) {
    const spans = decodeTraceRequestProto(b).spans;
    const byTrace = new Map<string, typeof spans>();
    for (const s of spans) byTrace.set(s.traceId, [...(byTrace.get(s.traceId) ?? []), s]);
    for (const [traceId, list] of byTrace) extractAgentRunContexts({ traceId, spans: list, logs: [], source: 'otlp' });
  }
}
const { profile } = await session.post('Profiler.stop');
writeFileSync(out, JSON.stringify(profile));
session.disconnect();
process.stderr.write(`wrote ${out}\n`);
