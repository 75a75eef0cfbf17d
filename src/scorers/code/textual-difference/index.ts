/**
 * Textual difference (docs/scorers.md): score = character LCS ratio
 * `2·LCS(a, b) / (|a| + |b|)` over the raw joined input and output texts, with word-level `changes`,
 * `lengthDiff` and `confidence` as informational preprocess results.
 */
import { createScorer } from '../../core/scorer.js';
import { inputMessagesOf, joinMessageTexts } from '../../utils/run-messages.js';

/**
 * Length of the longest common subsequence of UTF-16 code units (two-row DP, O(|a|·|b|) time, O(|b|) memory).
 *
 * @example
 * ```ts
 * lcsLength('abcde', 'ace'); // 3
 * ```
 */
export function lcsLength(a: string, b: string): number {
  if (a.length === 0 || b.length === 0) return 0;
  let prev = new Uint32Array(b.length + 1);
  let cur = new Uint32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      if (ca === b.charCodeAt(j - 1)) cur[j] = (prev[j - 1] as number) + 1;
      else {
        const up = prev[j] as number;
        const left = cur[j - 1] as number;
        cur[j] = up > left ? up : left;
      }
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length] as number;
}

/**
 * `2·LCS / (|a| + |b|)`; 1 for equal strings, 0 when exactly one is empty.
 *
 * @example
 * ```ts
 * lcsRatio('The quick brown fox', 'The quick brown cat'); // 0.8421052631578947
 * ```
 */
export function lcsRatio(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  return (2 * lcsLength(a, b)) / (a.length + b.length);
}

function words(s: string): string[] {
  return s.split(/\s+/).filter((w) => w.length > 0);
}

/**
 * Word-level change count (informational; see docs/scorers.md).
 *
 * @example
 * ```ts
 * wordChanges('The quick brown fox', 'The very quick brown fox'); // 1
 * ```
 */
function wordChanges(a: string, b: string): number {
  const na = a.replace(/\s+/g, ' ').trim();
  const nb = b.replace(/\s+/g, ' ').trim();
  if (na === nb) {
    if (a === b) return 0;
    return Math.abs(words(a).length - words(b).length) || 1;
  }
  const wa = words(na);
  const wb = words(nb);
  if (wa.length === 0 && wb.length === 0) return 0;
  if (wa.length === 0) return wb.length;
  if (wb.length === 0) return wa.length;
  const used = new Array<boolean>(wb.length).fill(false);
  let common = 0;
  for (const w of wa) {
    const j = wb.findIndex((x, k) => !used[k] && x === w);
    if (j >= 0) {
      used[j] = true;
      common++;
    }
  }
  return Math.max(wa.length, wb.length) - common;
}

/**
 * Create the textual-difference scorer (no options).
 *
 * @example
 * ```ts
 * const r = await createTextualDifferenceScorer().run({ input: { inputMessages: [user('abc')] }, output: [assistant('abd')] });
 * r.preprocessStepResult; // { ratio, confidence, changes, lengthDiff }
 * ```
 */
export function createTextualDifferenceScorer() {
  return createScorer({
    id: 'textual-difference-scorer',
    name: 'Textual Difference Scorer',
    description: 'Calculate textual difference between input and output using sequence matching',
    type: 'agent',
  })
    .preprocess(({ run }) => {
      const a = joinMessageTexts(inputMessagesOf(run.input));
      const b = joinMessageTexts(run.output);
      const ratio = lcsRatio(a, b);
      const maxLength = Math.max(a.length, b.length);
      const lengthDiff = maxLength > 0 ? Math.abs(a.length - b.length) / maxLength : 0;
      return { ratio, confidence: 1 - lengthDiff, changes: wordChanges(a, b), lengthDiff };
    })
    .generateScore(({ results }) => results.preprocessStepResult.ratio);
}
