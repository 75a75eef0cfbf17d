/**
 * Judge cost accounting: estimated USD from the configured price table, recorded per model, agent and
 * scorer on `tracejudge.judge.cost`. Tokens and requests are recorded by the judge port itself (with the
 * same agent/scorer attributes when a judge scope is active), so nothing is counted twice.
 */
import type { ModelPrice } from '../../config/sections/economics.js';
import type { Telemetry } from '../../telemetry/instruments.js';
import type { JudgeUsage } from '../port.js';
import type { JudgeScopes } from './scope.js';

/**
 * Estimated cost in USD of `usage` on `modelId`, or undefined when the model has no price.
 *
 * @example
 * ```ts
 * estimateCostUsd({ 'gpt-4o-mini': { inputPerMTokens: 0.15, outputPerMTokens: 0.6 } }, 'gpt-4o-mini', { inputTokens: 1000, outputTokens: 100 });
 * // 0.00021
 * ```
 */
export function estimateCostUsd(prices: Readonly<Record<string, ModelPrice>>, modelId: string, usage: JudgeUsage): number | undefined {
  const p = prices[modelId];
  if (!p) return undefined;
  return ((usage.inputTokens ?? 0) * p.inputPerMTokens + (usage.outputTokens ?? 0) * p.outputPerMTokens) / 1_000_000;
}

/** Running totals, per `agent|scorer|model`, for reports and tests (the metrics are the product surface). */
export interface CostTotals {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

/** Records cost metrics and keeps bounded in-process totals. */
export class JudgeAccounting {
  readonly #totals = new Map<string, CostTotals>();

  constructor(
    readonly prices: Readonly<Record<string, ModelPrice>>,
    private readonly telemetry?: Telemetry,
    private readonly scopes?: JudgeScopes,
    readonly maxKeys = 10_000,
  ) {}

  /** Account one logical judge call that made `requests` HTTP calls. */
  record(modelId: string, usage: JudgeUsage, requests: number): void {
    const attrs: Record<string, string> = { 'gen_ai.request.model': modelId, ...this.scopes?.attributes() };
    const cost = estimateCostUsd(this.prices, modelId, usage);
    if (cost !== undefined && cost > 0) this.telemetry?.instruments.judgeCost.add(cost, attrs);
    const key = `${attrs['gen_ai.agent.name'] ?? ''}|${attrs['gen_ai.evaluation.name'] ?? ''}|${modelId}`;
    let t = this.#totals.get(key);
    if (!t) {
      if (this.#totals.size >= this.maxKeys) return;
      this.#totals.set(key, (t = { requests: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 }));
    }
    t.requests += requests;
    t.inputTokens += usage.inputTokens ?? 0;
    t.outputTokens += usage.outputTokens ?? 0;
    t.costUsd += cost ?? 0;
  }

  /** Totals keyed `agent|scorer|model` (empty parts when unknown). */
  totals(): Record<string, CostTotals> {
    return Object.fromEntries([...this.#totals].map(([k, v]) => [k, { ...v }]));
  }
}
