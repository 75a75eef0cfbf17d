/**
 * Keyword coverage (docs/scorers.md): share of the input's keywords (`keyword-extractor` 0.0.28, English
 * stopwords, digits removed, lowercased, deduplicated) that also appear in the output. Not rounded.
 */
import keywordExtractorModule from 'keyword-extractor';
import { createScorer } from '../../core/scorer.js';
import { inputMessagesOf, joinMessageTexts } from '../../utils/run-messages.js';

// The package is CommonJS (`module.exports = { extract, … }`) but its types declare a default export;
// under NodeNext the default import is `module.exports`, so describe that object directly.
const keywordExtractor = keywordExtractorModule as unknown as {
  extract(text: string, options: Record<string, unknown>): string[];
};

const EXTRACT_OPTIONS = {
  language: 'english',
  remove_digits: true,
  return_changed_case: true,
  remove_duplicates: true,
} as const;

/**
 * Keywords of a text, exactly as the reference extracts them.
 *
 * @example
 * ```ts
 * extractKeywords('The quick brown fox'); // ['quick', 'brown', 'fox']
 * ```
 */
export function extractKeywords(text: string): string[] {
  return keywordExtractor.extract(text, EXTRACT_OPTIONS);
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
