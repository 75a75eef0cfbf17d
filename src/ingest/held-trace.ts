/**
 * One trace while the assembler holds it: its spans (deduplicated by span id), its log records, the
 * times that drive its decision, and the batches that fed it (for `onSettled` ref-counting).
 */
import type { HeapItem } from './deadline-heap.js';
import type { LogRecord, SourceKind, Span, Trace } from './span.js';

/** A batch's `onSettled` with the number of held traces it still waits for. */
export interface BatchRef {
  onSettled: () => void;
  pending: number;
}

export class HeldTrace implements HeapItem {
  readonly spans: Span[] = [];
  readonly spanIds = new Set<string>();
  readonly logs: LogRecord[] = [];
  readonly batches = new Set<BatchRef>();
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
  addSpan(span: Span, bytes: number, now: number): number {
    this.spans.push(span);
    this.spanIds.add(span.spanId);
    if (span.parentSpanId === '') this.hasRoot = true;
    this.lastAt = now;
    this.bytes += bytes;
    return bytes;
  }

  addLog(log: LogRecord, bytes: number, now: number): number {
    this.logs.push(log);
    this.lastAt = now;
    this.bytes += bytes;
    return bytes;
  }

  /** Reference a batch once per trace, however many of its spans landed here. */
  attach(ref: BatchRef | undefined): void {
    if (ref && !this.batches.has(ref)) {
      this.batches.add(ref);
      ref.pending++;
    }
  }

  /** Root seen: quiet for `decisionWaitMs` after the last span, capped by the age limit; else the age limit. */
  computeDeadline(decisionWaitMs: number, maxTraceAgeMs: number): number {
    const ageLimit = this.firstAt + maxTraceAgeMs;
    return this.hasRoot ? Math.min(this.lastAt + decisionWaitMs, ageLimit) : ageLimit;
  }

  toTrace(): Trace {
    return { traceId: this.traceId, spans: this.spans, logs: this.logs, source: this.source };
  }
}
