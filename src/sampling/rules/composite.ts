/** `and` / `or` / `not`: composition of conditions (tail_sampling's `and` and `not` policies). */
import type { Predicate, SamplingInput } from '../types.js';

export function andPredicate(members: readonly Predicate[]): Predicate {
  return {
    evaluate: (input: SamplingInput) => members.every((p) => p.evaluate(input)),
    describe: () => `(${members.map((p) => p.describe()).join(' and ')})`,
  };
}

export function orPredicate(members: readonly Predicate[]): Predicate {
  return {
    evaluate: (input: SamplingInput) => members.some((p) => p.evaluate(input)),
    describe: () => `(${members.map((p) => p.describe()).join(' or ')})`,
  };
}

export function notPredicate(member: Predicate): Predicate {
  return {
    evaluate: (input: SamplingInput) => !member.evaluate(input),
    describe: () => `not ${member.describe()}`,
  };
}
