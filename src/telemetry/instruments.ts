/**
 * tracejudge's self-telemetry and result metrics, with the fixed names listed in docs/records.md.
 *
 * Every stage counts through the {@link Telemetry} of its service (handed down in the settings). Built on
 * a no-op meter (`Telemetry.noop()`), the instruments cost nothing: library users and unit tests pay
 * nothing. Two services in one process have two Telemetry objects and share no instrument.
 */
import { createNoopMeter, type Counter, type Histogram, type Meter, type ObservableGauge } from '@opentelemetry/api';
import type { ScoreRecord } from '../model/score-record.js';
import { AgentNameLimiter, type AgentLimitOptions } from './agent-limiter.js';
import type { ExemplarStore } from './exemplars.js';
import { SummedCounter } from './summed-counter.js';

/** Bucket boundaries for the score histogram: 0, 0.1, …, 1. */
export const SCORE_BUCKETS = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];

export interface Instruments {
  /** `tracejudge.evaluation.score`, attributes `gen_ai.evaluation.name`, `gen_ai.agent.name`. */
  evaluationScore: Histogram;
  /** `tracejudge.evaluations`, attribute `outcome` = pass | fail | error | skipped. */
  evaluations: Counter;
  /**
   * `tracejudge.evaluations.unverified`: evaluations whose scorer reported specifics it could check neither way
   * (a record's `unverified` above 0), attributes `gen_ai.evaluation.name`, `gen_ai.agent.name`, `outcome`.
   */
  evaluationsUnverified: Counter;
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
  /**
   * `tracejudge.otlp.empty_requests`: OTLP export requests that carried no span and no log record (accepted, as
   * the spec asks, since unknown fields are ignored; often a client that does not send OTLP). Attribute `signal`.
   */
  otlpEmptyRequests: Counter;
}

/** What a write-ahead log reports to its gauges. */
export interface WalGaugeSource {
  bytes: number;
  unsettled: number;
}

/** One bounded in-memory table (interning, caches): what it holds now. */
export interface TableGauge {
  /** Bounded label: `intern.short`, `intern.config`, `intern.ascii`, `completeness.elements`, … */
  table: string;
  entries: number;
  /** Estimated retained bytes (UTF-16 text plus a per-entry overhead); omitted when it cannot be estimated. */
  bytes?: number;
}

/** Where the observable gauges read their values (each service has its own). */
export interface GaugeSources {
  bufferedTraces: Set<() => number>;
  wal: Set<() => WalGaugeSource>;
  tables: Set<() => readonly TableGauge[]>;
  /** The live page's public URLs (`live.publicUrl`), on `tracejudge.live.info`. */
  liveUrls: Set<string>;
}

function createInstruments(meter: Meter, sources: GaugeSources): Instruments {
  const walBytes = meter.createObservableGauge('tracejudge.wal.bytes', { description: 'Bytes held by the OTLP write-ahead log.', unit: 'By' });
  const walUnsettled = meter.createObservableGauge('tracejudge.wal.unsettled', { description: 'Write-ahead log records not yet scored and emitted.', unit: '{request}' });
  walBytes.addCallback((result) => {
    let n = 0;
    for (const s of sources.wal) n += s().bytes;
    result.observe(n);
  });
  walUnsettled.addCallback((result) => {
    let n = 0;
    for (const s of sources.wal) n += s().unsettled;
    result.observe(n);
  });
  const tableBytes = meter.createObservableGauge('tracejudge.memory.table.bytes', {
    description: 'Estimated bytes held by a bounded in-memory table (interning, caches).',
    unit: 'By',
  });
  const tableEntries = meter.createObservableGauge('tracejudge.memory.table.entries', {
    description: 'Entries held by a bounded in-memory table (interning, caches).',
    unit: '{entry}',
  });
  tableBytes.addCallback((result) => {
    for (const s of sources.tables) for (const t of s()) if (t.bytes !== undefined) result.observe(t.bytes, { table: t.table });
  });
  tableEntries.addCallback((result) => {
    for (const s of sources.tables) for (const t of s()) result.observe(t.entries, { table: t.table });
  });
  // An info metric (value 1): alert rules read the live page's public URL from it (docs/alerting.md).
  meter
    .createObservableGauge('tracejudge.live.info', { description: "The live page's public URL (live.publicUrl), for links in alerts." })
    .addCallback((result) => {
      for (const url of sources.liveUrls) result.observe(1, { url });
    });
  const bufferTraces = meter.createObservableGauge('tracejudge.buffer.traces', {
    description: 'Traces held by the assembler, waiting for their decision.',
    unit: '{trace}',
  });
  bufferTraces.addCallback((result) => {
    let n = 0;
    for (const s of sources.bufferedTraces) n += s();
    result.observe(n);
  });
  return {
    evaluationScore: meter.createHistogram('tracejudge.evaluation.score', {
      description: 'Scores produced by evaluations.',
      unit: '1',
      advice: { explicitBucketBoundaries: SCORE_BUCKETS },
    }),
    // The counters that move once per evaluation or per trace are summed in the process (summed-counter.ts).
    evaluations: new SummedCounter(meter, 'tracejudge.evaluations', { description: 'Evaluations by outcome.', unit: '{evaluation}' }, [
      'gen_ai.evaluation.name',
      'gen_ai.agent.name',
      'outcome',
      'tracejudge.skip.reason',
    ]),
    evaluationsUnverified: new SummedCounter(
      meter,
      'tracejudge.evaluations.unverified',
      { description: 'Evaluations that left specifics of the answer unverified (neither supported nor contradicted).', unit: '{evaluation}' },
      ['gen_ai.evaluation.name', 'gen_ai.agent.name', 'outcome'],
    ),
    spansReceived: meter.createCounter('tracejudge.spans.received', { description: 'Spans accepted by a source.', unit: '{span}' }),
    spansRejected: meter.createCounter('tracejudge.spans.rejected', { description: 'Spans refused by a source.', unit: '{span}' }),
    traceAssembled: new SummedCounter(meter, 'tracejudge.traces.assembled', { description: 'Traces handed on by the assembler.', unit: '{trace}' }, ['source', 'reason']),
    tracesDropped: meter.createCounter('tracejudge.traces.dropped', { description: 'Traces or late spans dropped.', unit: '{trace}' }),
    runsExtracted: new SummedCounter(meter, 'tracejudge.runs.extracted', { description: 'Agent runs extracted.', unit: '{run}' }, ['source']),
    samplingDecisions: new SummedCounter(meter, 'tracejudge.sampling.decisions', { description: 'Sampling decisions per run and scorer.', unit: '{decision}' }, [
      'decision',
      'reason',
      'gen_ai.evaluation.name',
    ]),
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
    otlpEmptyRequests: meter.createCounter('tracejudge.otlp.empty_requests', {
      description: 'OTLP export requests with no span and no log record (accepted; unknown fields are ignored).',
      unit: '{request}',
    }),
  };
}


/**
 * The instruments of one service, the agent-name bound of its result metrics, and the gauge sources.
 * Result metrics (`tracejudge.evaluation.score`, `tracejudge.evaluations`) carry `gen_ai.evaluation.name`
 * and a bounded `gen_ai.agent.name`; never a trace id or free text.
 *
 * Exemplars: @opentelemetry/sdk-metrics 2.x has no working exemplar support (opentelemetry-js issue #5147)
 * and @opentelemetry/exporter-prometheus writes the 0.0.4 text format, which has no exemplars. So each
 * record's trace id is kept beside the instruments, in an {@link ExemplarStore} (the last one per series),
 * which `/metrics` writes as exemplars when asked for OpenMetrics (openmetrics.ts). OTLP metrics carry none.
 */
/** Why the pipeline skips an evaluation before the scorer runs (docs/records.md, "When there is no record"). */
export const SKIP_REASONS = Object.freeze(['no-output', 'no-input', 'no-ground-truth', 'no-trajectory'] as const);

export class Telemetry {
  readonly instruments: Instruments;
  readonly #sources: GaugeSources = { bufferedTraces: new Set(), wal: new Set(), tables: new Set(), liveUrls: new Set() };
  readonly #agents: AgentNameLimiter;
  readonly #exemplars: ExemplarStore | undefined;
  readonly #now: () => number;

  /** `exemplars`: where result records leave their trace id for `/metrics` (absent: none kept). */
  constructor(meter: Meter, limits: AgentLimitOptions = { maxAgents: 100, allowAgents: [] }, exemplars?: ExemplarStore, now: () => number = Date.now) {
    this.instruments = createInstruments(meter, this.#sources);
    this.#agents = new AgentNameLimiter(limits);
    this.#exemplars = exemplars;
    this.#now = now;
  }

  /** Instruments on a no-op meter. */
  static noop(): Telemetry {
    return new Telemetry(createNoopMeter());
  }

  /** Report how many traces a buffer holds, on `tracejudge.buffer.traces`; returns the unregister function. */
  observeBufferedTraces(source: () => number): () => void {
    this.#sources.bufferedTraces.add(source);
    return () => this.#sources.bufferedTraces.delete(source);
  }

  /** Report bounded in-memory tables on `tracejudge.memory.table.{bytes,entries}`; returns the unregister function. */
  observeTables(source: () => readonly TableGauge[]): () => void {
    this.#sources.tables.add(source);
    return () => this.#sources.tables.delete(source);
  }

  /** Publish the live page's public URL on `tracejudge.live.info{url}`; returns the unregister function. */
  observeLiveUrl(url: string): () => void {
    this.#sources.liveUrls.add(url);
    return () => this.#sources.liveUrls.delete(url);
  }

  /** Report a write-ahead log's bytes and unsettled records; returns the unregister function. */
  observeWal(source: () => WalGaugeSource): () => void {
    this.#sources.wal.add(source);
    return () => this.#sources.wal.delete(source);
  }

  /** The metric label for an agent name: the name, or `other` beyond `emit.metrics` bounds. */
  agentLabel(agentName: string): string {
    return this.#agents.label(agentName);
  }

  /** Count one score record and, when it has a score, observe it on the histogram. */
  recordScore(record: ScoreRecord): void {
    const agent = this.agentLabel(record.agentName);
    const attrs = { 'gen_ai.evaluation.name': record.scorer, 'gen_ai.agent.name': agent };
    const scored = typeof record.score === 'number' && Number.isFinite(record.score) && !record.error ? record.score : undefined;
    if (scored !== undefined) this.instruments.evaluationScore.record(scored, attrs);
    const outcome = outcomeOf(record);
    this.instruments.evaluations.add(1, { ...attrs, outcome });
    this.#exemplars?.record({ scorer: record.scorer, agent }, outcome, record.traceId, scored, this.#now());
    if ((record.unverified ?? 0) > 0) this.instruments.evaluationsUnverified.add(1, { ...attrs, outcome });
  }

  /** Count an evaluation a scorer could not apply to (no record is produced for it). */
  /**
   * One not-applicable evaluation. `reason` is one of the pipeline's own ({@link SKIP_REASONS}); a scorer's
   * own "not scorable" reason (free text) is counted as `not_scorable`, so the label stays bounded.
   */
  recordSkipped(agentName: string, scorer: string, reason?: string): void {
    const why = reason !== undefined && (SKIP_REASONS as readonly string[]).includes(reason) ? reason.replace(/-/g, '_') : 'not_scorable';
    this.instruments.evaluations.add(1, {
      'gen_ai.evaluation.name': scorer,
      'gen_ai.agent.name': this.agentLabel(agentName),
      outcome: 'skipped',
      'tracejudge.skip.reason': why,
    });
  }
}

/** The outcome of a record: `error` when it carries one, else its label (`pass` when unlabelled). */
function outcomeOf(record: ScoreRecord): 'pass' | 'fail' | 'error' {
  if (record.error || typeof record.score !== 'number') return 'error';
  return record.label === 'fail' ? 'fail' : 'pass';
}
