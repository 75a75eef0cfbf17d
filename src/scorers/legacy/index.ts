/** Mastra 0.x's Metric API over this package's scorers (docs/mastra-compat.md). */
export { Metric, type MetricResult, type MetricResultWithReason } from './metric.js';
export { JudgeMetric, type ScaleOptions } from './judge-metric.js';
export {
  ContentSimilarityMetric,
  CompletenessMetric,
  KeywordCoverageMetric,
  TextualDifferenceMetric,
  ToneConsistencyMetric,
  type ContentSimilarityMetricOptions,
  type CompletenessInfo,
  type TextualDifferenceInfo,
  type ToneConsistencyInfo,
} from './nlp.js';
export {
  AnswerRelevancyMetric,
  FaithfulnessMetric,
  HallucinationMetric,
  ToxicityMetric,
  BiasMetric,
  PromptAlignmentMetric,
  SummarizationMetric,
  type AnswerRelevancyMetricOptions,
  type ContextMetricOptions,
  type PromptAlignmentMetricOptions,
  type PromptAlignmentScoreDetails,
} from './llm.js';
export { ContextPositionMetric, ContextPrecisionMetric, ContextRelevancyMetric, ContextualRecallMetric } from './llm-context.js';
