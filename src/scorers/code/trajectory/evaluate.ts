/**
 * One level of the unified trajectory evaluation (docs/scorers.md): accuracy, efficiency, tool failures and
 * blacklist over a step list, recursing into expected steps that carry `children` expectations.
 */
import { analyzeToolFailures, type ToolFailureResult } from '../../utils/tool-failures.js';
import { checkTrajectoryBlacklist, type BlacklistResult } from '../../utils/trajectory-blacklist.js';
import { compareTrajectories, type TrajectoryComparison } from '../../utils/trajectory-compare.js';
import { checkTrajectoryEfficiency, type EfficiencyResult } from '../../utils/trajectory-efficiency.js';
import type { Trajectory, TrajectoryExpectation, TrajectoryStep } from '../../utils/trajectory-types.js';

export interface TrajectoryWeights {
  accuracy: number;
  efficiency: number;
  toolFailures: number;
  blacklist: number;
}

export const DEFAULT_WEIGHTS: Readonly<TrajectoryWeights> = Object.freeze({ accuracy: 0.4, efficiency: 0.3, toolFailures: 0.2, blacklist: 0.1 });

/** Result of one level; `nested` holds results for expected steps with children. */
export interface LevelResult {
  name?: string;
  score: number;
  accuracy?: TrajectoryComparison;
  efficiency?: EfficiencyResult;
  toolFailures: ToolFailureResult;
  blacklist?: BlacklistResult;
  nested: LevelResult[];
}

function hasBlacklistViolation(r: LevelResult): boolean {
  return r.blacklist !== undefined && r.blacklist.score === 0;
}

function missingNested(name: string, expectation: TrajectoryExpectation): LevelResult {
  const names = (expectation.steps ?? []).map((s) => s.name);
  return {
    name,
    score: 0,
    accuracy: {
      score: 0,
      matchedSteps: 0,
      totalExpectedSteps: names.length,
      totalActualSteps: 0,
      missingSteps: names,
      extraSteps: [],
      outOfOrderSteps: [],
      repeatedSteps: [],
    },
    toolFailures: { score: 1, patterns: [], totalRetries: 0, excessiveRetryTools: [] },
    nested: [],
  };
}

/**
 * Evaluate a trajectory against an expectation; weights are clamped at ≥ 0.
 *
 * @example
 * ```ts
 * evaluateTrajectory({ steps }, { steps: [{ name: 'search' }], maxSteps: 1 }, DEFAULT_WEIGHTS).score;
 * ```
 */
export function evaluateTrajectory(trajectory: Trajectory, config: TrajectoryExpectation, weights: TrajectoryWeights, name?: string): LevelResult {
  const accuracy = config.steps
    ? compareTrajectories(trajectory, config.steps, { ordering: config.ordering ?? 'relaxed', allowRepeatedSteps: config.allowRepeatedSteps ?? true })
    : undefined;
  const wantsEfficiency =
    config.maxSteps !== undefined ||
    config.maxTotalTokens !== undefined ||
    config.maxTotalDurationMs !== undefined ||
    config.noRedundantCalls !== undefined;
  const efficiency = wantsEfficiency
    ? checkTrajectoryEfficiency(trajectory, {
        maxSteps: config.maxSteps,
        maxTotalTokens: config.maxTotalTokens,
        maxTotalDurationMs: config.maxTotalDurationMs,
        noRedundantCalls: config.noRedundantCalls ?? true,
      })
    : undefined;
  const wantsBlacklist = (config.blacklistedTools?.length ?? 0) > 0 || (config.blacklistedSequences?.length ?? 0) > 0;
  const blacklist = wantsBlacklist
    ? checkTrajectoryBlacklist(trajectory, { blacklistedTools: config.blacklistedTools, blacklistedSequences: config.blacklistedSequences })
    : undefined;
  const toolFailures = analyzeToolFailures(trajectory, { maxRetriesPerTool: config.maxRetriesPerTool ?? 2 });

  const nested: LevelResult[] = [];
  const used = new Set<number>();
  for (const e of config.steps ?? []) {
    if (!e.children) continue;
    const idx = trajectory.steps.findIndex((a, i) => !used.has(i) && a.name === e.name && (e.stepType === undefined || a.stepType === e.stepType));
    if (idx < 0) {
      nested.push(missingNested(e.name, e.children));
      continue;
    }
    used.add(idx);
    const actual = trajectory.steps[idx] as TrajectoryStep;
    nested.push(evaluateTrajectory({ steps: actual.children ?? [] }, e.children, weights, e.name));
  }

  const result: LevelResult = { score: 0, toolFailures, nested };
  if (name !== undefined) result.name = name;
  if (accuracy) result.accuracy = accuracy;
  if (efficiency) result.efficiency = efficiency;
  if (blacklist) result.blacklist = blacklist;
  if (blacklist && blacklist.score === 0) return result;

  const w = (x: number) => (x > 0 ? x : 0);
  const active: Array<[number, number]> = [];
  if (accuracy) active.push([w(weights.accuracy), accuracy.score]);
  if (efficiency) active.push([w(weights.efficiency), efficiency.score]);
  if (toolFailures.patterns.length > 0) active.push([w(weights.toolFailures), toolFailures.score]);
  if (blacklist) active.push([w(weights.blacklist), blacklist.score]);
  let level = 1;
  const total = active.reduce((s, [wt]) => s + wt, 0);
  if (active.length > 0) level = total > 0 ? active.reduce((s, [wt, v]) => s + (wt / total) * v, 0) : 1;
  if (nested.length > 0) {
    if (nested.some((n) => hasBlacklistViolation(n) || n.nested.some(hasBlacklistViolation))) return result;
    level = 0.7 * level + 0.3 * (nested.reduce((s, n) => s + n.score, 0) / nested.length);
  }
  result.score = Math.round(level * 100) / 100;
  return result;
}
