/**
 * A rule = a condition + an action, evaluated like a tail_sampling policy: `evaluate → decision | undefined`
 * (undefined = not decisive, ask the next rule, then the rate).
 *
 * | action | condition holds | condition fails |
 * |---|---|---|
 * | `sample` (default) | sampled, rate 1 | — |
 * | `drop` | not sampled, rate 0 | — |
 * | `only` | — | not sampled, rate 0 |
 * | `boost` | sampled, rate 1, judge scorers only | — |
 * | `prefer` | judge scorers: sampled at a raised rate | judge scorers: sampled at a lowered rate (at least `rest`) |
 *
 * `prefer` spends a judge scorer's own rate `r` on the matching runs first. With `u` the share of matching
 * runs among the recent ones this rule saw for the scorer, and `s = min(rest, r)`, matching runs are sampled at
 * `min(1, (r − s·(1 − u)) / u)` and the others at what is left, `(r − u·p_match) / (1 − u)` (at least `s`), so
 * the expected share of runs scored stays `r`: the rate still caps the cost. Code scorers: next rule.
 */
import type { RuleAction, RuleConfig } from '../../config/sections/sampling.js';
import { sampledAtRate } from '../hash.js';
import type { Predicate, SamplingDecision, SamplingInput, ScorerKind } from '../types.js';
import { buildPredicate } from './build.js';

export interface Rule {
  readonly name: string;
  readonly action: RuleAction;
  /** Where the rule is configured, e.g. `sampling.rules[0]`. */
  readonly path: string;
  /** `rate` is the scorer's configured rate for this run (read by `prefer` only). */
  evaluate(input: SamplingInput, kind: ScorerKind, rate?: () => number): SamplingDecision | undefined;
  describe(): string;
}

/** Runs over which `prefer` averages the share of matching runs (a running mean, then a moving one). */
export const PREFER_WINDOW = 500;

/** The `prefer` rates for the matching and the other runs: expected share scored `u·m + (1 − u)·o = r`. */
export function preferRates(rate: number, share: number, rest: number): { match: number; other: number } {
  const s = Math.min(rest, rate);
  const match = share > 0 ? Math.min(1, (rate - s * (1 - share)) / share) : 1;
  const other = share < 1 ? Math.min(1, Math.max(s, (rate - share * match) / (1 - share))) : s;
  return { match, other };
}

function createRule(predicate: Predicate, name: string, action: RuleAction, path: string, rest = 0): Rule {
  const reason = `rule:${name}`;
  // `prefer`: the share of matching runs per scorer, over the last PREFER_WINDOW runs (about).
  const shares = new Map<string, { n: number; share: number }>();
  const prefer = (input: SamplingInput, rate: number): SamplingDecision => {
    const matches = predicate.evaluate(input);
    let s = shares.get(input.scorer);
    if (!s) shares.set(input.scorer, (s = { n: 0, share: 0 }));
    s.n = Math.min(s.n + 1, PREFER_WINDOW);
    s.share += ((matches ? 1 : 0) - s.share) / s.n;
    const rates = preferRates(rate, s.share, rest);
    const p = matches ? rates.match : rates.other;
    return { sampled: sampledAtRate(input.run.traceId, p), rate: p, reason };
  };
  return {
    name,
    action,
    path,
    evaluate(input, kind, rate) {
      switch (action) {
        case 'sample':
          return predicate.evaluate(input) ? { sampled: true, rate: 1, reason } : undefined;
        case 'drop':
          return predicate.evaluate(input) ? { sampled: false, rate: 0, reason } : undefined;
        case 'only':
          return predicate.evaluate(input) ? undefined : { sampled: false, rate: 0, reason };
        case 'boost':
          return kind === 'judge' && predicate.evaluate(input) ? { sampled: true, rate: 1, reason } : undefined;
        case 'prefer':
          // Inert until a code scorer reported unverified counts for the run: the rate decides alone.
          return kind === 'judge' && rate && input.codeUnverified !== undefined ? prefer(input, rate()) : undefined;
      }
    },
    describe() {
      const cond = predicate.describe();
      switch (action) {
        case 'sample':
          return `${name}: always score when ${cond}`;
        case 'drop':
          return `${name}: never score when ${cond}`;
        case 'only':
          return `${name}: score only when ${cond}`;
        case 'boost':
          return `${name}: judge scorers at 100% when ${cond}`;
        case 'prefer':
          return `${name}: judge scorers spend their rate first on runs where ${cond}; other runs at ${rest * 100}% at least`;
      }
    },
  };
}

/** Build a configured rule; `path` locates it for explanations. */
export function ruleFromConfig(config: RuleConfig, path: string): Rule {
  const { name, action, rest, ...condition } = config;
  return createRule(buildPredicate(condition), name ?? config.type, action ?? 'sample', path, rest);
}
