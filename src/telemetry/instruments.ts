/**
 * tracejudge's self-telemetry and result metrics, with the fixed names of SPEC §7.
 *
 * Every stage counts through `telemetry()`. Until the service installs a MeterProvider with `useMeter`,
 * the instruments are no-ops, so library users and unit tests pay nothing.
 */
import { createNoopMeter, type Counter, type Histogram, type Meter, type ObservableGauge, type Attributes } from '@opentelemetry/api';

/** Bucket boundaries for the score histogram: 0, 0.1, …, 1. */
export const SCORE_BUCKETS = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];

export interface Instruments {
  /** `tracejudge.evaluation.score`, attributes `gen_ai.evaluation.name`, `gen_ai.agent.name`. */
  evaluationScore: Histogram;
  /** `tracejudge.evaluations`, attribute `outcome` = pass | fail | error | skipped. */
  evaluations: Counter;
  /** Attribute `source`. */
  spansReceived: Counter;
  /** Attributes `source`, `reason`. */
  spansRejected: Counter;
  traceAssembled: Counter;
  /** Attribute `reason` (evicted, too_many_spans, late_span, shed, …). */
  tracesDropped: Counter;
  runsExtracted: Counter;
  /** Attributes `decision` = sampled | not_sampled, `reason`. */
  samplingDecisions: Counter;
  /** Attribute `outcome` = success | error | retry | timeout | schema | cached. */
  judgeRequests: Counter;
  /** Attribute `gen_ai.token.type` = input | output. */
  judgeTokens: Counter;
  /** Seconds. */
  judgeDuration: Histogram;
  /** Observed through `observeBufferedTraces`. */
  bufferTraces: ObservableGauge;
  /** `tracejudge.judge.budget.exhausted`. */
  judgeBudgetExhausted: Counter;
  /** Estimated judge cost in USD from the configured price table. */
  judgeCost: Counter;
  /** `tracejudge.emit.records`, attributes `emitter`, `outcome` = sent | failed | rejected. */
  emitRecords: Counter;
  /** Kafka records sent to the dead-letter topic; attribute `outcome` = published | failed. */
  kafkaDeadLetters: Counter;
  /** Offset commits made (one per partition commit), attribute `topic`. */
  kafkaCommits: Counter;
  /** OTLP write-ahead log: bytes on disk (observed through `observeWal`). */
  walBytes: ObservableGauge;
  /** OTLP write-ahead log: records appended or replayed and not yet settled. */
  walUnsettled: ObservableGauge;
  /** OTLP write-ahead log: records appended, attribute `outcome` = durable | failed | full. */
  walAppends: Counter;
  /** OTLP write-ahead log: records replayed at startup. */
  walReplayed: Counter;
}

type GaugeSource = () => number;
const bufferSources = new Set<GaugeSource>();

/** Register a callback that reports how many traces a buffer holds; returns an unregister function. */
export function observeBufferedTraces(source: GaugeSource): () => void {
  bufferSources.add(source);
  return () => bufferSources.delete(source);
}

/** What a write-ahead log reports to its gauges. */
export interface WalGaugeSource {
  bytes: number;
  unsettled: number;
}
const walSources = new Set<() => WalGaugeSource>();

/** Register a write-ahead log's gauges; returns an unregister function. */
export function observeWal(source: () => WalGaugeSource): () => void {
  walSources.add(source);
  return () => walSources.delete(source);
}

export function createInstruments(meter: Meter): Instruments {
  const walBytes = meter.createObservableGauge('tracejudge.wal.bytes', { description: 'Bytes held by the OTLP write-ahead log.', unit: 'By' });
  const walUnsettled = meter.createObservableGauge('tracejudge.wal.unsettled', { description: 'Write-ahead log records not yet scored and emitted.', unit: '{request}' });
  walBytes.addCallback((result) => {
    let n = 0;
    for (const s of walSources) n += s().bytes;
    result.observe(n);
  });
  walUnsettled.addCallback((result) => {
    let n = 0;
    for (const s of walSources) n += s().unsettled;
    result.observe(n);
  });
  const bufferTraces = meter.createObservableGauge('tracejudge.buffer.traces', {
    description: 'Traces held by the assembler, waiting for their decision.',
    unit: '{trace}',
  });
  bufferTraces.addCallback((result) => {
    let n = 0;
    for (const s of bufferSources) n += s();
    result.observe(n);
  });
  return {
    evaluationScore: meter.createHistogram('tracejudge.evaluation.score', {
      description: 'Scores produced by evaluations.',
      unit: '1',
      advice: { explicitBucketBoundaries: SCORE_BUCKETS },
    }),
    evaluations: meter.createCounter('tracejudge.evaluations', { description: 'Evaluations by outcome.', unit: '{evaluation}' }),
    spansReceived: meter.createCounter('tracejudge.spans.received', { description: 'Spans accepted by a source.', unit: '{span}' }),
    spansRejected: meter.createCounter('tracejudge.spans.rejected', { description: 'Spans refused by a source.', unit: '{span}' }),
    traceAssembled: meter.createCounter('tracejudge.traces.assembled', { description: 'Traces handed on by the assembler.', unit: '{trace}' }),
    tracesDropped: meter.createCounter('tracejudge.traces.dropped', { description: 'Traces or late spans dropped.', unit: '{trace}' }),
    runsExtracted: meter.createCounter('tracejudge.runs.extracted', { description: 'Agent runs extracted.', unit: '{run}' }),
    samplingDecisions: meter.createCounter('tracejudge.sampling.decisions', { description: 'Sampling decisions per run and scorer.', unit: '{decision}' }),
    judgeRequests: meter.createCounter('tracejudge.judge.requests', { description: 'Requests to the LLM judge.', unit: '{request}' }),
    judgeTokens: meter.createCounter('tracejudge.judge.tokens', { description: 'Tokens used by the LLM judge.', unit: '{token}' }),
    judgeDuration: meter.createHistogram('tracejudge.judge.duration', { description: 'Judge call latency.', unit: 's' }),
    bufferTraces,
    judgeBudgetExhausted: meter.createCounter('tracejudge.judge.budget.exhausted', { description: 'Evaluations that hit a judge budget.', unit: '{evaluation}' }),
    judgeCost: meter.createCounter('tracejudge.judge.cost', { description: 'Estimated judge cost.', unit: 'USD' }),
    emitRecords: meter.createCounter('tracejudge.emit.records', { description: 'Score records handled by each emitter, by outcome.', unit: '{record}' }),
    kafkaDeadLetters: meter.createCounter('tracejudge.kafka.dead_letters', { description: 'Undecodable Kafka records sent to the dead-letter topic.', unit: '{message}' }),
    kafkaCommits: meter.createCounter('tracejudge.kafka.commits', { description: 'Kafka offset commits (one per partition and commit).', unit: '{commit}' }),
    walBytes,
    walUnsettled,
    walAppends: meter.createCounter('tracejudge.wal.appends', { description: 'OTLP requests written to the write-ahead log, by outcome.', unit: '{request}' }),
    walReplayed: meter.createCounter('tracejudge.wal.replayed', { description: 'Write-ahead log records replayed at startup.', unit: '{request}' }),
  };
}

let current: Instruments = createInstruments(createNoopMeter());

/** The active instruments. */
export function telemetry(): Instruments {
  return current;
}

/** Install a real meter (done once by the service at start, or by a test). */
export function useMeter(meter: Meter): Instruments {
  current = createInstruments(meter);
  return current;
}

/** Shorthand for attribute objects, keeping call sites short. */
export type MetricAttributes = Attributes;
