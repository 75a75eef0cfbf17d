/**
 * The "not applicable" outcome of a scorer run (STYLE principle 4): a step returns {@link notScorable} and the
 * pipeline stops with no score, no later steps and no judge calls. The brand is the reference's global symbol,
 * so sentinels made by either library are recognised by both.
 */

/** The global brand symbol (`Symbol.for('mastra.evals.notScorable')`). */
export const NOT_SCORABLE: unique symbol = Symbol.for('mastra.evals.notScorable') as typeof NOT_SCORABLE;

/** The sentinel a step returns when the run cannot be scored. */
export interface NotScorable {
  readonly [NOT_SCORABLE]: true;
  readonly reason?: string;
}

/**
 * Make the sentinel.
 *
 * @example
 * ```ts
 * createScorer({ id: 'needs-gt', description: 'd' })
 *   .preprocess(({ run }) => (run.groundTruth === undefined ? notScorable('no ground truth') : run.groundTruth))
 *   .generateScore(() => 1);
 * ```
 */
export function notScorable(reason?: string): NotScorable {
  return reason === undefined ? { [NOT_SCORABLE]: true } : { [NOT_SCORABLE]: true, reason };
}

/**
 * True for the sentinel made by {@link notScorable} (or by the reference library).
 *
 * @example
 * ```ts
 * isNotScorable(notScorable('empty output')); // true
 * ```
 */
export function isNotScorable(value: unknown): value is NotScorable {
  return value !== null && typeof value === 'object' && (value as Record<symbol, unknown>)[NOT_SCORABLE] === true;
}
