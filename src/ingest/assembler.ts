/**
 * The trace assembler: groups spans (and their log records) by trace id, decides when a trace is
 * complete, and hands complete traces to an async handler with bounded concurrency.
 *
 * A trace is decided when its root span (`parentSpanId === ''`) has arrived and `decisionWaitMs` has
 * passed since its last span, or when `maxTraceAgeMs` has passed since its first span (root or not).
 * Time comes from an injected clock and only moves when the owner calls `tick()` (or `start()` does,
 * on one interval), so every decision is reproducible in tests.
 *
 * Everything is bounded: held traces, spans per trace, estimated bytes, decided traces waiting for a
 * handler slot. At a bound `offer` refuses the whole batch (sources answer 429/503 or pause); in
 * `overflow: evict` mode the oldest undecided traces are dropped instead, and counted. A batch that is
 * over the trace or byte bound on its own (it would not fit even an empty assembler) is never taken
 * whole: the traces that fit are taken and the rest rejected (the OTLP receivers answer partial success
 * naming the bound); only into an empty assembler does its first trace go in regardless, so that an
 * oversized trace cannot stall a source forever.
 */
import type { z } from 'zod';
import { assemblySection } from '../config/sections/assembly.js';
import { errorMessage, UndeliveredError } from '../errors.js';
import { componentSettings, raceDeadline, type Component, type ComponentSettings } from '../component.js';
import type { Telemetry } from '../telemetry/instruments.js';
import { ThrottledLog } from '../telemetry/log.js';
import { DeadlineHeap } from './deadline-heap.js';
import { DecidedCache } from './decided-cache.js';
import { HeldTrace, type BatchRef } from './held-trace.js';
import type { OfferResult, PartialAcceptance, Refusal, SpanBatch, SpanSink } from './sink.js';
import { estimateLogBytes, estimateSpanBytes, type LogRecord, type Span, type Trace } from '../model/span.js';

/** The `assembly` config section. */
export type AssemblyConfig = z.output<typeof assemblySection>;

/** Handles one decided trace (extract → sample → score → emit). A rejection is logged and counted. */
export type TraceHandler = (trace: Trace) => Promise<void>;

/** Why a trace was decided; the `reason` attribute of `tracejudge.traces.assembled`. */
export type DecisionReason = 'complete' | 'max_age' | 'missing_root' | 'flush';

type DropReason = 'late_span' | 'too_many_spans' | 'evicted' | 'handler_error' | 'orphan_log' | 'over_bounds';

export interface TraceAssemblerOptions {
  /** Overrides of the `assembly` defaults. */
  config?: Partial<AssemblyConfig>;
  onTrace: TraceHandler;
  /** Logger, instruments and clock (default: silent, no-op, `Date.now`). */
  settings?: ComponentSettings;
}

/** Counters since creation, for logs, tests and the shutdown summary. */
export interface AssemblerStats {
  spansAccepted: number;
  logsAccepted: number;
  duplicateSpans: number;
  lateSpans: number;
  lateLogs: number;
  orphanLogs: number;
  tooManySpans: number;
  tracesAssembled: number;
  tracesEvicted: number;
  handlerErrors: number;
  batchesRefused: number;
  /** Traces of batches over the bounds on their own that were rejected (partial acceptance). */
  tracesOverBounds: number;
  /** Traces whose records were not delivered by the shutdown: left unsettled for redelivery, not dropped. */
  tracesUndelivered: number;
}

const MIN_RETRY_AFTER_MS = 1000;
const MAX_RETRY_AFTER_MS = 30_000;
/**
 * Handlers started in one turn of the event loop, at most; the rest start on the next turn. Handlers that
 * finish without I/O (a trace without agent runs) settle in microtasks, and without this cap a burst of
 * decided traces would hold the loop, and `/healthz`, until the last of them.
 */
const HANDLERS_PER_TURN = 256;

export class TraceAssembler implements SpanSink, Component {
  readonly name = 'assembler';
  readonly config: AssemblyConfig;
  private readonly onTrace: TraceHandler;
  private readonly now: () => number;
  private readonly log: ComponentSettings['logger'];
  private readonly telemetry: Telemetry;
  private shutdownPromise: Promise<void> | undefined;
  private readonly held = new Map<string, HeldTrace>();
  private readonly heap = new DeadlineHeap<HeldTrace>();
  private readonly decided: DecidedCache;
  private readonly queue: HeldTrace[] = [];
  private queueHead = 0;
  private inFlight = 0;
  private bytes = 0;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  private unobserve: (() => void) | undefined;
  private idleWaiters: (() => void)[] = [];
  private startedThisTurn = 0;
  private nextTurn: NodeJS.Immediate | undefined;
  private readonly dropLogs: Record<DropReason, ThrottledLog>;
  readonly stats: AssemblerStats = {
    spansAccepted: 0,
    logsAccepted: 0,
    duplicateSpans: 0,
    lateSpans: 0,
    lateLogs: 0,
    orphanLogs: 0,
    tooManySpans: 0,
    tracesAssembled: 0,
    tracesEvicted: 0,
    handlerErrors: 0,
    batchesRefused: 0,
    tracesOverBounds: 0,
    tracesUndelivered: 0,
  };
  private readonly undeliveredLog: ThrottledLog;

  constructor(options: TraceAssemblerOptions) {
    this.config = assemblySection.parse(options.config ?? {});
    this.onTrace = options.onTrace;
    const settings = options.settings ?? componentSettings();
    this.now = settings.now;
    this.telemetry = settings.telemetry;
    this.log = settings.logger.child({ component: 'assembler' });
    this.decided = new DecidedCache(this.config.decidedCacheSize);
    const throttled = (msg: string): ThrottledLog => new ThrottledLog(this.log, msg, 10_000, this.now);
    this.undeliveredLog = throttled('traces not delivered to every output by the shutdown; left unsettled for redelivery');
    this.dropLogs = {
      late_span: throttled('spans arrived after their trace was decided; dropped'),
      too_many_spans: throttled('trace exceeded assembly.maxSpansPerTrace; extra spans dropped'),
      evicted: throttled('traces evicted to stay within the assembler bounds'),
      handler_error: throttled('trace handler failed'),
      orphan_log: throttled('log records without a trace id cannot be joined; dropped'),
      over_bounds: throttled('a batch exceeded the assembler bounds on its own; the traces that did not fit were rejected'),
    };
  }

  /** Traces waiting for their decision. */
  get bufferedTraces(): number {
    return this.held.size;
  }

  /** Traces held, queued or being handled: work a shutdown left unfinished when it is not 0. */
  get unfinishedTraces(): number {
    return this.heldTraceCount;
  }

  /** Decided traces waiting for a handler slot. */
  get queuedTraces(): number {
    return this.queue.length - this.queueHead;
  }

  /** Handler calls not yet settled. */
  get inFlightTraces(): number {
    return this.inFlight;
  }

  /** Estimated bytes of every trace held (waiting, queued or being handled). */
  get bufferedBytes(): number {
    return this.bytes;
  }

  private get heldTraceCount(): number {
    return this.held.size + this.queuedTraces + this.inFlight;
  }

  /** Refusal any new batch would get now (cheap; receivers call it before decoding), else undefined. */
  pressure(): Refusal | undefined {
    if (this.closed) return { accepted: false, reason: 'shutting_down', retryAfterMs: MIN_RETRY_AFTER_MS };
    if (this.queuedTraces >= this.config.maxQueuedTraces) return this.refuse(MIN_RETRY_AFTER_MS) as Refusal;
    // Only the byte bound refuses every batch; at the trace bound, spans of held traces (often their
    // roots) must still get in, and that needs the decoded batch.
    if (this.config.overflow === 'refuse' && this.bytes > 0 && this.bytes >= this.config.maxBufferedBytes) {
      return this.refuse(this.retryAfter()) as Refusal;
    }
    return undefined;
  }

  offer(batch: SpanBatch): OfferResult {
    if (this.closed) return { accepted: false, reason: 'shutting_down', retryAfterMs: MIN_RETRY_AFTER_MS };
    if (this.queuedTraces >= this.config.maxQueuedTraces) return this.refuse(MIN_RETRY_AFTER_MS);

    const newTraces = new Set<string>();
    // One estimate per span, reused by apply(); -1 marks a span skipped here (its trace was decided).
    const spanBytes = new Array<number>(batch.spans.length);
    let addBytes = 0;
    for (let i = 0; i < batch.spans.length; i++) {
      const span = batch.spans[i] as Span;
      spanBytes[i] = -1;
      if (!this.held.has(span.traceId)) {
        if (this.decided.has(span.traceId)) continue;
        newTraces.add(span.traceId);
      }
      const bytes = estimateSpanBytes(span);
      spanBytes[i] = bytes;
      addBytes += bytes;
    }
    const logBytes = new Array<number>(batch.logs.length);
    for (let i = 0; i < batch.logs.length; i++) {
      const log = batch.logs[i] as LogRecord;
      logBytes[i] = -1;
      if (log.traceId === '') continue;
      if (!this.held.has(log.traceId)) {
        if (this.decided.has(log.traceId)) continue;
        newTraces.add(log.traceId);
      }
      const bytes = estimateLogBytes(log);
      logBytes[i] = bytes;
      addBytes += bytes;
    }
    if (!this.fits(newTraces.size, addBytes)) {
      if (this.config.overflow === 'evict') {
        while (!this.fits(newTraces.size, addBytes) && this.held.size > 0) this.evictOldest();
      } else if (!batch.takePartial && newTraces.size <= this.config.maxBufferedTraces && addBytes <= this.config.maxBufferedBytes) {
        // It would fit once traces drain: the source retries it whole.
        return this.refuse(this.retryAfter());
      }
      // Over a bound on its own, part of a request that is (takePartial), or, evicting, still over after every held trace went.
      if (!this.fits(newTraces.size, addBytes)) return this.applyWhatFits(batch, spanBytes, logBytes);
    }
    this.apply(batch, spanBytes, logBytes);
    return { accepted: true };
  }

  /** The bounds, for sources that stop decoding a request far beyond them. */
  bounds(): { maxTraces: number; maxBytes: number } {
    return { maxTraces: this.config.maxBufferedTraces, maxBytes: this.config.maxBufferedBytes };
  }

  /** Decide every trace whose deadline has passed, and start handlers for queued traces. */
  tick(): void {
    const now = this.now();
    for (let top = this.heap.peek(); top !== undefined && top.deadline <= now; top = this.heap.peek()) {
      this.heap.pop();
      this.decide(top, decisionReason(top, now, this.config.decisionWaitMs));
    }
    this.pump();
  }

  /** Decide everything now; resolves when every handler call has settled. Never rejects. */
  flush(): Promise<void> {
    for (const t of [...this.held.values()]) {
      this.heap.remove(t);
      this.decide(t, 'flush');
    }
    this.pump();
    return this.whenIdle();
  }

  /** Refuse further batches (`shutting_down`), stop ticking, and flush. */
  close(): Promise<void> {
    this.closed = true;
    this.stop();
    return this.flush();
  }

  /** Start ticking on `assembly.tickMs` (the component lifecycle). */
  start(): Promise<void> {
    this.startTicking();
    return Promise.resolve();
  }

  /**
   * Refuse new batches, decide every held trace and wait for their handlers (by `deadline`), then stop
   * ticking. Safe twice, and before `start`.
   */
  shutdown(deadline: number): Promise<void> {
    this.shutdownPromise ??= (async () => {
      await raceDeadline(this.close(), deadline);
      if (this.inFlight > 0 || this.queuedTraces > 0) this.log.warn({ inFlight: this.inFlight, queued: this.queuedTraces }, 'assembler: traces still being handled at the shutdown deadline');
    })();
    return this.shutdownPromise;
  }

  /** Tick on one interval (unref'd, so it never keeps the process alive by itself). */
  startTicking(intervalMs: number = this.config.tickMs): void {
    if (this.timer) return;
    this.unobserve = this.telemetry.observeBufferedTraces(() => this.held.size);
    this.timer = setInterval(() => {
      try {
        this.tick();
      } catch (err) {
        this.log.error({ err: errorMessage(err) }, 'assembler tick failed');
      }
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.unobserve?.();
    this.unobserve = undefined;
  }

  private fits(newTraces: number, addBytes: number): boolean {
    return this.heldTraceCount + newTraces <= this.config.maxBufferedTraces && this.bytes + addBytes <= this.config.maxBufferedBytes;
  }

  /**
   * A batch over the bounds on its own: take whole traces, in the order they first appear, while they fit
   * the room left (new traces against `maxBufferedTraces`, bytes against `maxBufferedBytes`), and reject the
   * others. Nothing fits: refused (retry later), except into an empty assembler, which takes the first trace.
   */
  private applyWhatFits(batch: SpanBatch, spanBytes: readonly number[], logBytes: readonly number[]): OfferResult {
    const order: string[] = [];
    const need = new Map<string, number>();
    const add = (traceId: string, bytes: number): void => {
      const had = need.get(traceId);
      if (had === undefined) order.push(traceId);
      need.set(traceId, (had ?? 0) + bytes);
    };
    for (let i = 0; i < batch.spans.length; i++) if ((spanBytes[i] ?? -1) >= 0) add((batch.spans[i] as Span).traceId, spanBytes[i] as number);
    for (let i = 0; i < batch.logs.length; i++) if ((logBytes[i] ?? -1) >= 0) add((batch.logs[i] as LogRecord).traceId, logBytes[i] as number);
    let traceRoom = this.config.maxBufferedTraces - this.heldTraceCount;
    let byteRoom = this.config.maxBufferedBytes - this.bytes;
    const admitted = new Set<string>();
    let overTraces = false;
    let overBytes = false;
    for (const id of order) {
      const isNew = !this.held.has(id);
      const bytes = need.get(id) as number;
      if (isNew && traceRoom < 1) {
        overTraces = true;
        continue;
      }
      if (bytes > byteRoom) {
        overBytes = true;
        continue;
      }
      admitted.add(id);
      byteRoom -= bytes;
      if (isNew) traceRoom--;
    }
    const empty = this.heldTraceCount === 0 && this.bytes === 0;
    if (admitted.size === 0 && empty && order.length > 0) admitted.add(order[0] as string);
    if (admitted.size === 0) return this.refuse(this.retryAfter());

    const spans: Span[] = [];
    const keptSpanBytes: number[] = [];
    let rejectedSpans = 0;
    for (let i = 0; i < batch.spans.length; i++) {
      const span = batch.spans[i] as Span;
      const bytes = spanBytes[i] ?? -1;
      // Spans of decided traces stay in, so apply() counts them as late.
      if (bytes < 0 || admitted.has(span.traceId)) {
        spans.push(span);
        keptSpanBytes.push(bytes);
      } else rejectedSpans++;
    }
    const logs: LogRecord[] = [];
    const keptLogBytes: number[] = [];
    let rejectedLogs = 0;
    for (let i = 0; i < batch.logs.length; i++) {
      const log = batch.logs[i] as LogRecord;
      const bytes = logBytes[i] ?? -1;
      if (bytes < 0 || admitted.has(log.traceId)) {
        logs.push(log);
        keptLogBytes.push(bytes);
      } else rejectedLogs++;
    }
    this.apply({ ...batch, spans, logs }, keptSpanBytes, keptLogBytes);
    const rejectedTraces = order.length - admitted.size;
    if (rejectedTraces === 0) return { accepted: true };
    this.stats.tracesOverBounds += rejectedTraces;
    this.countDrop('over_bounds', rejectedTraces);
    const partial: PartialAcceptance = { rejectedSpans, rejectedLogs, message: this.overBoundsMessage(rejectedTraces, order.length, overTraces, overBytes) };
    return { accepted: true, partial };
  }

  private overBoundsMessage(rejected: number, traces: number, overTraces: boolean, overBytes: boolean): string {
    const bounds = [
      ...(overTraces ? [`assembly.maxBufferedTraces (${this.config.maxBufferedTraces} traces)`] : []),
      ...(overBytes ? [`assembly.maxBufferedBytes (${this.config.maxBufferedBytes} estimated bytes)`] : []),
    ];
    return `${rejected} of the request's ${traces} traces did not fit ${bounds.join(' and ')} and were rejected; send smaller requests`;
  }

  private refuse(retryAfterMs: number): OfferResult {
    this.stats.batchesRefused++;
    return { accepted: false, reason: 'buffer_full', retryAfterMs };
  }

  /** Until the earliest pending decision, clamped to [1 s, 30 s]. */
  private retryAfter(): number {
    const next = this.heap.peek();
    const wait = next ? next.deadline - this.now() : MIN_RETRY_AFTER_MS;
    return Math.min(MAX_RETRY_AFTER_MS, Math.max(MIN_RETRY_AFTER_MS, Math.ceil(wait)));
  }

  /** `spanBytes[i]` / `logBytes[i]`: the estimate offer() made for that span / log, or -1 when it made none. */
  private apply(batch: SpanBatch, spanBytes: readonly number[], logBytes: readonly number[]): void {
    const now = this.now();
    const ref: BatchRef | undefined = batch.onSettled ? { onSettled: batch.onSettled, onAbandoned: batch.onAbandoned, pending: 0 } : undefined;
    const touched = new Set<HeldTrace>();
    let late = 0;
    let tooMany = 0;
    for (let i = 0; i < batch.spans.length; i++) {
      const span = batch.spans[i] as Span;
      const t = this.traceFor(span.traceId, batch, now);
      if (!t) {
        late++;
        continue;
      }
      if (t.hasSpan(span.spanId)) {
        this.stats.duplicateSpans++;
        continue;
      }
      if (t.spans.length >= this.config.maxSpansPerTrace) {
        tooMany++;
        continue;
      }
      const estimate = spanBytes[i] ?? -1;
      this.bytes += t.addSpan(span, estimate >= 0 ? estimate : estimateSpanBytes(span), now);
      this.stats.spansAccepted++;
      t.attach(ref);
      touched.add(t);
    }
    for (let i = 0; i < batch.logs.length; i++) {
      const log = batch.logs[i] as LogRecord;
      if (log.traceId === '') {
        this.stats.orphanLogs++;
        this.dropLogs.orphan_log.hit();
        continue;
      }
      const t = this.traceFor(log.traceId, batch, now);
      if (!t) {
        this.stats.lateLogs++;
        continue;
      }
      const estimate = logBytes[i] ?? -1;
      this.bytes += t.addLog(log, estimate >= 0 ? estimate : estimateLogBytes(log), now);
      this.stats.logsAccepted++;
      t.attach(ref);
      touched.add(t);
    }
    for (const t of touched) {
      t.deadline = t.computeDeadline(this.config.decisionWaitMs, this.config.maxTraceAgeMs);
      if (t.heapIndex < 0) this.heap.push(t);
      else this.heap.update(t);
    }
    if (late > 0) this.countDrop('late_span', late);
    if (tooMany > 0) this.countDrop('too_many_spans', tooMany);
    this.stats.lateSpans += late;
    this.stats.tooManySpans += tooMany;
    if (ref && ref.pending === 0) queueMicrotask(() => this.callSettled(ref));
  }

  /** The held trace for `traceId`, created if new; undefined when the trace was already decided. */
  private traceFor(traceId: string, batch: SpanBatch, now: number): HeldTrace | undefined {
    let t = this.held.get(traceId);
    if (t) return t;
    if (this.decided.has(traceId)) return undefined;
    t = new HeldTrace(traceId, batch.source, now);
    this.held.set(traceId, t);
    return t;
  }

  private decide(t: HeldTrace, reason: DecisionReason): void {
    this.held.delete(t.traceId);
    this.decided.add(t.traceId);
    this.stats.tracesAssembled++;
    this.telemetry.instruments.traceAssembled.add(1, { source: t.source, reason });
    this.queue.push(t);
  }

  private evictOldest(): void {
    const oldest = this.held.values().next();
    if (oldest.done) return;
    const t = oldest.value;
    this.heap.remove(t);
    this.held.delete(t.traceId);
    this.decided.add(t.traceId);
    this.stats.tracesEvicted++;
    this.countDrop('evicted', 1);
    this.release(t);
  }

  private pump(): void {
    while (this.inFlight < this.config.maxInFlightTraces && this.queueHead < this.queue.length) {
      if (this.startedThisTurn >= HANDLERS_PER_TURN) {
        this.scheduleTurn();
        break;
      }
      this.startedThisTurn++;
      this.scheduleTurn();
      const t = this.queue[this.queueHead] as HeldTrace;
      this.queue[this.queueHead] = undefined as unknown as HeldTrace;
      this.queueHead++;
      this.inFlight++;
      this.run(t);
    }
    if (this.queueHead > 1024 && this.queueHead * 2 > this.queue.length) {
      this.queue.splice(0, this.queueHead);
      this.queueHead = 0;
    }
  }

  /** At the next turn of the event loop: a fresh handler allowance, and the handlers held back start. */
  private scheduleTurn(): void {
    if (this.nextTurn) return;
    this.nextTurn = setImmediate(() => {
      this.nextTurn = undefined;
      this.startedThisTurn = 0;
      this.pump();
    });
  }

  private run(t: HeldTrace): void {
    let p: Promise<void>;
    try {
      p = this.onTrace(t.toTrace());
    } catch (err) {
      p = Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    p.then(
      () => this.settle(t, undefined),
      (err: unknown) => this.settle(t, err ?? new Error('handler rejected')),
    );
  }

  private settle(t: HeldTrace, err: unknown): void {
    this.inFlight--;
    const undelivered = err instanceof UndeliveredError;
    if (undelivered) {
      // Not a drop: the batches that fed it stay unsettled (Kafka offset not committed, WAL record replayed).
      this.stats.tracesUndelivered++;
      this.undeliveredLog.hit(1, { err: errorMessage(err) });
    } else if (err !== undefined) {
      this.stats.handlerErrors++;
      this.countDrop('handler_error', 1, { err: errorMessage(err) });
    }
    this.release(t, undelivered);
    this.pump();
    if (this.inFlight === 0 && this.queueHead >= this.queue.length) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const w of waiters) w();
    }
  }

  /** Free a trace's bytes and settle the batches that fed it (a batch that fed an undelivered trace never settles). */
  private release(t: HeldTrace, undelivered = false): void {
    this.bytes -= t.bytes;
    for (const ref of t.takeBatches()) {
      ref.pending--;
      if (undelivered) ref.abandoned = true;
      if (ref.pending === 0) this.callSettled(ref);
    }
  }

  private callSettled(ref: BatchRef): void {
    try {
      if (ref.abandoned) ref.onAbandoned?.();
      else ref.onSettled();
    } catch (err) {
      this.log.error({ err: errorMessage(err) }, 'batch onSettled callback failed');
    }
  }

  private whenIdle(): Promise<void> {
    if (this.inFlight === 0 && this.queueHead >= this.queue.length) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private countDrop(reason: DropReason, n: number, fields: Record<string, unknown> = {}): void {
    if (reason !== 'orphan_log') this.telemetry.instruments.tracesDropped.add(n, { reason });
    this.dropLogs[reason].hit(n, fields);
  }
}

function decisionReason(t: HeldTrace, now: number, decisionWaitMs: number): DecisionReason {
  if (!t.hasRoot) return 'missing_root';
  return t.lastAt + decisionWaitMs <= now ? 'complete' : 'max_age';
}
