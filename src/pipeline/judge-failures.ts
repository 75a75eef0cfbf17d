/**
 * A warn line while the judge fails: judge evaluations that ended as error records are counted by kind and
 * reported at most once per interval, with the counts of the interval (`judge failing: 42 errors,
 * 3 timeouts, 0 scored in the last 60 s`). The first failure after a quiet interval is reported at once.
 * A run observer: it sees the records the pipeline emitted, so every retry the judge client made is
 * already behind it.
 */
import type { Logger } from 'pino';
import type { RunObserver, ScoredRun } from './pipeline.js';

export interface JudgeFailureLogOptions {
  logger: Logger;
  /** At most one line per this many ms (`telemetry.health.judgeFailureLogIntervalMs`). */
  intervalMs: number;
  now: () => number;
}

export class JudgeFailureLog implements RunObserver {
  #errors = 0;
  #timeouts = 0;
  #scored = 0;
  #byType: Record<string, number> = {};
  #windowStart: number | undefined;
  #lastLineAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: JudgeFailureLogOptions) {}

  runScored(run: ScoredRun): void {
    const now = this.options.now();
    // A window without failures is forgotten once it is an interval old: a line counts recent calls only.
    if (this.#windowStart !== undefined && this.#errors + this.#timeouts === 0 && now - this.#windowStart >= this.options.intervalMs) this.#reset(undefined);
    let failed = false;
    for (const r of run.records) {
      if (!r.judgeModel) continue;
      this.#windowStart ??= now;
      if (!r.error) {
        this.#scored++;
        continue;
      }
      failed = true;
      if (r.error.type === 'judge_timeout') this.#timeouts++;
      else this.#errors++;
      this.#byType[r.error.type] = (this.#byType[r.error.type] ?? 0) + 1;
    }
    if (failed) this.#maybeLog(now);
  }

  #maybeLog(now: number): void {
    if (now - this.#lastLineAt < this.options.intervalMs) return;
    const seconds = Math.max(0, Math.round((now - (this.#windowStart ?? now)) / 1000));
    this.options.logger.warn(
      { errors: this.#errors, timeouts: this.#timeouts, scored: this.#scored, byType: this.#byType, windowSeconds: seconds },
      `judge failing: ${this.#errors} errors, ${this.#timeouts} timeouts, ${this.#scored} scored in the last ${seconds} s`,
    );
    this.#lastLineAt = now;
    this.#reset(now);
  }

  #reset(windowStart: number | undefined): void {
    this.#errors = 0;
    this.#timeouts = 0;
    this.#scored = 0;
    this.#byType = {};
    this.#windowStart = windowStart;
  }
}
