/** The scorer timing loop; bench/reference/run-scorers.mjs runs the same loop for the reference. */
import { performance } from 'node:perf_hooks';

export interface Runnable {
  run(input: never): Promise<{ score?: unknown }>;
}

export interface LoopResult {
  runsPerS: number;
  scores: unknown[];
}

/** Untimed whole passes before the timed ones, so both sides are measured at steady state (JIT-compiled, workers warm). */
export interface LoopOptions {
  warmupMs?: number;
  beforePass?: () => void;
  beforeRun?: () => void;
}

/**
 * One untimed pass collecting scores, untimed whole passes for `warmupMs`, then whole passes over `inputs`
 * until `budgetMs` has elapsed.
 * `beforePass` runs before every pass, timed (e.g. clearing a scorer's cache so each pass is a fresh
 * stream and only texts recurring within it can hit); `beforeRun` before every run, timed (completeness
 * with its cache cleared before each run: every text parsed).
 */
export async function timeScorer(
  scorer: Runnable,
  inputs: readonly unknown[],
  budgetMs: number,
  options: LoopOptions = {},
): Promise<LoopResult> {
  const { warmupMs = 0, beforePass, beforeRun } = options;
  const run = scorer.run.bind(scorer) as (x: unknown) => Promise<{ score?: unknown }>;
  const scores: unknown[] = [];
  beforePass?.();
  for (const x of inputs) {
    beforeRun?.();
    scores.push((await run(x)).score);
  }
  for (const w0 = performance.now(); performance.now() - w0 < warmupMs; ) {
    beforePass?.();
    for (const x of inputs) {
      beforeRun?.();
      await run(x);
    }
  }
  let runs = 0;
  const t0 = performance.now();
  let elapsed = 0;
  while (elapsed < budgetMs) {
    beforePass?.();
    for (const x of inputs) {
      beforeRun?.();
      await run(x);
    }
    runs += inputs.length;
    elapsed = performance.now() - t0;
  }
  return { runsPerS: runs / (elapsed / 1000), scores };
}
