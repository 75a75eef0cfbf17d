/**
 * Scores trace files through the one service graph (`buildService` with a files source, every run scored:
 * sampling off), code and judge scorers alike, and keeps each run with its records and its agent span's
 * attributes, for calibration.
 */
import type { Config } from '../config/schema.js';
import type { ScoreRecord } from '../model/score-record.js';
import type { Attributes } from '../model/span.js';
import type { RunObserver, ScoredRun } from '../pipeline/pipeline.js';
import type { ConfiguredScorer } from '../scorers/descriptor.js';
import { buildService, runToEnd } from '../service/build.js';
import type { Settings } from '../service/settings.js';

/** One scored run. */
export interface CollectedRun {
  traceId: string;
  spanId: string;
  agentName: string;
  /** The agent span's attributes (labels may be carried there). */
  attributes: Attributes;
  records: readonly ScoreRecord[];
}

export interface Collected {
  runs: CollectedRun[];
  scorers: readonly ConfiguredScorer[];
}

class Keep implements RunObserver {
  readonly runs: CollectedRun[] = [];
  runScored(r: ScoredRun): void {
    const { run, span } = r.context;
    this.runs.push({ traceId: run.traceId, spanId: run.spanId, agentName: run.agentName, attributes: span.attributes, records: [...r.records] });
  }
}

/**
 * Score every run of `paths` with the configured scorers (or the embedded default). Records go nowhere
 * else: no emitter runs.
 *
 * @example
 * ```ts
 * const { runs } = await collectRuns(config, createSettings(config, { prometheus: false }), ['test/fixtures/labeled/aisdk6.json']);
 * ```
 */
export async function collectRuns(config: Config, settings: Settings, paths: readonly string[], configPath?: string): Promise<Collected> {
  const keep = new Keep();
  const service = await buildService(config, settings, {
    source: { kind: 'files', paths },
    sampleAll: true,
    emitters: [],
    observers: [keep],
    ...(configPath ? { configPath } : {}),
  });
  await runToEnd(service);
  const order = (a: CollectedRun, b: CollectedRun): number => (a.traceId === b.traceId ? a.spanId.localeCompare(b.spanId) : a.traceId.localeCompare(b.traceId));
  return { runs: keep.runs.sort(order), scorers: service.scorers };
}
