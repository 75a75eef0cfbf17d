/**
 * The `scorers` option of `runEvals` (docs/mastra-compat.md): a list (scorers, or `{ scorer, threshold }`), a
 * `WorkflowScorerConfig` (`{ workflow?, steps?, trajectory? }`) or an `AgentScorerConfig` (`{ agent?, trajectory? }`),
 * checked once into a plan; and the per-scorer means, in the same nesting as Mastra's `result.scores`.
 */
import type { Trajectory, TrajectoryStep } from '../utils/trajectory-types.js';
import { evalsUsage } from './errors.js';
import { describeValue, type TargetKind, type WorkflowStepResult } from './eval-targets.js';
import type { ScorerLike, ScorerRunResult } from './types.js';

/** A pass threshold on a scorer's mean: a minimum, or `{ min?, max? }` (at least one), within [0, 1]. */
export type Threshold = number | { min?: number; max?: number };

/** A scorer, or a scorer with a pass threshold. */
export type EvalScorer = ScorerLike | { scorer: ScorerLike; threshold: Threshold };

/** Mastra's `WorkflowScorerConfig`: scorers of the whole run, of steps by step id, of the step trajectory. */
export interface WorkflowScorerConfig {
  workflow?: readonly ScorerLike[];
  steps?: Readonly<Record<string, readonly ScorerLike[]>>;
  trajectory?: readonly ScorerLike[];
}

/** Mastra's `AgentScorerConfig`: scorers of the agent run and of its tool-call trajectory. */
export interface AgentScorerConfig {
  agent?: readonly ScorerLike[];
  trajectory?: readonly ScorerLike[];
}

export type EvalScorers = readonly EvalScorer[] | WorkflowScorerConfig | AgentScorerConfig;

/** One scorer of the plan with the option path it came from (for errors). */
export interface PlannedScorer {
  scorer: ScorerLike;
  threshold?: Threshold;
  field: string;
}

export type ScorerPlan =
  | { kind: 'list'; entries: PlannedScorer[] }
  | { kind: 'workflow'; workflow: PlannedScorer[]; steps: Array<{ stepId: string; entries: PlannedScorer[] }>; trajectory: PlannedScorer[] }
  | { kind: 'agent'; agent: PlannedScorer[]; trajectory: PlannedScorer[] };

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

const CONFIG_KEYS = new Set(['workflow', 'steps', 'trajectory', 'agent']);
const INVALID = 'INVALID_SCORERS';

function checkThreshold(t: unknown, field: string): Threshold {
  const inRange = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1;
  if (typeof t === 'number') {
    if (!inRange(t)) throw evalsUsage(field, `must be within [0, 1], got ${t}`, 'INVALID_SCORER_THRESHOLD');
    return t;
  }
  if (!isObj(t)) throw evalsUsage(field, `must be a number or { min?, max? }, got ${describeValue(t)}`, 'INVALID_SCORER_THRESHOLD');
  if (t.min === undefined && t.max === undefined) throw evalsUsage(field, 'must set min or max', 'INVALID_SCORER_THRESHOLD');
  for (const k of ['min', 'max'] as const) {
    if (t[k] !== undefined && !inRange(t[k])) throw evalsUsage(`${field}.${k}`, `must be within [0, 1], got ${typeof t[k] === 'number' ? String(t[k]) : describeValue(t[k])}`, 'INVALID_SCORER_THRESHOLD');
  }
  if (typeof t.min === 'number' && typeof t.max === 'number' && t.min > t.max) throw evalsUsage(field, `min (${t.min}) is greater than max (${t.max})`, 'INVALID_SCORER_THRESHOLD');
  const out: { min?: number; max?: number } = {};
  if (t.min !== undefined) out.min = t.min as number;
  if (t.max !== undefined) out.max = t.max as number;
  return out;
}

function checkScorer(s: unknown, field: string): ScorerLike {
  if (s === null || (typeof s !== 'object' && typeof s !== 'function')) throw evalsUsage(field, `must be a scorer (made with createScorer), got ${describeValue(s)}`, INVALID);
  const o = s as Obj;
  if (typeof o.run !== 'function') throw evalsUsage(field, 'is not a scorer: it has no run() function (make it with createScorer)', INVALID);
  if (typeof o.id !== 'string' || o.id === '') throw evalsUsage(field, 'is not a scorer: it has no string id', INVALID);
  return s as ScorerLike;
}

function listEntry(e: unknown, field: string): PlannedScorer {
  if (isObj(e) && 'scorer' in e && typeof e.run !== 'function') {
    return { scorer: checkScorer(e.scorer, `${field}.scorer`), threshold: checkThreshold(e.threshold, `${field}.threshold`), field };
  }
  return { scorer: checkScorer(e, field), field };
}

function bareList(v: unknown, field: string): PlannedScorer[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw evalsUsage(field, `must be an array of scorers, got ${describeValue(v)}`, INVALID);
  return v.map((e: unknown, i) => {
    const f = `${field}[${i}]`;
    if (isObj(e) && 'scorer' in e && typeof e.run !== 'function') throw evalsUsage(f, 'thresholds are only supported in a scorers array, not in a scorer config', INVALID);
    return { scorer: checkScorer(e, f), field: f };
  });
}

/**
 * Check `scorers` against the target kind and compile it. Throws a `TJ_USAGE` error naming the field
 * (`scorers`, `scorers[2]`, `scorers.steps["check"]`, …) for any misuse.
 */
export function planScorers(scorers: unknown, target: TargetKind | undefined): ScorerPlan {
  if (Array.isArray(scorers)) {
    if (scorers.length === 0) throw evalsUsage('scorers', 'no scorers provided', 'NO_SCORERS_PROVIDED');
    return { kind: 'list', entries: scorers.map((e: unknown, i) => listEntry(e, `scorers[${i}]`)) };
  }
  if (!isObj(scorers)) {
    throw evalsUsage('scorers', `must be an array of scorers, a WorkflowScorerConfig ({ workflow, steps, trajectory }) or an AgentScorerConfig ({ agent, trajectory }), got ${describeValue(scorers)}`, INVALID);
  }
  if (typeof scorers.run === 'function') throw evalsUsage('scorers', 'must be an array: write scorers: [scorer], not scorers: scorer', INVALID);
  for (const k of Object.keys(scorers)) {
    if (!CONFIG_KEYS.has(k)) throw evalsUsage(`scorers.${k}`, 'unknown key (a scorer config has workflow, steps and trajectory, or agent and trajectory)', INVALID);
  }
  const workflowKeys = 'workflow' in scorers || 'steps' in scorers;
  if (workflowKeys && 'agent' in scorers) throw evalsUsage('scorers', 'mixes a WorkflowScorerConfig (workflow, steps) with an AgentScorerConfig (agent)', INVALID);
  const asWorkflow = workflowKeys || (!('agent' in scorers) && target === 'workflow');
  if (asWorkflow) {
    if (target !== 'workflow') throw evalsUsage('scorers', 'a WorkflowScorerConfig ({ workflow, steps }) needs a Workflow target (an object with createRun())', 'INVALID_WORKFLOW_SCORERS');
    const steps: Array<{ stepId: string; entries: PlannedScorer[] }> = [];
    if (scorers.steps !== undefined) {
      if (!isObj(scorers.steps)) throw evalsUsage('scorers.steps', `must be an object of step id → scorers, got ${describeValue(scorers.steps)}`, INVALID);
      for (const [stepId, list] of Object.entries(scorers.steps)) steps.push({ stepId, entries: bareList(list, `scorers.steps[${JSON.stringify(stepId)}]`) });
    }
    const plan: ScorerPlan = { kind: 'workflow', workflow: bareList(scorers.workflow, 'scorers.workflow'), steps, trajectory: bareList(scorers.trajectory, 'scorers.trajectory') };
    if (plan.workflow.length + plan.trajectory.length + steps.reduce((n, s) => n + s.entries.length, 0) === 0) {
      throw evalsUsage('scorers', 'no workflow, step or trajectory scorers provided', 'NO_SCORERS_PROVIDED');
    }
    return plan;
  }
  if (target === 'workflow') throw evalsUsage('scorers', 'an AgentScorerConfig ({ agent }) cannot score a Workflow target; use { workflow, steps }', 'INVALID_AGENT_SCORERS');
  const plan: ScorerPlan = { kind: 'agent', agent: bareList(scorers.agent, 'scorers.agent'), trajectory: bareList(scorers.trajectory, 'scorers.trajectory') };
  if (plan.agent.length + plan.trajectory.length === 0) throw evalsUsage('scorers', 'no agent or trajectory scorers provided', 'NO_SCORERS_PROVIDED');
  return plan;
}

/**
 * A workflow's step trajectory as Mastra builds it without a trace store: one `workflow_step` per step result, in
 * `stepExecutionPath` order (else the order of `steps`).
 */
export function workflowTrajectory(steps: Record<string, WorkflowStepResult>, stepExecutionPath?: string[]): Trajectory {
  const out: TrajectoryStep[] = [];
  let first: number | undefined;
  let last: number | undefined;
  for (const stepId of stepExecutionPath ?? Object.keys(steps)) {
    const r = steps[stepId];
    if (!isObj(r)) continue;
    if (typeof r.startedAt === 'number' && (first === undefined || r.startedAt < first)) first = r.startedAt;
    if (typeof r.endedAt === 'number' && (last === undefined || r.endedAt > last)) last = r.endedAt;
    const step: TrajectoryStep = { stepType: 'workflow_step', name: stepId, stepId };
    if (typeof r.status === 'string') step.status = r.status;
    if (r.output !== undefined && r.output !== null) step.output = isObj(r.output) ? r.output : { value: r.output };
    if (typeof r.startedAt === 'number' && typeof r.endedAt === 'number') step.durationMs = r.endedAt - r.startedAt;
    if (isObj(r.metadata)) step.metadata = r.metadata;
    out.push(step);
  }
  const t: Trajectory = { steps: out, rawWorkflowResult: { stepResults: steps, stepExecutionPath } };
  if (first !== undefined && last !== undefined) t.totalDurationMs = last - first;
  return t;
}

/**
 * Sums per scorer under a path (`[]` for a list, `['workflow']`, `['steps', id]`, `['agent']`, `['trajectory']`)
 * and not-scorable counts per scorer id.
 */
export class ScoreAccumulator {
  readonly #sums = new Map<string, { path: readonly string[]; id: string; sum: number; n: number }>();
  readonly notScorable = new Map<string, number>();

  /** Count one result; returns its numeric score, if any. */
  add(path: readonly string[], id: string, r: ScorerRunResult): number | undefined {
    if (r.notScorable) {
      this.notScorable.set(id, (this.notScorable.get(id) ?? 0) + 1);
      return undefined;
    }
    if (typeof r.score !== 'number') return undefined;
    const key = JSON.stringify([...path, id]);
    const acc = this.#sums.get(key) ?? { path, id, sum: 0, n: 0 };
    acc.sum += r.score;
    acc.n++;
    this.#sums.set(key, acc);
    return r.score;
  }

  /** The unrounded mean per scorer, nested by path; scorers with no numeric score are absent. */
  means(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const { path, id, sum, n } of this.#sums.values()) {
      let node = out;
      for (const p of path) node = (node[p] ??= {}) as Record<string, unknown>;
      node[id] = sum / n;
    }
    return out;
  }
}
