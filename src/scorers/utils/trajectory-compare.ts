/** `compareTrajectories` (docs/scorers.md): how well actual steps match expected steps. */
import { clamp01, roundToTwoDecimals } from './numeric.js';
import type { ExpectedStep, Trajectory, TrajectoryStep, TrajectoryStepType } from './trajectory-types.js';

/** Result of {@link compareTrajectories}; step lists hold step names. */
export interface TrajectoryComparison {
  score: number;
  matchedSteps: number;
  totalExpectedSteps: number;
  totalActualSteps: number;
  missingSteps: string[];
  extraSteps: string[];
  outOfOrderSteps: string[];
  repeatedSteps: string[];
}

export interface CompareOptions {
  /** Default `relaxed`. */
  ordering?: 'strict' | 'relaxed' | 'unordered';
  /** Default true; when false each distinct repeated name costs 0.1. */
  allowRepeatedSteps?: boolean;
}

const TOOL_FIELDS = ['toolArgs', 'toolResult', 'success'] as const;
/** Fields compared (when given on the expected step) per step type. */
const COMPARABLE: Readonly<Record<TrajectoryStepType, readonly string[]>> = {
  tool_call: TOOL_FIELDS,
  mcp_tool_call: [...TOOL_FIELDS, 'mcpServer'],
  provider_tool_call: TOOL_FIELDS,
  model_generation: ['modelId', 'promptTokens', 'completionTokens', 'finishReason'],
  agent_run: ['agentId'],
  workflow_step: ['stepId', 'status', 'output'],
  workflow_run: ['workflowId', 'status'],
  workflow_conditional: ['conditionCount', 'selectedSteps'],
  workflow_parallel: ['branchCount', 'parallelSteps'],
  workflow_loop: ['loopType', 'totalIterations'],
  workflow_sleep: ['sleepDurationMs', 'sleepType'],
  workflow_wait_event: ['eventName', 'eventReceived'],
  processor_run: ['processorId'],
};

/**
 * True when an actual step satisfies an expected one: same name; when the expectation names a `stepType`,
 * same type and every type field given on the expectation present and JSON-equal. Children are not compared.
 *
 * @example
 * ```ts
 * stepMatches({ name: 'search', stepType: 'tool_call', toolArgs: { q: 'x' } }, { name: 'search', stepType: 'tool_call', toolArgs: { q: 'x' } }); // true
 * ```
 */
export function stepMatches(actual: TrajectoryStep, expected: ExpectedStep): boolean {
  if (actual.name !== expected.name) return false;
  if (expected.stepType === undefined) return true;
  if (actual.stepType !== expected.stepType) return false;
  const a = actual as unknown as Record<string, unknown>;
  for (const field of COMPARABLE[expected.stepType] ?? []) {
    const want = expected[field];
    if (want === undefined) continue;
    const got = a[field];
    if (got === undefined || JSON.stringify(got) !== JSON.stringify(want)) return false;
  }
  return true;
}

function repeatedNames(names: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  return [...counts].filter(([, c]) => c > 1).map(([n]) => n);
}

/**
 * Compare an actual trajectory with expected steps in `strict`, `relaxed` (default) or `unordered` mode.
 *
 * @example
 * ```ts
 * const steps = (names: string[]) => names.map((name) => ({ name, stepType: 'tool_call' as const }));
 * compareTrajectories({ steps: steps(['summarize', 'search']) }, { steps: steps(['search', 'summarize']) }).score; // 0.5
 * ```
 */
export function compareTrajectories(
  actual: Trajectory,
  expected: { steps: ExpectedStep[] } | ExpectedStep[],
  options: CompareOptions = {},
): TrajectoryComparison {
  const ordering = options.ordering ?? 'relaxed';
  const allowRepeated = options.allowRepeatedSteps ?? true;
  const act = actual.steps;
  const exp = Array.isArray(expected) ? expected : expected.steps;
  const actualNames = act.map((s) => s.name);
  const expectedNames = new Set(exp.map((s) => s.name));
  const repeated = repeatedNames(actualNames);
  const extraSteps = actualNames.filter((n) => !expectedNames.has(n));
  const base = { totalExpectedSteps: exp.length, totalActualSteps: act.length, extraSteps, repeatedSteps: repeated };
  if (exp.length === 0) {
    return { score: act.length === 0 ? 1 : 0, matchedSteps: 0, missingSteps: [], outOfOrderSteps: [], ...base };
  }
  const matchedExpected = new Array<boolean>(exp.length).fill(false);
  const outOfOrder: string[] = [];
  let matched = 0;
  if (ordering === 'strict') {
    const n = Math.max(act.length, exp.length);
    for (let i = 0; i < n; i++) {
      const a = act[i];
      const e = exp[i];
      if (a && e && a.name === e.name) {
        if (stepMatches(a, e)) {
          matched++;
          matchedExpected[i] = true;
        }
      } else if (a && expectedNames.has(a.name)) {
        outOfOrder.push(a.name);
      }
    }
  } else if (ordering === 'unordered') {
    const used = new Array<boolean>(act.length).fill(false);
    exp.forEach((e, i) => {
      const j = act.findIndex((a, k) => !used[k] && stepMatches(a, e));
      if (j >= 0) {
        used[j] = true;
        matched++;
        matchedExpected[i] = true;
      }
    });
  } else {
    let last = -1;
    const actualNameSet = new Set(actualNames);
    exp.forEach((e, i) => {
      let found = -1;
      for (let j = last + 1; j < act.length; j++) {
        if (stepMatches(act[j] as TrajectoryStep, e)) {
          found = j;
          break;
        }
      }
      if (found >= 0) {
        last = found;
        matched++;
        matchedExpected[i] = true;
      } else if (actualNameSet.has(e.name)) {
        outOfOrder.push(e.name);
      }
    });
  }
  let score = matched / exp.length;
  if (ordering === 'strict' && act.length > exp.length) {
    score = Math.max(0, score - (0.5 * (act.length - exp.length)) / exp.length);
  }
  if (!allowRepeated && repeated.length > 0) score -= 0.1 * repeated.length;
  const missingSteps = exp.filter((_, i) => !matchedExpected[i]).map((e) => e.name);
  return { score: roundToTwoDecimals(clamp01(score)), matchedSteps: matched, missingSteps, outOfOrderSteps: outOfOrder, ...base };
}
