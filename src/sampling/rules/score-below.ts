/**
 * `score-below`: the cheap signal behind adaptive boost. Matches when any listed code scorer has already
 * scored this run below its threshold (e.g. `grounding: 0.6`, `similarity: 0.3`). Scores not supplied do
 * not match, so the rule is inert until the pipeline runs code scorers first.
 */
import type { Predicate, SamplingInput } from '../types.js';

export function scoreBelowPredicate(options: { below: Readonly<Record<string, number>> }): Predicate {
  const entries = Object.entries(options.below);
  return {
    evaluate(input: SamplingInput): boolean {
      const scores = input.codeScores;
      if (!scores) return false;
      return entries.some(([name, limit]) => {
        const s = scores[name];
        return typeof s === 'number' && Number.isFinite(s) && s < limit;
      });
    },
    describe: () => `code score ${entries.map(([n, l]) => `${n} < ${l}`).join(' or ')}`,
  };
}
