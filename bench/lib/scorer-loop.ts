/** The scorer timing loop; bench/reference/run-scorers.mjs runs the same loop for the reference. */
import { performance } from 'node:perf_hooks';

export interface Runnable {
  run(input: never): Promise<{ score?: unknown }>;
}

export interface LoopResult {
  runsPerS: number;
  scores: unknown[];
}

/**
 * One untimed pass collecting scores, then whole passes over `inputs` until `budgetMs` has elapsed.
 * `beforePass` runs before every pass, timed (e.g. clearing a scorer's cache so each pass is a fresh
 * stream and only texts recurring within it can hit).
 */
export async function timeScorer(scorer: Runnable, inputs: readonly unknown[], budgetMs: number, beforePass?: () => void): Promise<LoopResult> {
  const run = scorer.run.bind(scorer) as (x: unknown) => Promise<{ score?: unknown }>;
  const scores: unknown[] = [];
  beforePass?.();
  for (const x of inputs) scores.push((await run(x)).score);
  let runs = 0;
  const t0 = performance.now();
  let elapsed = 0;
  while (elapsed < budgetMs) {
    beforePass?.();
    for (const x of inputs) await run(x);
    runs += inputs.length;
    elapsed = performance.now() - t0;
  }
  return { runsPerS: runs / (elapsed / 1000), scores };
}
