/** Numeric helpers shared by scorers (docs/scorers.md). */

/**
 * Round to two decimals the reference's way: `Math.round((x + Number.EPSILON) * 100) / 100`.
 *
 * @example
 * ```ts
 * roundToTwoDecimals(1.005); // 1.01
 * roundToTwoDecimals(2 / 3); // 0.67
 * ```
 */
export function roundToTwoDecimals(x: number): number {
  return Math.round((x + Number.EPSILON) * 100) / 100;
}

/**
 * True when `value` is strictly closer to `a` than to `b`.
 *
 * @example
 * ```ts
 * isCloserTo(0.8, 1, 0); // true
 * ```
 */
export function isCloserTo(value: number, a: number, b: number): boolean {
  return Math.abs(value - a) < Math.abs(value - b);
}

/**
 * Clamp to [0, 1].
 *
 * @example
 * ```ts
 * clamp01(1.4); // 1
 * ```
 */
export function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}
