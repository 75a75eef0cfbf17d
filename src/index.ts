/**
 * The public API of tracejudge. Everything a library user may import is listed here explicitly; anything
 * not exported here is internal and may change. Test doubles are in `tracejudge/testing`.
 */

// Data model
export type { Span, SpanEvent, SpanLink, Trace, LogRecord, Attributes, AttributeValue, SourceKind } from './model/span.js';
export type { AgentRun, AgentRunContext, RunInput, RunMessage, SystemMessage, MessagePart, ToolInvocation, ToolResult, Convention } from './model/agent-run.js';
export { userMessage, assistantMessage, textMessage, systemMessage, messageFromParts, agentInput, messageText, messageInvocations, type MessageOptions } from './model/messages.js';
export type { ScoreRecord } from './model/score-record.js';

// The component model, settings and the service graph
export { componentSettings, type Component, type ComponentSettings } from './component.js';
export { createSettings, type Settings, type CreateSettingsOptions } from './service/settings.js';
export { buildService, type Service, type BuildOptions, type SourcePlan } from './service/build.js';
export { ComponentGraph } from './component-graph.js';

// Config and errors
export type { Config } from './config/schema.js';
export { loadConfig, parseConfig, parseConfigText, type ParseOptions } from './config/load.js';
export { TracejudgeError, ConfigError, DecodeError, ErrorCodes, type ErrorCode } from './errors.js';

// Ingest
export { decodeTraceRequestJson, decodeTraceRequestProto, decodeLogsRequestJson, decodeLogsRequestProto } from './ingest/otlp/decode.js';
export type { TraceDecodeResult, LogsDecodeResult } from './ingest/otlp/decode.js';
export { Interner } from './ingest/otlp/intern.js';
export { OtlpIngest, type OtlpIngestOptions } from './ingest/otlp/ingest.js';
export { createOtlpHttpReceiver, type OtlpHttpReceiverOptions } from './ingest/http/receiver.js';
export { createOtlpGrpcReceiver, type OtlpGrpcReceiverOptions } from './ingest/grpc/receiver.js';
export type { OtlpReceiver } from './ingest/otlp/receiver.js';
export type { TlsServerConfig } from './config/sections/tls.js';
export { TraceAssembler, type TraceAssemblerOptions, type TraceHandler, type AssemblerStats, type DecisionReason } from './ingest/assembler.js';
export type { SpanBatch, SpanSink, OfferResult } from './ingest/sink.js';
export { createKafkaSource, type KafkaSource, type KafkaSourceConfig } from './ingest/kafka/source.js';
export { replayKafka, type KafkaReplayOptions, type ReplayResult } from './ingest/kafka/replay.js';

// Extract
export { Extractor } from './extract/extract.js';
export { extractAgentRuns, extractAgentRunContexts, extractTraces, explainTrace, logsFromRequest } from './api/extract.js';
export { KeyFlagTable } from './extract/key-flags.js';
export type { ExtractOptions, DecodedInput, TraceExtraction } from './extract/extract.js';
export type { ExtractInput } from './api/extract.js';
export { explainText, type TraceExplanation } from './extract/explain.js';
export type { Framework } from './extract/frameworks.js';
export { emptyRunWarning, hasInputText, hasOutputText } from './extract/empty-runs.js';
export { redactRun, capText } from './extract/hygiene.js';
export {
  extractToolResults,
  extractToolCalls,
  getUserMessageFromRunInput,
  getAssistantMessageFromRunOutput,
  getSystemMessagesFromRunInput,
  getCombinedSystemPrompt,
  mergeToolInvocations,
  getTextContentFromMastraDBMessage,
  extractInputMessages,
  extractAgentResponseMessages,
} from './extract/helpers.js';

// Sampling
export { hashToUnitInterval, sampledAtRate, createSamplingPolicy, PolicyHolder, explainSampling, watchConfig, upstreamSampled, BUILTIN_RATES } from './sampling/index.js';
export type { SamplingPolicy, SamplingInput, SamplingDecision, ConfigWatcher, WatchConfigOptions } from './sampling/index.js';

// Scorers: engine
export {
  createScorer,
  Scorer,
  notScorable,
  isNotScorable,
  ScorerRunError,
  ScorerDefinitionError,
  runEvals,
  isJudgeModelPort,
  type ScorerConfig,
  type EvalItem,
  type EvalScorer,
  type RunEvalsOptions,
  type RunEvalsResult,
  type JudgeModelPort,
  type JudgeCallArgs,
  type JudgeCallMeta,
  type JudgeUsage,
} from './scorers/core/index.js';
export type { ScorerRunOptions, JudgePorts } from './scorers/core/scorer.js';
export type { ScorerRun, ScorerRunResult, ScoredRun, NotScorableRun, ScorerRunDetails, ScorerLike, StepName, JudgeConfig } from './scorers/core/types.js';
export { labelOf, wantsReason, scorerVersionOf, DEFAULT_THRESHOLD, type ScorerDescriptor, type ConfiguredScorer, type ScorerKind, type ScoreDirection, type ReasonPolicy } from './scorers/descriptor.js';
export { ScorerRegistry, createScorerRegistry, type ScorerTypeDefinition, type ScorerFactoryContext } from './scorers/registry.js';

// Mastra compatibility (issue 15, docs/mastra-compat.md): MastraScorer as a class, runEvals targets and
// scorer configs, runExperiment, and Mastra 0.x's legacy Metric API.
export {
  MastraScorer,
  runExperiment,
  RunEvalsError,
  type ScorerConfigWithId,
  type ScorerConfigWithName,
  type EvalScorers,
  type EvalTarget,
  type AgentTarget,
  type WorkflowTarget,
  type WorkflowRunLike,
  type WorkflowStepResult,
  type TargetFunction,
  type WorkflowScorerConfig,
  type AgentScorerConfig,
  type Threshold,
  type ItemCompleteEvent,
  type ScorerResults,
  type WorkflowScorerResults,
  type AgentScorerResults,
  type MeanScores,
  type WorkflowScores,
  type AgentScores,
  type ThresholdResult,
} from './scorers/core/index.js';
export {
  Metric,
  JudgeMetric,
  ContentSimilarityMetric,
  CompletenessMetric,
  KeywordCoverageMetric,
  TextualDifferenceMetric,
  ToneConsistencyMetric,
  AnswerRelevancyMetric,
  FaithfulnessMetric,
  HallucinationMetric,
  ToxicityMetric,
  BiasMetric,
  PromptAlignmentMetric,
  SummarizationMetric,
  ContextPositionMetric,
  ContextPrecisionMetric,
  ContextRelevancyMetric,
  ContextualRecallMetric,
  type MetricResult,
  type MetricResultWithReason,
  type ScaleOptions,
  type ContentSimilarityMetricOptions,
  type CompletenessInfo,
  type TextualDifferenceInfo,
  type ToneConsistencyInfo,
  type AnswerRelevancyMetricOptions,
  type ContextMetricOptions,
  type PromptAlignmentMetricOptions,
  type PromptAlignmentScoreDetails,
} from './scorers/legacy/index.js';

// Scorers: code
export { createContentSimilarityScorer, type ContentSimilarityOptions } from './scorers/code/content-similarity/index.js';
export { createTextualDifferenceScorer, lcsLength, lcsRatio } from './scorers/code/textual-difference/index.js';
export { createKeywordCoverageScorer, extractKeywords } from './scorers/code/keyword-coverage/index.js';
export { createCompletenessScorer, type CompletenessOptions } from './scorers/code/completeness/index.js';
export { createToneScorer, type ToneScorerOptions } from './scorers/code/tone/index.js';
export { createToolCallAccuracyScorerCode, type ToolCallAccuracyCodeOptions } from './scorers/code/tool-call-accuracy/index.js';
export { createTrajectoryAccuracyScorerCode, type TrajectoryAccuracyCodeOptions } from './scorers/code/trajectory-accuracy/index.js';
export { createTrajectoryScorerCode, type TrajectoryScorerCodeOptions, type TrajectoryWeights } from './scorers/code/trajectory/index.js';
export { createGroundingScorer, type GroundingOptions } from './scorers/code/grounding/index.js';
export { createClaimGroundingScorer, checkClaims, type ClaimGroundingOptions, type ClaimGroundingResult, type GroundingItem } from './scorers/code/claim-grounding/index.js';
export { createAnsweredScorer, nonAnswerOf, type AnsweredResult, type NonAnswer } from './scorers/code/answered/index.js';
export { includes, excludes, equals, matches, similarity, calledTool, didNotCall, toolOrder, maxToolCalls, usedNoTools, noToolErrors, checks } from './scorers/checks/index.js';
export { createAgentTrajectoryScorer } from './scorers/trajectory/agent-trajectory-scorer.js';
export { agentTrajectorySchema } from './scorers/trajectory/agent-expectations.js';
export { trajectoryFromSpans, trajectoryFromRun } from './scorers/trajectory/from-trace.js';
export { extractTrajectoryFromTrace } from './scorers/trajectory/extract-from-trace.js';
export type { SpanRecord, SpanRecordTime } from './scorers/trajectory/span-record.js';
export {
  roundToTwoDecimals,
  isCloserTo,
  clamp01,
  compareTrajectories,
  stepMatches,
  checkTrajectoryEfficiency,
  checkTrajectoryBlacklist,
  analyzeToolFailures,
  toTrajectory,
  extractTrajectory,
  createTestMessage,
  createToolInvocation,
  createAgentTestRun,
  createTrajectoryTestRun,
  createTestRun,
  getReasoningFromRunOutput,
  type TestMessageOptions,
  type TestToolInvocationOptions,
  type AgentTestRunOptions,
  type TrajectoryTestRunOptions,
  type CompareOptions,
  type TrajectoryComparison,
  type EfficiencyOptions,
  type EfficiencyResult,
  type BlacklistOptions,
  type BlacklistResult,
  type ToolFailureOptions,
  type ToolFailurePattern,
  type ToolFailureResult,
} from './scorers/utils/index.js';
export type { Trajectory, TrajectoryStep, ExpectedStep, TrajectoryExpectation } from './scorers/utils/trajectory-types.js';
export { workflowTrajectory as extractWorkflowTrajectory } from './scorers/core/eval-scorers.js';

// Scorers: LLM-judged
export { createHallucinationScorer, type HallucinationOptions, type HallucinationContextParams } from './scorers/llm/hallucination/index.js';
export { createFaithfulnessScorer, type FaithfulnessOptions } from './scorers/llm/faithfulness/index.js';
export { createAnswerRelevancyScorer, type AnswerRelevancyOptions } from './scorers/llm/answer-relevancy/index.js';
export { createAnswerSimilarityScorer, type AnswerSimilarityOptions } from './scorers/llm/answer-similarity/index.js';
export { createContextPrecisionScorer, type ContextPrecisionOptions } from './scorers/llm/context-precision/index.js';
export { createContextRelevanceScorerLLM, type ContextRelevanceOptions } from './scorers/llm/context-relevance/index.js';
export { createContextRecallScorer, type ContextRecallOptions } from './scorers/llm/context-recall/index.js';
export { createContextPositionScorer, type ContextPositionOptions } from './scorers/llm/context-position/index.js';
export { createBiasScorer } from './scorers/llm/bias/index.js';
export { createToxicityScorer } from './scorers/llm/toxicity/index.js';
export { createPromptAlignmentScorerLLM, type PromptAlignmentOptions, type EvaluationMode } from './scorers/llm/prompt-alignment/index.js';
export { createToolCallAccuracyScorerLLM, type AvailableTool } from './scorers/llm/tool-call-accuracy/index.js';
export { createNoiseSensitivityScorerLLM, type NoiseSensitivityOptions } from './scorers/llm/noise-sensitivity/index.js';
export { createSummarizationScorer, type SummarizationOptions } from './scorers/llm/summarization/index.js';
export { createRubricScorer, type RubricCriteria } from './scorers/llm/rubric/index.js';
export { createMultiTurnJudgeScorer } from './scorers/llm/multi-turn-judge/index.js';
export { createTrajectoryAccuracyScorerLLM } from './scorers/llm/trajectory-accuracy/index.js';
export { createGoalScorer, type GoalOptions } from './scorers/llm/goal/index.js';
export { createClassifierScorer, type ClassifierOptions, type ClassifierAnswer } from './scorers/llm/classifier/index.js';
export { liveContext, LIVE_RUN_KEY, type LiveRunFacts, type JudgeModel } from './scorers/llm/shared.js';
export { createJudgeScorer, judgeScorerOptions } from './scorers/custom/judge-scorer.js';
export { loadModuleScorer, ScorerModuleError } from './scorers/custom/module-scorer.js';

// The LLM judge
export { JudgeResolver, isLanguageModelObject, type JudgeResolverOptions } from './judge/resolver.js';
export { createJudgeClient, type JudgeClient, type JudgeClientOptions } from './judge/client.js';
export { resolveJudgeSettings, judgeEnabled, type JudgeSettings } from './judge/settings.js';
export { createDefaultJudgeResolver } from './judge/default-resolver.js';
export { parseModelString, type JudgeProviderConfig, type JudgeEndpoint, type ModelRoute } from './judge/providers.js';
export { JudgeError, type JudgeFailureKind } from './judge/errors.js';
export { AiSdkJudge, type AiSdkJudgeOptions, type JudgeCallPolicy } from './judge/ai-sdk-judge.js';
export { createJudgeEconomics, runBudgeted, EconomicJudge, JudgeBudgets, JudgeAccounting, estimateCostUsd, JudgeScopes } from './judge/economics/index.js';
export type { JudgeEconomics, JudgeEconomicsOptions, JudgeScope } from './judge/economics/index.js';
export { markJudgeFetch, judgeRequestHeaders } from './judge/self-mark.js';
export { isSelfSpan, isSelfRun, withoutSelfRuns } from './pipeline/self-exclusion.js';

// Pipeline and emit
export { createPipeline, type Pipeline, type PipelineOptions, type PipelineStats } from './pipeline/pipeline.js';
export type { Emitter, EmitResult } from './emit/emitter.js';
export { evaluationIdFor, carrierSpanIdFor } from './emit/evaluation-id.js';
export { scorerVersion, canonicalJson, type ScorerDefinition } from './scorers/version.js';
export { createEmitters } from './emit/create-emitters.js';
export { FanoutEmitter } from './emit/fanout.js';
export { BufferedEmitter, type RecordSender } from './emit/buffered-emitter.js';
export { toCarrierSpan } from './emit/carrier-span.js';
export { toLogEvent } from './emit/log-event.js';

// Own telemetry
export { Telemetry, type Instruments } from './telemetry/instruments.js';
export { createLogger, Secrets } from './telemetry/log.js';
