/** `retrieval`: matches runs with at least `min` (default 1) retrieved documents in their context. */
import type { Predicate, SamplingInput } from '../types.js';

export function retrievalPredicate(options: { min?: number } = {}): Predicate {
  const min = options.min ?? 1;
  return {
    evaluate: (input: SamplingInput) => input.run.context.length >= min,
    describe: () => (min === 1 ? 'the run retrieved documents' : `the run retrieved at least ${min} documents`),
  };
}
