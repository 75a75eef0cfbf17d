/**
 * The evaluation a judge call belongs to, carried through async calls (AsyncLocalStorage) so the judge
 * port can share work within one run, and account tokens, requests and cost per agent and per scorer,
 * without any scorer knowing about it. The pipeline wraps each evaluation in {@link JudgeScopes.run}.
 * Each judge resolver (one per service) has its own scopes.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** Identity of one evaluation (one configured scorer on one agent run). */
export interface JudgeScope {
  /** Stable id of the agent run (e.g. `traceId:spanId`); shared preprocessing is keyed by it. */
  runId?: string;
  /** `gen_ai.agent.name` of the run (budgets match it; metrics carry it bounded). */
  agentName?: string;
  /** The configured scorer name (`gen_ai.evaluation.name`). */
  scorerName?: string;
}

export class JudgeScopes {
  readonly #storage = new AsyncLocalStorage<JudgeScope>();

  /** `agentLabel` bounds the agent names on metric attributes (the service's `emit.metrics` bound). */
  constructor(private readonly agentLabel: (agentName: string) => string = (name) => name) {}

  /**
   * Run `fn` with `scope` as the current judge scope (nested scopes replace the outer one).
   *
   * @example
   * ```ts
   * await scopes.run({ runId: `${run.traceId}:${run.spanId}`, agentName, scorerName: 'hallucination' }, () => scorer.run(input));
   * ```
   */
  run<T>(scope: JudgeScope, fn: () => T): T {
    return this.#storage.run(scope, fn);
  }

  /** The current scope, or undefined outside {@link run}. */
  current(): JudgeScope | undefined {
    return this.#storage.getStore();
  }

  /**
   * Metric attributes of the current scope: `gen_ai.agent.name` (bounded) and `gen_ai.evaluation.name`
   * when known (empty outside a scope, so attribute sets of unscoped calls are unchanged).
   */
  attributes(): Record<string, string> {
    const s = this.#storage.getStore();
    const out: Record<string, string> = {};
    if (s?.agentName !== undefined) out['gen_ai.agent.name'] = this.agentLabel(s.agentName);
    if (s?.scorerName !== undefined) out['gen_ai.evaluation.name'] = s.scorerName;
    return out;
  }
}
