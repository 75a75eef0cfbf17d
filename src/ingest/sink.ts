/**
 * The narrow interface between sources and the assembler. Sources decode into a `SpanBatch` and `offer`
 * it; the assembler either takes all of it or refuses all of it (back-pressure), never part silently.
 */
import type { LogRecord, SourceKind, Span } from '../model/span.js';

export interface SpanBatch {
  spans: Span[];
  /** Log records carrying GenAI events, joined to their spans by trace and span id. */
  logs: LogRecord[];
  source: SourceKind;
  /**
   * Called exactly once, when every trace this batch fed has been fully handled (scored and emitted,
   * or deliberately skipped or dropped and counted). Kafka uses it for low-watermark offset commits.
   */
  onSettled?: () => void;
}

export type OfferResult =
  | { accepted: true }
  /** Nothing of the batch was taken; the source answers 429/503 (or pauses) and retries later. */
  | { accepted: false; reason: 'buffer_full' | 'shutting_down'; retryAfterMs: number };

export type Refusal = Extract<OfferResult, { accepted: false }>;

export interface SpanSink {
  offer(batch: SpanBatch): OfferResult;
  /**
   * A cheap check before decoding a request: the refusal `offer` would give any new batch right now, or
   * undefined when there is room. Lets a saturated receiver answer 429 without paying for the decode.
   */
  pressure?(): Refusal | undefined;
}
