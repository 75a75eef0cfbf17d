/**
 * Content similarity (docs/scorers.md): Sørensen–Dice over character bigrams (`string-similarity` 4.0.4's
 * `compareTwoStrings`, computed by ../../utils/dice.ts) between the joined input texts and the joined output texts.
 * Not rounded.
 */
import { createScorer } from '../../core/scorer.js';
import { diceBigrams } from '../../utils/dice.js';
import { inputMessagesOf, joinMessageTexts } from '../../utils/run-messages.js';

export interface ContentSimilarityOptions {
  ignoreCase?: boolean;
  ignoreWhitespace?: boolean;
}

function normalise(text: string, o: ContentSimilarityOptions): string {
  let t = text;
  if (o.ignoreCase) t = t.toLowerCase();
  if (o.ignoreWhitespace) t = t.replace(/\s+/g, ' ').trim();
  return t;
}

/**
 * Create the content-similarity scorer. With no argument both normalisations are on; passing an object
 * turns on only what it sets (`{}` disables both), as in the reference.
 *
 * @example
 * ```ts
 * const r = await createContentSimilarityScorer().run({
 *   input: { inputMessages: [{ role: 'user', content: 'The quick brown fox' }] },
 *   output: [{ role: 'assistant', content: 'The quick brown cat' }],
 * }); // r.score === 0.8
 * ```
 */
export function createContentSimilarityScorer(options: ContentSimilarityOptions = { ignoreCase: true, ignoreWhitespace: true }) {
  const o = { ...options };
  return createScorer({
    id: 'content-similarity-scorer',
    name: 'Content Similarity Scorer',
    description: 'Calculates content similarity between input and output messages using string comparison',
    type: 'agent',
  })
    .preprocess(({ run }) => ({
      processedInput: normalise(joinMessageTexts(inputMessagesOf(run.input)), o),
      processedOutput: normalise(joinMessageTexts(run.output), o),
    }))
    .generateScore(({ results }) => diceBigrams(results.preprocessStepResult.processedInput, results.preprocessStepResult.processedOutput));
}
