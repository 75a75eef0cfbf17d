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
 */
import type { RuleAction, RuleConfig } from '../../config/sections/sampling.js';
import type { Predicate, SamplingDecision, SamplingInput, ScorerKind } from '../types.js';
import { buildPredicate } from './build.js';

export interface Rule {
  readonly name: string;
  readonly action: RuleAction;
  /** Where the rule is configured, e.g. `sampling.rules[0]`. */
  readonly path: string;
  evaluate(input: SamplingInput, kind: ScorerKind): SamplingDecision | undefined;
  describe(): string;
}

function createRule(predicate: Predicate, name: string, action: RuleAction, path: string): Rule {
  const reason = `rule:${name}`;
  return {
    name,
    action,
    path,
    evaluate(input, kind) {
      switch (action) {
        case 'sample':
          return predicate.evaluate(input) ? { sampled: true, rate: 1, reason } : undefined;
        case 'drop':
          return predicate.evaluate(input) ? { sampled: false, rate: 0, reason } : undefined;
        case 'only':
          return predicate.evaluate(input) ? undefined : { sampled: false, rate: 0, reason };
        case 'boost':
          return kind === 'judge' && predicate.evaluate(input) ? { sampled: true, rate: 1, reason } : undefined;
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
      }
    },
  };
}

/** Build a configured rule; `path` locates it for explanations. */
export function ruleFromConfig(config: RuleConfig, path: string): Rule {
  const { name, action, ...condition } = config;
  return createRule(buildPredicate(condition), name ?? config.type, action ?? 'sample', path);
}
