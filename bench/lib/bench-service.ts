/**
 * The product service as the bench runs it, built by the one graph builder (`buildService`) from a
 * config: code scorers from the registry, sampling at rate 1, JSON lines to a file, an OTLP/HTTP receiver
 * (or no source, for the benches that hand traces to the pipeline themselves).
 */
import { performance } from 'node:perf_hooks';
import { parseConfig } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import { createEmitters } from '../../src/emit/create-emitters.js';
import type { EmitResult, Emitter } from '../../src/emit/emitter.js';
import type { ScoreRecord } from '../../src/model/score-record.js';
import type { Trace } from '../../src/model/span.js';
import type { Pipeline } from '../../src/pipeline/pipeline.js';
import { buildService, type BuildOptions, type Service } from '../../src/service/build.js';
import { createSettings } from '../../src/service/settings.js';
import { silentLogger } from '../../src/telemetry/log.js';

/** The string code scorers (cheap) and completeness (NLP parsing, about 100× slower per run). */
export const STRING_SCORERS = ['content-similarity', 'keyword-coverage', 'textual-difference', 'tone'] as const;

/** The bench config: every scorer type in `scorerTypes`, JSON lines to `jsonlPath`, no stdout, Prometheus on a free port. */
export function benchConfig(scorerTypes: readonly string[], jsonlPath: string, overrides: Record<string, unknown> = {}): Config {
  return parseConfig(
    {
      sources: { otlp: { http: { host: '127.0.0.1', port: 0 }, grpc: { enabled: false } } },
      assembly: { decisionWaitMs: 0, tickMs: 5, maxBufferedTraces: 1_000_000, maxQueuedTraces: 1_000_000, maxBufferedBytes: 2 ** 40 },
      scorers: Object.fromEntries(scorerTypes.map((t) => [t, { type: t }])),
      sampling: { default: { rate: 1 } },
      // Prometheus on, as `serve` has it by default (metrics are recorded for every record), on a free port.
      emit: { stdout: { enabled: false }, jsonl: { path: jsonlPath }, prometheus: { enabled: true, host: '127.0.0.1', port: 0 }, buffer: { maxRecords: 1_000_000 } },
      ...overrides,
    },
    '<bench>',
    {},
  );
}

/** The configured emitters, noting when each trace's records were handed over (for latency). */
export class TimingEmitter implements Emitter {
  readonly name = 'bench-timing';
  readonly doneAt = new Map<string, number>();
  constructor(private readonly inner: readonly Emitter[]) {}

  start(): Promise<void> {
    return Promise.all(this.inner.map((e) => e.start())).then(() => undefined);
  }

  async emit(records: readonly ScoreRecord[]): Promise<EmitResult> {
    const now = performance.now();
    for (const r of records) this.doneAt.set(r.traceId, now);
    const results = await Promise.all(this.inner.map((e) => e.emit(records)));
    return results.find((r) => r.code !== 'success') ?? { code: 'success' };
  }

  shutdown(deadline: number): Promise<void> {
    return Promise.all(this.inner.map((e) => e.shutdown(deadline))).then(() => undefined);
  }
}

/** A service for `config` (silent logs; a Prometheus reader when the config has one, as serve), built by `buildService`. */
export async function benchService(config: Config, options: BuildOptions): Promise<Service> {
  const settings = createSettings(config, { env: {}, logger: silentLogger() });
  return buildService(config, settings, options);
}

export interface BenchPipeline {
  config: Config;
  service: Service;
  pipeline: Pipeline;
  /** The pipeline's handler; records what was handled. */
  handleTrace: (trace: Trace) => Promise<void>;
  handled: () => number;
}

/** The service without a source: the bench hands assembled traces to the pipeline itself. */
export async function benchPipeline(scorerTypes: readonly string[], jsonlPath: string, overrides: Record<string, unknown> = {}): Promise<BenchPipeline> {
  const config = benchConfig(scorerTypes, jsonlPath, overrides);
  const service = await benchService(config, { source: { kind: 'manual' } });
  const pipeline = service.pipeline as Pipeline;
  return { config, service, pipeline, handleTrace: (trace) => pipeline.handleTrace(trace), handled: () => pipeline.stats().tracesDone };
}

/** The product service as `tracejudge serve` builds it (OTLP/HTTP receiver, scorers, sampling, emitters), JSON lines out. */
export async function startProductService(scorerTypes: readonly string[], jsonlPath: string): Promise<{ service: Service; emitter: TimingEmitter }> {
  const config = benchConfig(scorerTypes, jsonlPath);
  const settings = createSettings(config, { env: {}, logger: silentLogger() });
  const emitter = new TimingEmitter(createEmitters(config, { settings }));
  const service = await buildService(config, settings, { source: { kind: 'configured' }, emitters: [emitter] });
  await service.start();
  return { service, emitter };
}
