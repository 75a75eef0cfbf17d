/** Text quick checks (docs/scorers.md): includes, excludes, equals, matches, similarity. Scores 0/1. */
import { diceBigrams } from '../utils/dice.js';
import { createScorer } from '../core/scorer.js';
import { assistantText } from '../utils/run-messages.js';

function check(id: string, description: string, sep: string, test: (text: string) => number) {
  return createScorer({ id, name: id, description, type: 'agent' }).generateScore(({ run }) => test(assistantText(run.output, sep)));
}

/**
 * 1 when the assistant text contains `expected` (case-insensitive unless `ignoreCase: false`).
 *
 * @example
 * ```ts
 * includes('sunny'); // "It is Sunny today" → 1
 * ```
 */
export function includes(expected: string, options: { ignoreCase?: boolean } = {}) {
  const ic = options.ignoreCase ?? true;
  const want = ic ? expected.toLowerCase() : expected;
  return check('check-includes', `Output includes "${expected}"`, ' ', (t) => ((ic ? t.toLowerCase() : t).includes(want) ? 1 : 0));
}

/**
 * 1 when the assistant text does not contain `unwanted`.
 *
 * @example
 * ```ts
 * excludes('error'); // "An Error occurred" → 0
 * ```
 */
export function excludes(unwanted: string, options: { ignoreCase?: boolean } = {}) {
  const ic = options.ignoreCase ?? true;
  const bad = ic ? unwanted.toLowerCase() : unwanted;
  return check('check-excludes', `Output excludes "${unwanted}"`, ' ', (t) => ((ic ? t.toLowerCase() : t).includes(bad) ? 0 : 1));
}

/**
 * 1 when the assistant text (messages joined with '') equals `expected`; no trimming.
 *
 * @example
 * ```ts
 * equals('Hello, world!'); // "hello, WORLD!" → 1
 * ```
 */
export function equals(expected: string, options: { ignoreCase?: boolean } = {}) {
  const ic = options.ignoreCase ?? true;
  const want = ic ? expected.toLowerCase() : expected;
  return check('check-equals', `Output equals "${expected}"`, '', (t) => ((ic ? t.toLowerCase() : t) === want ? 1 : 0));
}

/**
 * 1 when `regex` matches the assistant text; `exact` anchors it (`^…$`).
 *
 * @example
 * ```ts
 * matches(/\d{1,3}°[FC]/); // "It is 72°F" → 1
 * ```
 */
export function matches(regex: RegExp, options: { exact?: boolean } = {}) {
  const source = options.exact ? `^${regex.source}$` : regex.source;
  const flags = regex.flags.replace(/[gy]/g, '');
  const re = new RegExp(source, flags);
  return check('check-matches', `Output matches ${String(regex)}`, '', (t) => (re.test(t) ? 1 : 0));
}

/**
 * Dice similarity of the assistant text to `expected`; with `threshold`, 1 when ≥ threshold else 0.
 *
 * @example
 * ```ts
 * similarity('Sunny, 72°F'); // "sunny 72°F" → 0.8235294117647058
 * ```
 */
export function similarity(expected: string, options: { ignoreCase?: boolean; threshold?: number } = {}) {
  const ic = options.ignoreCase ?? true;
  const want = ic ? expected.toLowerCase() : expected;
  const { threshold } = options;
  return check('check-similarity', `Output is similar to "${expected}"`, ' ', (t) => {
    const s = diceBigrams(ic ? t.toLowerCase() : t, want);
    return threshold === undefined ? s : s >= threshold ? 1 : 0;
  });
}
