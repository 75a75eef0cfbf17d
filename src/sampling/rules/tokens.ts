/**
 * `tokens`: matches runs whose token usage (`count`: total (default), input or output) is above `above`
 * and/or below `below` (strict bounds). A run without usage does not match.
 */
import type { Predicate, SamplingInput } from '../types.js';

export type TokenCount = 'total' | 'input' | 'output';

export function tokensPredicate(options: { count?: TokenCount; above?: number; below?: number }): Predicate {
  const count = options.count ?? 'total';
  const { above, below } = options;
  return {
    evaluate(input: SamplingInput): boolean {
      const usage = input.run.usage;
      if (!usage) return false;
      const n = count === 'input' ? usage.inputTokens : count === 'output' ? usage.outputTokens : usage.inputTokens + usage.outputTokens;
      if (!Number.isFinite(n)) return false;
      return (above === undefined || n > above) && (below === undefined || n < below);
    },
    describe: () =>
      [above !== undefined ? `${count} tokens > ${above}` : '', below !== undefined ? `${count} tokens < ${below}` : ''].filter(Boolean).join(' and '),
  };
}
