/**
 * In-process micro-benchmarks of single hot-path stages, without HTTP or timers, for before/after
 * comparisons on a shared machine (the scenario figures move ±30% with load; these move less).
 *
 *     node --import tsx bench/micro.ts assembler|extract|extract-fresh|pipeline|stages [rounds]
 *
 * Prints the median over `rounds` (default 7) of spans/s for the stage alone; `stages` prints µs per span
 * of extraction, each string scorer's run, evaluate() for all four, and the whole handleTrace.
 */
import { performance } from 'node:perf_hooks';
import { TraceAssembler } from '../src/ingest/assembler.js';
import { decodeTraceRequestProto } from '../src/ingest/otlp/decode.js';
import { Interner } from '../src/ingest/otlp/intern.js';
import type { Trace } from '../src/model/span.js';
import { Extractor } from '../src/extract/extract.js';
import { Evaluator, scorerRunOf } from '../src/pipeline/evaluate.js';
import { Secrets } from '../src/telemetry/log.js';
import { benchPipeline, STRING_SCORERS } from './lib/bench-service.js';
import { buildDataset } from './lib/dataset.js';
import { groupTraces } from './lib/group-traces.js';
import { median } from './lib/stats.js';

process.env.TRACEJUDGE_LOG_LEVEL ??= 'warn';
const [what = 'assembler', roundsArg = '7'] = process.argv.slice(2);
const rounds = Number(roundsArg);
const ds = buildDataset(what, 1500, 512, { seed: 99, messageSize: 'llm' });
const interner = new Interner();
const batches = ds.proto.map((b) => decodeTraceRequestProto(b, interner));
// One extractor, as a service has: its key-family table kept across traces and passes.
const extractor = new Extractor();

function traces(): Trace[] {
  return groupTraces(batches);
}

/** Every trace of the dataset from a new decode (new span objects and strings). */
function decodeFresh(): Trace[] {
  return groupTraces(ds.proto.map((b) => decodeTraceRequestProto(b, interner)));
}

async function time(fn: () => Promise<void> | void): Promise<number> {
  await fn();
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  return median(samples);
}

let ms: number;
if (what === 'assembler') {
  ms = await time(async () => {
    const assembler = new TraceAssembler({
      config: { decisionWaitMs: 0, maxBufferedTraces: 1e7, maxQueuedTraces: 1e7, maxBufferedBytes: 2 ** 45 },
      onTrace: () => Promise.resolve(),
    });
    for (const b of batches) assembler.offer({ spans: b.spans, logs: [], source: 'otlp' });
    await assembler.flush();
  });
} else if (what === 'extract') {
  const all = traces();
  ms = await time(() => {
    for (const t of all) extractor.runContexts(t);
  });
} else if (what === 'extract-fresh') {
  // As `extract`, but each pass extracts spans decoded just before it (untimed), as the service does:
  // young objects and strings never hashed or parsed before, instead of the same spans every pass.
  const samples: number[] = [];
  for (let i = 0; i <= rounds; i++) {
    const fresh = decodeFresh();
    const t0 = performance.now();
    for (const t of fresh) extractor.runContexts(t);
    if (i > 0) samples.push(performance.now() - t0);
  }
  ms = median(samples);
} else if (what === 'pipeline') {
  const all = traces();
  const bp = await benchPipeline(STRING_SCORERS, '/dev/null');
  ms = await time(async () => {
    await Promise.all(all.map((t) => bp.pipeline.handleTrace(t)));
  });
  await bp.service.shutdown(Date.now() + 30_000);
} else if (what === 'stages') {
  const all = traces();
  const contexts = all.flatMap((t) => extractor.runContexts(t));
  const bp = await benchPipeline(STRING_SCORERS, '/dev/null');
  const configured = bp.service.scorers;
  const evaluator = new Evaluator({ now: Date.now, secrets: new Secrets() });
  const perSpan = (label: string, t: number): void => {
    process.stdout.write(`${label.padEnd(34)} ${((t * 1000) / ds.spans).toFixed(2)} µs/span\n`);
  };
  perSpan('extraction', await time(() => void all.forEach((t) => extractor.runContexts(t))));
  for (const s of configured) {
    perSpan(`scorer.run ${s.name}`, await time(async () => {
      for (const c of contexts) await s.scorer.run(scorerRunOf(c, s, undefined));
    }));
  }
  perSpan('evaluate() x4 (scorers + records)', await time(async () => {
    for (const c of contexts) for (const s of configured) await evaluator.evaluate({ scorer: s, context: c, samplingRate: 1, source: 'otlp' });
  }));
  ms = await time(async () => {
    await Promise.all(all.map((t) => bp.pipeline.handleTrace(t)));
  });
  perSpan('handleTrace (all, JSONL emit)', ms);
  await bp.service.shutdown(Date.now() + 30_000);
} else {
  throw new Error(`unknown micro-benchmark ${what}`);
}
process.stdout.write(`${what}: ${Math.round(ds.spans / (ms / 1000)).toLocaleString('en-US')} spans/s (median of ${rounds}, ${ms.toFixed(1)} ms per ${ds.spans} spans)\n`);
