/**
 * One trace while the assembler holds it: its spans (deduplicated by span id), its log records, the
 * times that drive its decision, and the batches that fed it (for `onSettled` ref-counting).
 */
import type { HeapItem } from './deadline-heap.js';
import type { LogRecord, SourceKind, Span, Trace } from '../model/span.js';

/** A batch's `onSettled` with the number of held traces it still waits for. */
export interface BatchRef {
  onSettled: () => void;
  onAbandoned?: (() => void) | undefined;
  pending: number;
  /** A trace it fed was not delivered by the shutdown: the batch is never settled. */
  abandoned?: boolean;
}

/** Span ids are looked up by scanning up to this many spans; a bigger trace gets a set (~30 bytes per span). */
const SCAN_SPANS_UP_TO = 16;

export class HeldTrace implements HeapItem {
  readonly spans: Span[] = [];
  // Allocated on first use: a held trace is mostly a handful of spans from one batch and no logs, and
  // these containers cost more than the spans' own bookkeeping (bench: memory).
  private spanIds: Set<string> | undefined;
  private logs: LogRecord[] | undefined;
  private batches: BatchRef[] | undefined;
  hasRoot = false;
  lastAt: number;
  bytes = 0;
  deadline = 0;
  heapIndex = -1;

  constructor(
    readonly traceId: string,
    readonly source: SourceKind,
    readonly firstAt: number,
  ) {
    this.lastAt = firstAt;
  }

  /** Adds a span (the caller has checked it is new); returns the bytes added. */
  /** Whether a span with this id is held. */
  hasSpan(spanId: string): boolean {
    if (this.spanIds) return this.spanIds.has(spanId);
    for (const s of this.spans) if (s.spanId === spanId) return true;
    return false;
  }

  addSpan(span: Span, bytes: number, now: number): number {
    if (!this.spanIds) shareIds(span, this.spans);
    this.spans.push(span);
    if (this.spanIds) this.spanIds.add(span.spanId);
    else if (this.spans.length > SCAN_SPANS_UP_TO) this.spanIds = new Set(this.spans.map((s) => s.spanId));
    if (span.parentSpanId === '') this.hasRoot = true;
    this.lastAt = now;
    this.bytes += bytes;
    return bytes;
  }

  addLog(log: LogRecord, bytes: number, now: number): number {
    (this.logs ??= []).push(log);
    this.lastAt = now;
    this.bytes += bytes;
    return bytes;
  }

  /** Reference a batch once per trace, however many of its spans landed here. */
  attach(ref: BatchRef | undefined): void {
    if (!ref) return;
    // A trace is fed by few batches (one, or a few Kafka messages): a list beats a set here.
    if (!this.batches) this.batches = [ref];
    else if (this.batches[this.batches.length - 1] !== ref && !this.batches.includes(ref)) this.batches.push(ref);
    else return;
    ref.pending++;
  }

  /** The batches that fed this trace, forgotten: each is released once. */
  takeBatches(): readonly BatchRef[] {
    const out = this.batches ?? [];
    this.batches = undefined;
    return out;
  }

  /** Root seen: quiet for `decisionWaitMs` after the last span, capped by the age limit; else the age limit. */
  computeDeadline(decisionWaitMs: number, maxTraceAgeMs: number): number {
    const ageLimit = this.firstAt + maxTraceAgeMs;
    return this.hasRoot ? Math.min(this.lastAt + decisionWaitMs, ageLimit) : ageLimit;
  }

  toTrace(): Trace {
    return { traceId: this.traceId, spans: this.spans, logs: this.logs ?? [], source: this.source };
  }
}

/**
 * A span's id and its parent's id are equal strings held twice (once by the child as its parent id);
 * `span` takes the instances its relatives already hold, so each id is kept once (~32 bytes per span).
 */
function shareIds(span: Span, held: readonly Span[]): void {
  const parent = span.parentSpanId;
  for (const h of held) {
    if (parent !== '' && h.spanId === parent) span.parentSpanId = h.spanId;
    else if (h.parentSpanId === span.spanId) span.spanId = h.parentSpanId;
  }
}
