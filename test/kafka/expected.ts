/**
 * The test oracle: score records for traces computed in this process with the product's own pipeline and the
 * default code scorers (what `tracejudge score FILE` prints), keyed by evaluation id. A Kafka run is complete
 * when it produced exactly these evaluation ids with the same scores.
 */
import { parseConfig } from '../../src/config/load.js';
import type { ScoreRecord } from '../../src/model/score-record.js';
import type { Trace } from '../../src/model/span.js';
import { createPipeline, pipelineOptionsFromConfig } from '../../src/pipeline/pipeline.js';
import { ElementCache } from '../../src/scorers/code/completeness/element-cache.js';
import { ElementPool } from '../../src/scorers/code/completeness/element-pool.js';
import type { ConfiguredScorer } from '../../src/scorers/descriptor.js';
import { createScorerRegistry, ScorerRegistry, type ScorerFactoryContext } from '../../src/scorers/registry.js';
import { buildServiceScorers } from '../../src/service/scorers.js';
import { createSettings } from '../../src/service/settings.js';
import { silentLogger } from '../../src/telemetry/log.js';
import { MemoryEmitter } from '../pipeline/helpers.js';

/**
 * Every built-in scorer type, with the completeness scorers of every build parsing on one worker pool and
 * one element cache (the oracle's, kept warm across its calls as a long-running process keeps its own).
 */
class SharedElementsRegistry extends ScorerRegistry {
  constructor(private readonly elementPool: (size: number) => ElementPool, private readonly elementCache: ElementCache) {
    super();
    const builtIn = createScorerRegistry();
    for (const type of builtIn.types()) {
      const def = builtIn.get(type);
      if (def) this.define(type, def);
    }
  }

  override buildAll(section: Readonly<Record<string, Readonly<Record<string, unknown>>>>, context: Omit<ScorerFactoryContext, 'name'> = {}, judgeModelId?: string): Promise<ConfiguredScorer[]> {
    return super.buildAll(section, { ...context, elementPool: this.elementPool, elementCache: () => this.elementCache }, judgeModelId);
  }
}

export interface Oracle {
  /**
   * Records the default code scorers give `traces` (or the scorers of `rawConfig`, e.g. a judge scorer against the
   * stub judge), computed in-process, every run sampled.
   */
  expectedRecords(traces: readonly Trace[], rawConfig?: Record<string, unknown>): Promise<ScoreRecord[]>;
  /** Stops the completeness workers. */
  close(): Promise<void>;
}

/**
 * The oracle of one test file: each call builds the scorers and the pipeline anew from its config (as
 * `tracejudge score` would), sharing only the completeness worker pool (warmed once) and element cache.
 */
export function createOracle(): Oracle {
  const cache = new ElementCache();
  let pool: ElementPool | undefined;
  let warm: Promise<void> | undefined;
  const elementPool = (size: number): ElementPool => {
    pool ??= new ElementPool(size);
    pool.grow(size);
    return pool;
  };
  return {
    async expectedRecords(traces, rawConfig = {}) {
      const registry = new SharedElementsRegistry(elementPool, cache);
      const config = parseConfig(rawConfig, '<kafka-test>', {}, { scorers: registry });
      const settings = createSettings(config, { env: {}, logger: silentLogger(), prometheus: false, scorers: registry });
      const emitter = new MemoryEmitter();
      try {
        const { scorers, economics } = await buildServiceScorers(config, settings);
        // Completeness parses in worker threads: they load compromise and warm up before the first run.
        if (pool) await (warm ??= pool.start());
        const pipeline = createPipeline({
          ...pipelineOptionsFromConfig(config),
          scorers,
          emitter,
          source: 'kafka',
          settings,
          judges: settings.judges,
          ...(economics ? { economics } : {}),
        });
        for (const t of traces) await pipeline.handleTrace(t);
        await pipeline.idle();
      } finally {
        settings.judges.close();
        await settings.meters.provider.shutdown();
      }
      return emitter.records;
    },
    async close() {
      await pool?.close();
    },
  };
}

/** The comparable part of a record: identity and outcome, not timing. */
export function essence(r: Pick<ScoreRecord, 'evaluationId' | 'traceId' | 'spanId' | 'scorer' | 'score' | 'label'>): string {
  return `${r.evaluationId} ${r.traceId}/${r.spanId}/${r.scorer} ${String(r.score)} ${String(r.label)}`;
}

/**
 * Checks a consumed record list against the oracle: every expected evaluation is present, nothing else is,
 * and every duplicate of an evaluation id carries the same trace, span, scorer and score.
 * Returns the number of duplicate records (at-least-once redeliveries).
 */
export function compareRecords(got: readonly ScoreRecord[], expected: readonly ScoreRecord[]): { missing: string[]; unexpected: string[]; inconsistent: string[]; duplicates: number } {
  const want = new Map(expected.map((r) => [r.evaluationId, essence(r)]));
  const seen = new Map<string, string>();
  const unexpected: string[] = [];
  const inconsistent: string[] = [];
  let duplicates = 0;
  for (const r of got) {
    const e = essence(r);
    const prev = seen.get(r.evaluationId);
    if (prev !== undefined) {
      duplicates++;
      if (prev !== e) inconsistent.push(`${prev} != ${e}`);
      continue;
    }
    seen.set(r.evaluationId, e);
    const w = want.get(r.evaluationId);
    if (w === undefined) unexpected.push(e);
    else if (w !== e) inconsistent.push(`expected ${w}, got ${e}`);
  }
  const missing = [...want.keys()].filter((id) => !seen.has(id)).map((id) => want.get(id) as string);
  return { missing, unexpected, inconsistent, duplicates };
}
