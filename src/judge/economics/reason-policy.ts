/**
 * The `reason` policy of a scorer entry: `always`, `on-fail` (default: the reason call is skipped when the
 * label is pass) or `never`. Skipping the reason never changes the score; it only drops the explanation.
 */

export type ReasonPolicy = 'always' | 'on-fail' | 'never';
export type Direction = 'higher' | 'lower';

/**
 * Whether to run `generateReason` for `score`. Labels follow SPEC §6: lower-is-better fails when
 * `score > threshold`, higher-is-better when `score < threshold`.
 *
 * @example
 * ```ts
 * shouldGenerateReason('on-fail', { score: 0.8, threshold: 0.5, direction: 'lower' }); // true (hallucination fails)
 * shouldGenerateReason('on-fail', { score: 0.8, threshold: 0.5, direction: 'higher' }); // false (passes)
 * ```
 */
export function shouldGenerateReason(policy: ReasonPolicy, at: { score: number; threshold: number; direction: Direction }): boolean {
  if (policy === 'always') return true;
  if (policy === 'never') return false;
  const fail = at.direction === 'lower' ? at.score > at.threshold : at.score < at.threshold;
  return fail;
}
