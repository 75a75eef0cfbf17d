/**
 * Skipped runs, said where people look (issue 31, part 4): a run with an evaluation that did not apply
 * (`no-output`, `no-input`, …: mostly runs whose content the app did not capture) has no record from that
 * scorer, so a table of records alone shows nothing. {@link SkippedRuns} counts them by reason, with the
 * conventions of the runs that lacked content, for `score`'s closing summary and the demo's; and
 * {@link SkippedRunLog} writes a throttled warn line from `serve`. The fix per convention is
 * `extract --explain`'s ({@link contentCaptureHint}).
 */
import type { Logger } from 'pino';
import { contentCaptureHint } from '../extract/empty-runs.js';
import type { Convention } from '../model/agent-run.js';
import { SKIP_REASONS } from '../telemetry/instruments.js';
import type { RunObserver, ScoredRun } from './pipeline.js';

/** Reasons that mean the run's content is missing (the app did not capture it). */
const CONTENT_REASONS: ReadonlySet<string> = new Set(['no-output', 'no-input']);

/** The bounded reason of a skip: one of {@link SKIP_REASONS}, else `not-scorable` (a scorer's own reason). */
export function skipReasonOf(reason: string): string {
  return (SKIP_REASONS as readonly string[]).includes(reason) ? reason : 'not-scorable';
}

/** Counts of skipped runs and evaluations by reason, and the conventions of runs without content. */
export class SkippedRuns implements RunObserver {
  /** Runs with at least one skipped evaluation. */
  runs = 0;
  evaluations = 0;
  /** Per bounded reason: runs (counted once per reason) and evaluations. */
  readonly byReason = new Map<string, { runs: number; evaluations: number }>();
  /** Conventions of the runs skipped for missing content, with how many runs each. */
  readonly contentConventions = new Map<Convention, number>();

  runScored({ context, skipped }: ScoredRun): void {
    if (!skipped || skipped.length === 0) return;
    this.runs++;
    this.evaluations += skipped.length;
    const seen = new Set<string>();
    for (const s of skipped) {
      const reason = skipReasonOf(s.reason);
      const c = this.byReason.get(reason) ?? { runs: 0, evaluations: 0 };
      c.evaluations++;
      if (!seen.has(reason)) c.runs++;
      seen.add(reason);
      this.byReason.set(reason, c);
    }
    if ([...seen].some((r) => CONTENT_REASONS.has(r))) {
      const convention = context.run.convention;
      this.contentConventions.set(convention, (this.contentConventions.get(convention) ?? 0) + 1);
    }
  }

  get empty(): boolean {
    return this.runs === 0;
  }

  /** `no-output 3 run(s) / 6 evaluation(s), no-input 1 run(s) / 2 evaluation(s)`, most runs first. */
  reasonsText(): string {
    return [...this.byReason]
      .sort(([a, x], [b, y]) => y.runs - x.runs || a.localeCompare(b))
      .map(([reason, c]) => `${reason} ${c.runs} run(s) / ${c.evaluations} evaluation(s)`)
      .join(', ');
  }

  /** One hint per convention whose runs lacked content: how to turn content capture on. */
  hints(): string[] {
    return [...this.contentConventions.keys()].sort().map((c) => `${c}: ${contentCaptureHint(c)}`);
  }

  /** Lines for a closing summary; none when nothing was skipped. */
  summaryLines(): string[] {
    if (this.empty) return [];
    const lines = [`skipped: ${this.runs} run(s), ${this.evaluations} evaluation(s) not applicable: ${this.reasonsText()}`];
    const hints = this.hints();
    if (hints.length > 0) {
      lines.push('content not captured; to turn content capture on:');
      for (const h of hints) lines.push(`  ${h}`);
    }
    return lines;
  }

  reset(): void {
    this.runs = 0;
    this.evaluations = 0;
    this.byReason.clear();
    this.contentConventions.clear();
  }
}

export interface SkippedRunLogOptions {
  logger: Logger;
  /** At most one line per this many ms. */
  intervalMs: number;
  now: () => number;
}

/** Default interval of the `serve` warn line about skipped runs. */
export const SKIPPED_RUN_LOG_INTERVAL_MS = 60_000;

/**
 * The `serve` warn line: at most one per interval, with the runs skipped since the last line, why, and how
 * to turn content capture on for the conventions seen. The first skip after a quiet interval is said at once.
 */
export class SkippedRunLog implements RunObserver {
  readonly #window = new SkippedRuns();
  #lastLineAt = Number.NEGATIVE_INFINITY;
  #windowStart: number | undefined;

  constructor(private readonly options: SkippedRunLogOptions) {}

  runScored(run: ScoredRun): void {
    if (!run.skipped || run.skipped.length === 0) return;
    const now = this.options.now();
    this.#windowStart ??= now;
    this.#window.runScored(run);
    if (now - this.#lastLineAt < this.options.intervalMs) return;
    const w = this.#window;
    const seconds = Math.max(0, Math.round((now - this.#windowStart) / 1000));
    const hints = w.hints();
    const reasons: Record<string, number> = {};
    for (const [r, c] of w.byReason) reasons[r] = c.runs;
    this.options.logger.warn(
      { runs: w.runs, evaluations: w.evaluations, reasons, conventions: [...w.contentConventions.keys()].sort(), windowSeconds: seconds, ...(hints.length > 0 ? { fix: hints } : {}) },
      `runs skipped: ${w.runs} run(s) in the last ${seconds} s had evaluations that did not apply (${w.reasonsText()})` +
        (hints.length > 0 ? `; content not captured, to turn it on: ${hints.join(' | ')}` : ''),
    );
    this.#lastLineAt = now;
    this.#windowStart = undefined;
    w.reset();
  }
}
