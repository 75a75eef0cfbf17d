/**
 * `errors`: matches runs with error status. With `includeSpans`, also runs where any span of the subtree
 * (a tool call, an LLM call) ended with status ERROR even though the agent recovered.
 */
import type { Predicate, SamplingInput } from '../types.js';

export interface ErrorsOptions {
  includeSpans?: boolean;
}

export function errorsPredicate(options: ErrorsOptions = {}): Predicate {
  const includeSpans = options.includeSpans === true;
  return {
    evaluate(input: SamplingInput): boolean {
      if (input.run.status === 'error') return true;
      return includeSpans && input.spans.some((s) => s.status.code === 2);
    },
    describe: () => (includeSpans ? 'the run or any of its spans has error status' : 'the run has error status'),
  };
}
