/**
 * The product pipeline as the bench runs it: config → code scorers from the registry → extract → sample
 * (every run) → score → JSON-lines emitter, behind `startService`'s OTLP/HTTP receiver and assembler.
 * Composed here from the landed parts (createPipeline, registry, createEmitters, startService) because the
 * service does not yet build the pipeline from config by itself.
 */
import { performance } from 'node:perf_hooks';
import { configSchema, type Config } from '../../src/config/schema.js';
import { createEmitters } from '../../src/emit/create-emitters.js';
import type { FanoutEmitter } from '../../src/emit/fanout.js';
import type { EmitResult, Emitter, ScoreRecord } from '../../src/model/score-record.js';
import { startService, type RunningService } from '../../src/service.js';
import type { Trace } from '../../src/model/span.js';
import { configuredScorerOf } from '../../src/pipeline/configured-scorer.js';
import { createPipeline, type Pipeline } from '../../src/pipeline/pipeline.js';
import { createSamplingPolicy } from '../../src/sampling/policy.js';
import { registerCodeScorerTypes } from '../../src/scorers/code/register.js';
import { buildScorers, registerScorerType, scorerKinds } from '../../src/scorers/registry.js';

/** The string code scorers (cheap) and completeness (NLP parsing, about 100× slower per run). */
export const STRING_SCORERS = ['content-similarity', 'keyword-coverage', 'textual-difference', 'tone'] as const;

export interface BenchPipeline {
  config: Config;
  pipeline: Pipeline;
  emitter: FanoutEmitter;
  /** Wraps pipeline.handleTrace and records, per trace, when its records were handed to the emitter. */
  handleTrace: (trace: Trace) => Promise<void>;
  handled: () => number;
  doneAt: Map<string, number>;
}

/** Builds the config (every scorer type in `scorerTypes`, JSON lines to `jsonlPath`) and the pipeline. */
export async function benchPipeline(scorerTypes: readonly string[], jsonlPath: string, overrides: Record<string, unknown> = {}): Promise<BenchPipeline> {
  registerCodeScorerTypes(registerScorerType);
  const config = configSchema.parse({
    sources: { otlp: { http: { host: '127.0.0.1', port: 0 }, grpc: { enabled: false } } },
    assembly: { decisionWaitMs: 0, tickMs: 5, maxBufferedTraces: 1_000_000, maxQueuedTraces: 1_000_000, maxBufferedBytes: 2 ** 40 },
    scorers: Object.fromEntries(scorerTypes.map((t) => [t, { type: t }])),
    sampling: { default: { rate: 1 } },
    emit: { stdout: { enabled: false }, jsonl: { path: jsonlPath }, prometheus: { enabled: false }, buffer: { maxRecords: 1_000_000 } },
    ...overrides,
  });
  const built = await buildScorers(config);
  const scorers = built.map((s) => configuredScorerOf(s));
  const policy = createSamplingPolicy(config.sampling, scorerKinds(config));
  const emitter = createEmitters(config, { metrics: false });
  const pipeline = createPipeline({ scorers, policy: () => policy, emitter, source: 'otlp', judgeConcurrency: 1, maxQueuedJudgeEvaluations: 100 });
  const doneAt = new Map<string, number>();
  let handled = 0;
  return {
    config,
    pipeline,
    emitter,
    doneAt,
    handled: () => handled,
    handleTrace: async (trace) => {
      await pipeline.handleTrace(trace);
      handled++;
      doneAt.set(trace.traceId, performance.now());
    },
  };
}

/** The configured emitters, noting when each trace's records were handed over (for latency). */
export class TimingEmitter implements Emitter {
  readonly name = 'bench-timing';
  readonly doneAt = new Map<string, number>();
  constructor(private readonly inner: Emitter) {}

  emit(records: readonly ScoreRecord[]): Promise<EmitResult> {
    const now = performance.now();
    for (const r of records) this.doneAt.set(r.traceId, now);
    return this.inner.emit(records);
  }

  shutdown(deadline: number): Promise<void> {
    return this.inner.shutdown(deadline);
  }
}

/** The product service as `tracejudge serve` builds it from config (scorers, sampling, emitters), JSONL output. */
export async function startProductService(scorerTypes: readonly string[], jsonlPath: string): Promise<{ service: RunningService; emitter: TimingEmitter }> {
  const config = configSchema.parse({
    sources: { otlp: { http: { host: '127.0.0.1', port: 0 }, grpc: { enabled: false } } },
    assembly: { decisionWaitMs: 0, tickMs: 5, maxBufferedTraces: 1_000_000, maxQueuedTraces: 1_000_000, maxBufferedBytes: 2 ** 40 },
    scorers: Object.fromEntries(scorerTypes.map((t) => [t, { type: t }])),
    sampling: { default: { rate: 1 } },
    emit: { stdout: { enabled: false }, jsonl: { path: jsonlPath }, prometheus: { enabled: false }, buffer: { maxRecords: 1_000_000 } },
  });
  const emitter = new TimingEmitter(createEmitters(config));
  const service = await startService(config, { emitter });
  return { service, emitter };
}
