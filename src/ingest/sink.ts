/**
 * The narrow interface between sources and the assembler. Sources decode into a `SpanBatch` and `offer`
 * it; the assembler takes all of it, or refuses all of it (back-pressure), or, for a batch too big to ever
 * fit its bounds, takes the traces that fit and says which part it rejected (OTLP partial success); never
 * part silently.
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
  /**
   * Called instead of `onSettled`, exactly once, when a trace this batch fed was not delivered to every output
   * by the shutdown (the handler failed with an `UndeliveredError`): the batch stays unsettled, to be redelivered
   * or replayed after the restart. Lets a source stop waiting for it.
   */
  onAbandoned?: () => void;
  /**
   * The source takes a partial acceptance for this batch (part of a request already over the bounds): when
   * the batch does not fit, take the traces that fit now and reject the rest, instead of refusing it.
   */
  takePartial?: boolean;
}

/** What the assembler did not take of an accepted batch (it exceeded the assembler's bounds on its own). */
export interface PartialAcceptance {
  rejectedSpans: number;
  rejectedLogs: number;
  /** Names the bound, for the partial-success message. */
  message: string;
}

export type OfferResult =
  /** Taken; `partial` says what was rejected when the batch alone was over the bounds. */
  | { accepted: true; partial?: PartialAcceptance }
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
  /** The most the sink holds at once, so a source can stop decoding a request that is far beyond it. */
  bounds?(): { maxTraces: number; maxBytes: number };
}
