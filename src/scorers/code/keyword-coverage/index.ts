/**
 * Keyword coverage (docs/scorers.md): share of the input's keywords (`keyword-extractor` 0.0.28, English
 * stopwords, digits removed, lowercased, deduplicated) that also appear in the output. Not rounded.
 */
import keywordExtractorModule from 'keyword-extractor';
import { createScorer } from '../../core/scorer.js';
import { inputMessagesOf, joinMessageTexts } from '../../utils/run-messages.js';

// The package is CommonJS (`module.exports = { extract, getStopwords, … }`) but its types declare a default
// export; under NodeNext the default import is `module.exports`, so describe that object directly.
const keywordExtractor = keywordExtractorModule as unknown as {
  getStopwords(options: { language: string }): string[];
};

/** The reference's English stopword list, as a set (its `indexOf` test, by strict equality, is `has`). */
const STOPWORDS: ReadonlySet<string> = new Set(keywordExtractor.getStopwords({ language: 'en' }));

/** HTML tags, stripped before splitting (the reference's pattern). */
const HTML_TAG = /(<([^>]+)>)/gi;
/** Punctuation removed from a word: anywhere, plus a quote at its very start or end. */
const PUNCTUATION = /[.,;!?():"“”‘’]|^'|'$/g;
/** Single-character words that are only one of these become empty. */
const LONE_SYMBOL = /_|@|&|#/g;

function isUrl(word: string): boolean {
  return word.includes('http://') || word.includes('https://');
}

/** True when every UTF-16 unit of a non-empty word is an ASCII digit (what `\d` matches). */
function allDigits(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/**
 * Keywords of a text, exactly as the reference extracts them (`keyword-extractor`'s `extract` with English
 * stopwords, digits removed, case lowered, duplicates removed): HTML tags stripped, split at every whitespace
 * character, punctuation removed from each word unless it is a URL, lone `_ @ & #` and all-digit words
 * dropped, stopwords dropped, first occurrences kept in order. The reference runs its regular expressions
 * and an `indexOf` over 571 stopwords per word, and a quadratic de-duplication; this does the same with one
 * pass and sets (test/scorers/code/keyword-extraction.test.ts compares the two on generated texts).
 *
 * @example
 * ```ts
 * extractKeywords('The quick brown fox'); // ['quick', 'brown', 'fox']
 * ```
 */
export function extractKeywords(text: string): string[] {
  if (!text) return [];
  const stripped = text.replace(HTML_TAG, '').trim();
  if (!stripped) return [];
  const out: string[] = [];
  const seen = new Set<string>();
  for (const word of stripped.split(/\s/)) {
    const url = isUrl(word);
    let w = url ? word : word.replace(PUNCTUATION, '');
    if (w.length === 1) w = w.replace(LONE_SYMBOL, '');
    if (w.length === 0 || allDigits(w)) continue;
    const low = w.toLowerCase();
    if (STOPWORDS.has(low)) continue;
    const keyword = url ? w : low;
    if (seen.has(keyword)) continue;
    seen.add(keyword);
    out.push(keyword);
  }
  return out;
}

export interface KeywordSets {
  referenceKeywords: Set<string>;
  responseKeywords: Set<string>;
}

/**
 * Create the keyword-coverage scorer (no options). Both texts empty → 1; no input keywords → 1.
 *
 * @example
 * ```ts
 * const r = await createKeywordCoverageScorer().run({ input: { inputMessages: [user('The quick brown fox')] }, output: [assistant('A quick brown fox')] });
 * r.score; // 1
 * ```
 */
export function createKeywordCoverageScorer() {
  return createScorer({
    id: 'keyword-coverage-scorer',
    name: 'Keyword Coverage Scorer',
    description: 'Leverage the nlp method from "compromise" to extract elements from the input and output and calculate the coverage.',
    type: 'agent',
  })
    .preprocess(({ run }): KeywordSets | { result: KeywordSets } => {
      const input = joinMessageTexts(inputMessagesOf(run.input));
      const output = joinMessageTexts(run.output);
      // The reference nests the empty case under `result`; downstream then sees no sets (kept for parity).
      if (!input && !output) return { result: { referenceKeywords: new Set(), responseKeywords: new Set() } };
      return { referenceKeywords: new Set(extractKeywords(input)), responseKeywords: new Set(extractKeywords(output)) };
    })
    .analyze(({ results }) => {
      const r = results.preprocessStepResult as Partial<KeywordSets>;
      if (!r.referenceKeywords?.size && !r.responseKeywords?.size) return { totalKeywordsLength: 0, matchedKeywordsLength: 0 };
      const reference = r.referenceKeywords ?? new Set<string>();
      const response = r.responseKeywords ?? new Set<string>();
      let matched = 0;
      for (const k of reference) if (response.has(k)) matched++;
      return { totalKeywordsLength: reference.size, matchedKeywordsLength: matched };
    })
    .generateScore(({ results }) => {
      const { totalKeywordsLength, matchedKeywordsLength } = results.analyzeStepResult;
      return totalKeywordsLength ? matchedKeywordsLength / totalKeywordsLength : 1;
    });
}
