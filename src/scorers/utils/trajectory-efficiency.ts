/** `checkTrajectoryEfficiency` (docs/scorers.md): step, token and duration budgets and redundant calls. */
import { clamp01, roundToTwoDecimals } from './numeric.js';
import type { Trajectory, TrajectoryStep } from './trajectory-types.js';

export interface EfficiencyOptions {
  maxSteps?: number;
  maxTotalTokens?: number;
  maxTotalDurationMs?: number;
  /** Default true. */
  noRedundantCalls?: boolean;
}

/** A repeated identical tool call: `index` is the top-level position of the repeat. */
export interface RedundantCall {
  name: string;
  index: number;
}

export interface EfficiencyResult {
  score: number;
  totalSteps: number;
  /** Σ prompt + completion tokens over every model generation (nested included). */
  totalTokens: number;
  /** Undefined when neither `totalDurationMs` nor every top-level `durationMs` is known. */
  totalDurationMs: number | undefined;
  overStepBudget: boolean;
  overTokenBudget: boolean;
  overDurationBudget: boolean;
  redundantCalls: RedundantCall[];
}

function checkBudget(name: string, v: number | undefined): void {
  if (v !== undefined && !(typeof v === 'number' && Number.isFinite(v) && v >= 0)) {
    throw new RangeError(`${name} must be a finite number ≥ 0, got ${String(v)}`);
  }
}

function modelGenerations(steps: readonly TrajectoryStep[], out: TrajectoryStep[] = []): TrajectoryStep[] {
  for (const s of steps) {
    if (s.stepType === 'model_generation') out.push(s);
    if (s.children) modelGenerations(s.children, out);
  }
  return out;
}

function budgetScore(total: number, max: number): number {
  return total > max ? Math.max(0, 1 - (total - max) / max) : 1;
}

/**
 * Score a trajectory against budgets; the score is the mean of the configured dimensions (1 when none).
 * Throws `RangeError` for a budget that is not a finite number ≥ 0, and `Error` when a token or duration
 * budget is set but the trajectory lacks the measurements.
 *
 * @example
 * ```ts
 * const t = { steps: ['a', 'b', 'c'].map((name) => ({ name, stepType: 'tool_call' as const })) };
 * checkTrajectoryEfficiency(t, { maxSteps: 2 }).score; // 0.75 = mean(0.5 steps, 1 redundancy)
 * ```
 */
export function checkTrajectoryEfficiency(trajectory: Trajectory, options: EfficiencyOptions = {}): EfficiencyResult {
  const { maxSteps, maxTotalTokens, maxTotalDurationMs } = options;
  const noRedundantCalls = options.noRedundantCalls ?? true;
  checkBudget('maxSteps', maxSteps);
  checkBudget('maxTotalTokens', maxTotalTokens);
  checkBudget('maxTotalDurationMs', maxTotalDurationMs);
  const steps = trajectory.steps;
  const totalSteps = steps.length;

  const gens = modelGenerations(steps);
  if (maxTotalTokens !== undefined) {
    if (gens.length === 0) throw new Error('maxTotalTokens is set but the trajectory has no model generations');
    for (const g of gens) {
      if (g.stepType === 'model_generation' && (g.promptTokens === undefined || g.completionTokens === undefined)) {
        throw new Error(`maxTotalTokens is set but model generation ${g.name} has no token counts`);
      }
    }
  }
  let totalTokens = 0;
  for (const g of gens) if (g.stepType === 'model_generation') totalTokens += (g.promptTokens ?? 0) + (g.completionTokens ?? 0);

  let totalDurationMs = trajectory.totalDurationMs;
  if (totalDurationMs === undefined && steps.every((s) => typeof s.durationMs === 'number')) {
    totalDurationMs = steps.reduce((sum, s) => sum + (s.durationMs ?? 0), 0);
  }
  if (maxTotalDurationMs !== undefined && totalDurationMs === undefined) {
    throw new Error('maxTotalDurationMs is set but the trajectory has no duration measurements');
  }

  const redundantCalls: RedundantCall[] = [];
  for (let i = 1; i < steps.length; i++) {
    const prev = steps[i - 1] as TrajectoryStep;
    const cur = steps[i] as TrajectoryStep;
    if (
      prev.name === cur.name &&
      prev.stepType === cur.stepType &&
      (cur.stepType === 'tool_call' || cur.stepType === 'mcp_tool_call') &&
      JSON.stringify((prev as { toolArgs?: unknown }).toolArgs) === JSON.stringify(cur.toolArgs)
    ) {
      redundantCalls.push({ name: cur.name, index: i });
    }
  }

  const dims: number[] = [];
  const overStepBudget = maxSteps !== undefined && totalSteps > maxSteps;
  const overTokenBudget = maxTotalTokens !== undefined && totalTokens > maxTotalTokens;
  const overDurationBudget = maxTotalDurationMs !== undefined && (totalDurationMs ?? 0) > maxTotalDurationMs;
  if (maxSteps !== undefined) dims.push(budgetScore(totalSteps, maxSteps));
  if (maxTotalTokens !== undefined) dims.push(budgetScore(totalTokens, maxTotalTokens));
  if (maxTotalDurationMs !== undefined) dims.push(budgetScore(totalDurationMs ?? 0, maxTotalDurationMs));
  if (noRedundantCalls) dims.push(redundantCalls.length === 0 ? 1 : Math.max(0, 1 - 0.2 * redundantCalls.length));
  const mean = dims.length === 0 ? 1 : dims.reduce((a, b) => a + b, 0) / dims.length;
  return {
    score: clamp01(roundToTwoDecimals(mean)),
    totalSteps,
    totalTokens,
    totalDurationMs,
    overStepBudget,
    overTokenBudget,
    overDurationBudget,
    redundantCalls,
  };
}
