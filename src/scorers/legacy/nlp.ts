/**
 * The code-based legacy metrics (Mastra 0.x `@mastra/evals/nlp`), each over the scorer of the same name
 * (docs/mastra-compat.md lists the mapping and the known differences).
 */
import { createCompletenessScorer } from '../code/completeness/index.js';
import { createContentSimilarityScorer, type ContentSimilarityOptions } from '../code/content-similarity/index.js';
import { createKeywordCoverageScorer } from '../code/keyword-coverage/index.js';
import { createTextualDifferenceScorer } from '../code/textual-difference/index.js';
import { createToneScorer } from '../code/tone/index.js';
import { assistantMessage } from '../../model/messages.js';
import { checkMeasureArgs, legacyRun, legacyUsage, Metric, runForScore, type MetricResult } from './metric.js';

/** `new ContentSimilarityMetric({ ignoreCase, ignoreWhitespace })`: both default to true. */
export interface ContentSimilarityMetricOptions {
  ignoreCase?: boolean;
  ignoreWhitespace?: boolean;
}

/**
 * Dice similarity of character bigrams between `input` and `output` (content-similarity scorer).
 * `info.similarity` is the score.
 *
 * @example
 * ```ts
 * await new ContentSimilarityMetric({ ignoreCase: true }).measure('The quick brown fox', 'the quick brown fox'); // { score: 1, info: { similarity: 1 } }
 * ```
 */
export class ContentSimilarityMetric extends Metric {
  readonly scorer: ReturnType<typeof createContentSimilarityScorer>;
  constructor(options: ContentSimilarityMetricOptions = {}) {
    super();
    if (options === null || typeof options !== 'object') throw legacyUsage('new ContentSimilarityMetric(options)', 'options must be an object');
    // Mastra 0.x merged the options over both defaults; the scorer turns on only what its options set.
    const o: ContentSimilarityOptions = { ignoreCase: true, ignoreWhitespace: true, ...options };
    this.scorer = createContentSimilarityScorer(o);
  }

  async measure(input: string, output: string): Promise<MetricResult & { info: { similarity: number } }> {
    checkMeasureArgs('ContentSimilarityMetric', input, output);
    const { score } = await runForScore('ContentSimilarityMetric', this.scorer, legacyRun(input, output));
    return { score, info: { similarity: score } };
  }
}

/** `info` of {@link CompletenessMetric}. */
export interface CompletenessInfo {
  inputElements: string[];
  outputElements: string[];
  missingElements: string[];
  elementCounts: { input: number; output: number };
  [key: string]: unknown;
}

/**
 * Share of the input's elements (nouns, verbs, topics, terms) found in the output (completeness scorer).
 *
 * @example
 * ```ts
 * const { info } = await new CompletenessMetric().measure('The fox jumps', 'The fox jumps'); // info.missingElements: []
 * ```
 */
export class CompletenessMetric extends Metric {
  readonly scorer = createCompletenessScorer();

  async measure(input: string, output: string): Promise<MetricResult & { info: CompletenessInfo }> {
    checkMeasureArgs('CompletenessMetric', input, output);
    const r = await runForScore('CompletenessMetric', this.scorer, legacyRun(input, output));
    const p = r.preprocessStepResult as CompletenessInfo;
    return {
      score: r.score,
      info: { inputElements: p.inputElements, outputElements: p.outputElements, missingElements: p.missingElements, elementCounts: p.elementCounts },
    };
  }
}

/**
 * Share of the input's keywords found in the output (keyword-coverage scorer). `info` has the counts:
 * `totalKeywords` (input keywords) and `matchedKeywords` (of them, found in the output).
 *
 * @example
 * ```ts
 * await new KeywordCoverageMetric().measure('quick brown fox', 'a quick fox'); // score 2/3, info { totalKeywords: 3, matchedKeywords: 2 }
 * ```
 */
export class KeywordCoverageMetric extends Metric {
  readonly scorer = createKeywordCoverageScorer();

  async measure(input: string, output: string): Promise<MetricResult & { info: { totalKeywords: number; matchedKeywords: number } }> {
    checkMeasureArgs('KeywordCoverageMetric', input, output);
    const r = await runForScore('KeywordCoverageMetric', this.scorer, legacyRun(input, output));
    const a = r.analyzeStepResult as { totalKeywordsLength: number; matchedKeywordsLength: number };
    return { score: r.score, info: { totalKeywords: a.totalKeywordsLength, matchedKeywords: a.matchedKeywordsLength } };
  }
}

/** `info` of {@link TextualDifferenceMetric}. */
export interface TextualDifferenceInfo {
  /** The score: 2·LCS / (|input| + |output|). */
  ratio: number;
  /** Word-level changes. */
  changes: number;
  /** |len(input) − len(output)| / max length. */
  lengthDiff: number;
  /** 1 − lengthDiff. */
  confidence: number;
  [key: string]: unknown;
}

/**
 * Character-level similarity of `input` and `output` (textual-difference scorer).
 *
 * @example
 * ```ts
 * await new TextualDifferenceMetric().measure('abc', 'abc'); // { score: 1, info: { ratio: 1, changes: 0, lengthDiff: 0, confidence: 1 } }
 * ```
 */
export class TextualDifferenceMetric extends Metric {
  readonly scorer = createTextualDifferenceScorer();

  async measure(input: string, output: string): Promise<MetricResult & { info: TextualDifferenceInfo }> {
    checkMeasureArgs('TextualDifferenceMetric', input, output);
    const r = await runForScore('TextualDifferenceMetric', this.scorer, legacyRun(input, output));
    const p = r.preprocessStepResult as TextualDifferenceInfo;
    return { score: r.score, info: { confidence: p.confidence, ratio: p.ratio, changes: p.changes, lengthDiff: p.lengthDiff } };
  }
}

/** `info` of {@link ToneConsistencyMetric}: comparison (output given) or stability (output `''`). */
export type ToneConsistencyInfo =
  | { responseSentiment: number; referenceSentiment: number; difference: number; [key: string]: unknown }
  | { avgSentiment: number; sentimentVariance: number; [key: string]: unknown };

/**
 * Tone consistency (tone scorer). With a non-empty `output`, `input`'s sentiment is compared with `output`'s
 * (`output` is the reference tone); with `output` `''`, the stability of `input`'s sentiment across its sentences.
 *
 * @example
 * ```ts
 * await new ToneConsistencyMetric().measure('Great service! Friendly staff.', ''); // info: { avgSentiment, sentimentVariance }
 * ```
 */
export class ToneConsistencyMetric extends Metric {
  readonly #stability = createToneScorer();

  async measure(input: string, output: string): Promise<MetricResult & { info: ToneConsistencyInfo }> {
    checkMeasureArgs('ToneConsistencyMetric', input, output);
    // Mastra 0.x analysed `input` as the response and `output` as the reference: the scorer scores its run output.
    const scorer = output ? createToneScorer({ referenceTone: output }) : this.#stability;
    const r = await runForScore('ToneConsistencyMetric', scorer, { output: [assistantMessage(input)] });
    const p = r.preprocessStepResult as Record<string, number>;
    const info: ToneConsistencyInfo = output
      ? { responseSentiment: p.responseSentiment as number, referenceSentiment: p.referenceSentiment as number, difference: p.difference as number }
      : { avgSentiment: p.avgSentiment as number, sentimentVariance: p.sentimentVariance as number };
    return { score: r.score, info };
  }
}
