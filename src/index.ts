/**
 * The public API of tracejudge (SPEC §9). Everything a library user may import is listed here explicitly;
 * anything not exported here is internal and may change.
 */
import './scorers/builtin.js';

// Data model
export type { Span, SpanEvent, SpanLink, Trace, LogRecord, Attributes, AttributeValue, SourceKind } from './model/span.js';
export type { AgentRun, AgentRunContext, RunInput, RunMessage, ToolInvocation, ToolResult, Convention } from './model/agent-run.js';
export type { ScoreRecord, Emitter, EmitResult } from './model/score-record.js';

// Config and errors
export type { Config } from './config/schema.js';
export { loadConfig, parseConfig, parseConfigText } from './config/load.js';
export { TracejudgeError, ConfigError, DecodeError, ErrorCodes, type ErrorCode } from './errors.js';

// Ingest
export { decodeTraceRequestJson, decodeTraceRequestProto, decodeLogsRequestJson, decodeLogsRequestProto } from './ingest/otlp/decode.js';
export type { TraceDecodeResult, LogsDecodeResult } from './ingest/otlp/decode.js';
export { createOtlpHttpReceiver, type OtlpHttpReceiverOptions } from './ingest/http/receiver.js';
export { createOtlpGrpcReceiver, type OtlpGrpcReceiverOptions } from './ingest/grpc/receiver.js';
export type { OtlpReceiver } from './ingest/otlp/receiver.js';
export { TraceAssembler, type TraceAssemblerOptions, type TraceHandler, type AssemblerStats, type DecisionReason } from './ingest/assembler.js';
export type { SpanBatch, SpanSink, OfferResult } from './ingest/sink.js';
export { createKafkaSource, type KafkaSource, type KafkaSourceConfig } from './ingest/kafka/source.js';
export { replayKafka, type ReplayOptions, type ReplayResult } from './ingest/kafka/replay.js';

// Extract
export { extractAgentRuns, extractAgentRunContexts, extractTraces, explainTrace, logsFromRequest } from './extract/extract.js';
export type { ExtractOptions, ExtractInput, TraceExtraction } from './extract/extract.js';
export { explainText, type TraceExplanation } from './extract/explain.js';
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
export type { SamplingPolicy, SamplingInput, SamplingDecision, ScorerKind, ConfigWatcher, WatchConfigOptions } from './sampling/index.js';

// Scorers: engine, utilities, prebuilt scorers, registry
export {
  createScorer,
  Scorer,
  notScorable,
  isNotScorable,
  ScorerRunError,
  ScorerDefinitionError,
  runEvals,
  type MastraScorer,
  type ScorerConfig,
  type EvalItem,
  type EvalScorer,
  type RunEvalsOptions,
  type RunEvalsResult,
} from './scorers/core/index.js';
export type { ScorerRunOptions } from './scorers/core/scorer.js';
export type { ScorerRun, ScorerRunResult, ScorerLike, StepName, JudgeConfig } from './scorers/core/types.js';
export { setJudgePortResolver, type JudgeModelPort } from './judge/port.js';
export * from './scorers/code/index.js';
export * from './scorers/checks/index.js';
export * from './scorers/utils/index.js';
export * from './scorers/llm/index.js';
export { registerScorerType, scoreLabel, directionOf, buildScorers, listScorerTypes, type ScorerTypeDefinition } from './scorers/registry.js';
export { createJudgeClient, installJudge, resolveJudgeSettings, judgeEnabled, JudgeError, AiSdkJudge } from './judge/index.js';
export {
  createJudgeEconomics,
  runBudgeted,
  EconomicJudge,
  JudgeBudgets,
  JudgeAccounting,
  estimateCostUsd,
  shouldGenerateReason,
  withJudgeScope,
} from './judge/economics/index.js';
export { trajectoryFromSpans, trajectoryFromRun } from './scorers/trajectory/from-trace.js';
export { createAgentTrajectoryScorer } from './scorers/trajectory/agent-trajectory-scorer.js';
export { agentTrajectorySchema } from './scorers/trajectory/agent-expectations.js';
export { createJudgeScorer, judgeScorerOptions } from './scorers/custom/judge-scorer.js';
export { loadModuleScorer, ScorerModuleError } from './scorers/custom/module-scorer.js';
export { isSelfSpan, isSelfRun, withoutSelfRuns, markJudgeFetch } from './pipeline/self-exclusion.js';

// Pipeline, emit, service
export { createPipeline, type Pipeline, type PipelineOptions, type PipelineStats } from './pipeline/pipeline.js';
export type { ConfiguredScorer } from './pipeline/configured-scorer.js';
export { evaluationIdFor, carrierSpanIdFor } from './emit/evaluation-id.js';
export { createEmitters } from './emit/create-emitters.js';
export { FanoutEmitter } from './emit/fanout.js';
export { BufferedEmitter, type RecordSender } from './emit/buffered-emitter.js';
export { toCarrierSpan } from './emit/carrier-span.js';
export { toLogEvent } from './emit/log-event.js';
export { startMetrics, type MetricsHandle } from './telemetry/metrics.js';
export { recordScore, recordSkipped } from './telemetry/record-score.js';
export { startService, type RunningService, type ServiceOptions } from './service.js';
