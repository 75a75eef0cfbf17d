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
  /**
   * Runs awaited at once (default 1: each run awaited before the next starts). More is how the service
   * scores: it handles up to `assembly.maxInFlightTraces` traces at a time, so a scorer that parses off the
   * event loop has several runs in progress.
   */
  inFlight?: number;
}

type Run = (x: unknown) => Promise<{ score?: unknown }>;

/** One pass over `inputs` with up to `inFlight` runs awaited at once; `scores[i]` gets input i's score when given. */
async function pass(run: Run, inputs: readonly unknown[], inFlight: number, beforeRun?: () => void, scores?: unknown[]): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < inputs.length) {
      const i = next++;
      beforeRun?.();
      const { score } = await run(inputs[i]);
      if (scores) scores[i] = score;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(inFlight, inputs.length)) }, lane));
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
  const { warmupMs = 0, beforePass, beforeRun, inFlight = 1 } = options;
  const run = scorer.run.bind(scorer) as Run;
  const scores: unknown[] = [];
  beforePass?.();
  await pass(run, inputs, inFlight, beforeRun, scores);
  for (const w0 = performance.now(); performance.now() - w0 < warmupMs; ) {
    beforePass?.();
    await pass(run, inputs, inFlight, beforeRun);
  }
  let runs = 0;
  const t0 = performance.now();
  let elapsed = 0;
  while (elapsed < budgetMs) {
    beforePass?.();
    await pass(run, inputs, inFlight, beforeRun);
    runs += inputs.length;
    elapsed = performance.now() - t0;
  }
  return { runsPerS: runs / (elapsed / 1000), scores };
}
