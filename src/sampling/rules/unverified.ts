/**
 * `unverified`: the run's answer has specifics that a code scorer could check neither way (its record's
 * `unverified` count, e.g. claim-grounding's). Matches when any listed code scorer (all that ran, when
 * `scorers` is absent) left at least `min` (default 1) unverified. Counts not supplied do not match, so the
 * rule is inert until the pipeline runs code scorers first.
 */
import type { Predicate, SamplingInput } from '../types.js';

export function unverifiedPredicate(options: { scorers?: readonly string[]; min?: number } = {}): Predicate {
  const min = options.min ?? 1;
  const names = options.scorers;
  return {
    evaluate(input: SamplingInput): boolean {
      const counts = input.codeUnverified;
      if (!counts) return false;
      if (names) return names.some((n) => (counts[n] ?? 0) >= min);
      for (const n in counts) if ((counts[n] ?? 0) >= min) return true;
      return false;
    },
    describe: () => `${names ? names.join(' or ') : 'a code scorer'} left ${min === 1 ? 'a specific' : `at least ${min} specifics`} of the answer unverified`,
  };
}
