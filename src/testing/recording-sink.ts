/**
 * A `SpanSink` test double that records every accepted batch and can refuse offers (back-pressure),
 * either on demand or when more than `capacitySpans` spans are held and not yet drained.
 */
import type { OfferResult, SpanBatch, SpanSink } from '../ingest/sink.js';
import type { LogRecord, Span } from '../model/span.js';

export interface RecordingSpanSinkOptions {
  /** Refuse a batch that would make the held (undrained) span count exceed this. */
  capacitySpans?: number;
  /** `retryAfterMs` reported with a refusal; default 1000. */
  retryAfterMs?: number;
}

export class RecordingSpanSink implements SpanSink {
  /** Every accepted batch, in order (drained ones included). */
  readonly batches: SpanBatch[] = [];
  offers = 0;
  refusals = 0;
  private held = 0;
  private refusing = false;
  private readonly capacity: number;
  private readonly retryAfterMs: number;

  constructor(options: RecordingSpanSinkOptions = {}) {
    this.capacity = options.capacitySpans ?? Number.POSITIVE_INFINITY;
    this.retryAfterMs = options.retryAfterMs ?? 1000;
  }

  offer(batch: SpanBatch): OfferResult {
    this.offers++;
    if (this.refusing || this.held + batch.spans.length > this.capacity) {
      this.refusals++;
      return { accepted: false, reason: 'buffer_full', retryAfterMs: this.retryAfterMs };
    }
    this.batches.push(batch);
    this.held += batch.spans.length;
    return { accepted: true };
  }

  /** Refuse every offer until `acceptAll()`. */
  refuseAll(): void {
    this.refusing = true;
  }

  acceptAll(): void {
    this.refusing = false;
  }

  /** Forget the held count (as if the assembler had handed the traces on); recorded batches stay. */
  drain(): void {
    this.held = 0;
  }

  /** Spans of every accepted batch. */
  get spans(): Span[] {
    return this.batches.flatMap((b) => b.spans);
  }

  /** Log records of every accepted batch. */
  get logs(): LogRecord[] {
    return this.batches.flatMap((b) => b.logs);
  }
}
