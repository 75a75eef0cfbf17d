/**
 * The effective sampling rate of each configured scorer, as `serve` logs it at start (one line per
 * scorer): the rate that applies to an agent no `sampling.agents` entry matches, where it comes from, and
 * the agent entries that set another rate. A judge scorer left at the built-in 10 % is visible here, so a
 * user who sends a handful of runs knows why few judge scores appear.
 */
import type { CompiledSampling } from './compile.js';
import type { ScorerKind } from './types.js';

export interface ScorerRate {
  /** The scorer's sampling key (its configured name). */
  scorer: string;
  kind: ScorerKind;
  /** Rate for agents no `sampling.agents` entry matches. */
  rate: number;
  /** The config path it comes from, or `built-in (code scorer)` / `built-in (judge scorer)`. */
  source: string;
  /** `sampling.agents` entries whose rate for this scorer differs: entry key → rate. */
  agents?: Record<string, number>;
}

/**
 * One entry per scorer, in the given order.
 *
 * @example
 * ```ts
 * effectiveRates(policy.compiled, [{ samplingKey: 'hallucination', kind: 'judge' }]);
 * // [{ scorer: 'hallucination', kind: 'judge', rate: 0.1, source: 'built-in (judge scorer)' }]
 * ```
 */
export function effectiveRates(compiled: CompiledSampling, scorers: readonly { samplingKey: string; kind: ScorerKind }[], agentKeys: readonly string[] = []): ScorerRate[] {
  return scorers.map((s) => {
    const { rate, source } = compiled.rate(undefined, s.samplingKey, s.kind);
    const out: ScorerRate = { scorer: s.samplingKey, kind: s.kind, rate, source };
    for (const key of agentKeys) {
      const entry = compiled.matchAgent(key);
      if (!entry || entry.key !== key) continue;
      const r = compiled.rate(entry, s.samplingKey, s.kind).rate;
      if (r !== rate) (out.agents ??= {})[key] = r;
    }
    return out;
  });
}
