/**
 * Textual difference (docs/scorers.md): score = character LCS ratio
 * `2·LCS(a, b) / (|a| + |b|)` over the raw joined input and output texts, with word-level `changes`,
 * `lengthDiff` and `confidence` as informational preprocess results.
 */
import { createScorer } from '../../core/scorer.js';
import { inputMessagesOf, joinMessageTexts } from '../../utils/run-messages.js';

const WORD = 2 ** 32;

/** Bits set in a 32-bit word. */
function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/**
 * LCS length of `long` and `short` by the bit-parallel recurrence of Allison and Dix (as written by Hyyrö,
 * 2004): one bit per unit of `short`, `V ← (V + (V & M[c])) | (V − (V & M[c]))` for each unit `c` of `long`,
 * and the LCS is the number of zero bits left in V. That is the dynamic programme's answer with one word
 * operation per 32 cells, in multi-word arithmetic with explicit carry and borrow.
 */
function bitParallelLcs(long: string, short: string): number {
  const m = short.length;
  const words = Math.ceil(m / 32);
  const match = new Map<number, Uint32Array>();
  for (let j = 0; j < m; j++) {
    const c = short.charCodeAt(j);
    let bits = match.get(c);
    if (!bits) match.set(c, (bits = new Uint32Array(words)));
    bits[j >>> 5] = ((bits[j >>> 5] as number) | (1 << (j & 31))) >>> 0;
  }
  const v = new Uint32Array(words).fill(0xffffffff);
  for (let i = 0; i < long.length; i++) {
    const bits = match.get(long.charCodeAt(i));
    if (!bits) continue; // U = 0 leaves V as it is
    let carry = 0;
    let borrow = 0;
    for (let w = 0; w < words; w++) {
      const vw = v[w] as number;
      const u = (vw & (bits[w] as number)) >>> 0;
      const sum = vw + u + carry;
      carry = sum >= WORD ? 1 : 0;
      let diff = vw - u - borrow;
      borrow = diff < 0 ? 1 : 0;
      if (diff < 0) diff += WORD;
      v[w] = ((sum >= WORD ? sum - WORD : sum) | diff) >>> 0;
    }
  }
  let zeros = 0;
  for (let w = 0; w < words; w++) {
    const valid = w === words - 1 && m % 32 !== 0 ? (1 << (m % 32)) - 1 : 0xffffffff;
    zeros += popcount(~(v[w] as number) & valid);
  }
  return zeros;
}

/**
 * Length of the longest common subsequence of UTF-16 code units. A common prefix and suffix count as they
 * are (they are part of some LCS); the middles go through the bit-parallel recurrence, which gives the
 * O(|a|·|b|) dynamic programme's answer in O(|a|·|b|/32) word operations.
 *
 * @example
 * ```ts
 * lcsLength('abcde', 'ace'); // 3
 * ```
 */
export function lcsLength(a: string, b: string): number {
  const shortest = Math.min(a.length, b.length);
  let start = 0;
  while (start < shortest && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a.charCodeAt(endA - 1) === b.charCodeAt(endB - 1)) {
    endA--;
    endB--;
  }
  const common = start + (a.length - endA);
  if (endA === start || endB === start) return common;
  const ma = a.slice(start, endA);
  const mb = b.slice(start, endB);
  return common + (ma.length >= mb.length ? bitParallelLcs(ma, mb) : bitParallelLcs(mb, ma));
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
  // Each word of `a` pairs with an unused equal word of `b`: the pairs are the multiset intersection.
  const available = new Map<string, number>();
  for (const w of wb) available.set(w, (available.get(w) ?? 0) + 1);
  let common = 0;
  for (const w of wa) {
    const n = available.get(w);
    if (n !== undefined && n > 0) {
      available.set(w, n - 1);
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
