/** `analyzeToolFailures` (docs/scorers.md): retries of failing tools and fallbacks to other tools. */
import { clamp01, roundToTwoDecimals } from './numeric.js';
import type { Trajectory, TrajectoryStep } from './trajectory-types.js';

export interface ToolFailureOptions {
  /** Retries tolerated per tool before each further one costs 0.2. Default 2. */
  maxRetriesPerTool?: number;
}

/** One run of consecutive calls to the same tool that saw at least one failed attempt before the last. */
export interface ToolFailurePattern {
  toolName: string;
  retryCount: number;
  fellBackToAlternative: boolean;
  alternativeTool?: string;
  eventuallySucceeded: boolean;
}

export interface ToolFailureResult {
  score: number;
  patterns: ToolFailurePattern[];
  totalRetries: number;
  /** Tools whose retries exceeded `maxRetriesPerTool`. */
  excessiveRetryTools: string[];
}

type ToolStep = TrajectoryStep & { success?: boolean };

/**
 * Find retry patterns among top-level tool calls (`tool_call`, `mcp_tool_call`).
 * score = round2(clamp01(1 − 0.2 · Σ max(0, retries − maxRetriesPerTool))); 1 when there are no tool calls.
 *
 * @example
 * ```ts
 * const call = (name: string, success: boolean) => ({ name, stepType: 'tool_call' as const, success });
 * analyzeToolFailures({ steps: [call('api', false), call('api', false), call('api', false), call('api', true)] }).score; // 0.8
 * ```
 */
export function analyzeToolFailures(trajectory: Trajectory, options: ToolFailureOptions = {}): ToolFailureResult {
  const maxRetries = options.maxRetriesPerTool ?? 2;
  const calls = trajectory.steps.filter((s): s is ToolStep => s.stepType === 'tool_call' || s.stepType === 'mcp_tool_call');
  const groups: ToolStep[][] = [];
  for (const c of calls) {
    const last = groups[groups.length - 1];
    if (last && last[0]?.name === c.name) last.push(c);
    else groups.push([c]);
  }
  const patterns: ToolFailurePattern[] = [];
  const excessiveRetryTools: string[] = [];
  let totalRetries = 0;
  let excess = 0;
  groups.forEach((group, gi) => {
    let retryCount = 0;
    for (let i = 0; i < group.length - 1; i++) if (group[i]?.success === false) retryCount++;
    if (retryCount === 0) return;
    const lastCall = group[group.length - 1] as ToolStep;
    const next = groups[gi + 1]?.[0];
    const failedLast = lastCall.success === false;
    const pattern: ToolFailurePattern = {
      toolName: lastCall.name,
      retryCount,
      fellBackToAlternative: failedLast && next !== undefined,
      eventuallySucceeded: !failedLast,
    };
    if (failedLast && next) pattern.alternativeTool = next.name;
    patterns.push(pattern);
    totalRetries += retryCount;
    if (retryCount > maxRetries) {
      excess += retryCount - maxRetries;
      excessiveRetryTools.push(lastCall.name);
    }
  });
  const score = calls.length === 0 ? 1 : roundToTwoDecimals(clamp01(1 - 0.2 * excess));
  return { score, patterns, totalRetries, excessiveRetryTools };
}
