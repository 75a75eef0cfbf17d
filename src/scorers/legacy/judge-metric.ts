/** What the judge-based legacy metrics share: the scorer they run, the run they build, `info.reason`. */
import type { ScorerLike, ScorerRun, ScorerRunResult } from '../core/types.js';
import { checkMeasureArgs, legacyRun, Metric, reasonOf, runForScore, type MetricResultWithReason } from './metric.js';

/** Options every judge metric takes. */
export interface ScaleOptions {
  /** Maximum score (default 1). */
  scale?: number;
}

/**
 * A legacy metric over a judge scorer. `measure(input, output)` scores `input` as the user message and `output`
 * as the answer, and resolves to `{ score, info: { reason, ... } }`.
 */
export abstract class JudgeMetric<Info extends Record<string, unknown> = Record<string, never>> extends Metric {
  /** The scorer this metric runs (a `MastraScorer`). */
  readonly scorer: ScorerLike;
  readonly #name: string;

  protected constructor(name: string, scorer: ScorerLike) {
    super();
    this.#name = name;
    this.scorer = scorer;
  }

  /** The scorer run for the two strings; subclasses add ground truth or system messages. */
  protected runFor(input: string, output: string): ScorerRun {
    return legacyRun(input, output);
  }

  /** Extra `info` fields read from the scorer's step results. */
  protected extraInfo(_result: ScorerRunResult): Info {
    return {} as Info;
  }

  async measure(input: string, output: string): Promise<MetricResultWithReason & { info: { reason: string } & Info }> {
    checkMeasureArgs(this.#name, input, output);
    const r = await runForScore(this.#name, this.scorer, this.runFor(input, output));
    return { score: r.score, info: { reason: reasonOf(r), ...this.extraInfo(r) } };
  }
}
