/**
 * The evaluation a judge call belongs to, carried through async calls (AsyncLocalStorage) so the judge
 * port can share work within one run, and account tokens, requests and cost per agent and per scorer,
 * without any scorer knowing about it. The pipeline wraps each evaluation in {@link withJudgeScope}.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** Identity of one evaluation (one configured scorer on one agent run). */
export interface JudgeScope {
  /** Stable id of the agent run (e.g. `traceId:spanId`); shared preprocessing is keyed by it. */
  runId?: string;
  /** `gen_ai.agent.name` of the run. */
  agentName?: string;
  /** The configured scorer name (`gen_ai.evaluation.name`). */
  scorerName?: string;
}

const storage = new AsyncLocalStorage<JudgeScope>();

/**
 * Run `fn` with `scope` as the current judge scope (nested scopes replace the outer one).
 *
 * @example
 * ```ts
 * await withJudgeScope({ runId: `${run.traceId}:${run.spanId}`, agentName: run.agentName, scorerName: 'hallucination' }, () => scorer.run(input));
 * ```
 */
export function withJudgeScope<T>(scope: JudgeScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/** The current scope, or undefined outside {@link withJudgeScope}. */
export function currentJudgeScope(): JudgeScope | undefined {
  return storage.getStore();
}

/**
 * Metric attributes of the current scope: `gen_ai.agent.name` and `gen_ai.evaluation.name` when known
 * (empty outside a scope, so attribute sets of unscoped calls are unchanged).
 *
 * @example
 * ```ts
 * telemetry().judgeRequests.add(1, { outcome: 'success', ...judgeScopeAttributes() });
 * ```
 */
export function judgeScopeAttributes(): Record<string, string> {
  const s = storage.getStore();
  const out: Record<string, string> = {};
  if (s?.agentName !== undefined) out['gen_ai.agent.name'] = s.agentName;
  if (s?.scorerName !== undefined) out['gen_ai.evaluation.name'] = s.scorerName;
  return out;
}
