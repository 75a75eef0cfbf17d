/**
 * Tone consistency with `sentiment` 5.0.2 comparative scores (docs/scorers.md). With `referenceTone`:
 * `max(0, 1 − |cmp(output) − cmp(reference)|)`; without: `max(0, 1 − variance)` of per-sentence scores.
 * The run input is ignored.
 */
import Sentiment from 'sentiment';
import { createScorer } from '../../core/scorer.js';
import { joinMessageTexts } from '../../utils/run-messages.js';


export interface ToneScorerOptions {
  /** A text whose tone the output should match. */
  referenceTone?: string;
}

/**
 * Create the tone scorer.
 *
 * @example
 * ```ts
 * const r = await createToneScorer({ referenceTone: 'This product is wonderful and fantastic!' })
 *   .run({ output: [{ role: 'assistant', content: 'I love this amazing product!' }] });
 * r.score; // 0.9333333333333333
 * ```
 */
export function createToneScorer(options: ToneScorerOptions = {}) {
  const { referenceTone } = options;
  const analyser = new Sentiment();
  const comparative = (text: string): number => analyser.analyze(text).comparative;
  return createScorer({
    id: 'tone-scorer',
    name: 'Tone Scorer',
    description:
      'Analyzes the tone and sentiment of agent responses using sentiment analysis. Can compare against a reference tone or evaluate sentiment stability.',
    type: 'agent',
  })
    .preprocess(({ run }) => {
      const text = joinMessageTexts(run.output);
      if (referenceTone !== undefined) {
        const responseSentiment = comparative(text);
        const referenceSentiment = comparative(referenceTone);
        const difference = Math.abs(responseSentiment - referenceSentiment);
        return { score: Math.max(0, 1 - difference), responseSentiment, referenceSentiment, difference };
      }
      const sentences = text.match(/[^.!?]+[.!?]+/g) ?? [text];
      const scores = sentences.map(comparative);
      const avgSentiment = scores.reduce((a, b) => a + b, 0) / scores.length;
      const sentimentVariance = scores.reduce((sum, s) => sum + (s - avgSentiment) ** 2, 0) / scores.length;
      return { score: Math.max(0, 1 - sentimentVariance), avgSentiment, sentimentVariance };
    })
    .generateScore(({ results }) => results.preprocessStepResult.score);
}
