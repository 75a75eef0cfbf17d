/**
 * The step both OTLP receivers share after decoding: offer the batch to the sink, count what was received
 * and rejected, and say what to answer (partial success, or back-pressure).
 */
import type { LogRecord, Span } from '../../model/span.js';
import type { SpanSink } from '../sink.js';
import { telemetry } from '../../telemetry/instruments.js';
import type { LogsDecodeResult, TraceDecodeResult } from './result.js';

/** Which OTLP signal a request carried. */
export type OtlpSignal = 'traces' | 'logs';

export type IngestOutcome =
  /** Taken (or empty). `rejected` items were invalid; `message` explains them (partial success) when > 0. */
  | { kind: 'accepted'; rejected: number; message: string }
  /** The sink refused; nothing of the request was kept, so the client's retry is not a duplicate. */
  | { kind: 'refused'; reason: 'buffer_full' | 'shutting_down'; retryAfterMs: number };

/** Partial-success messages stay well under the 4 MiB response bound. */
const MAX_MESSAGE_CHARS = 2000;

function rejectionMessage(rejected: number, errors: string[], noun: string): string {
  if (rejected === 0) return '';
  const msg = `${rejected} ${noun}${rejected === 1 ? '' : 's'} rejected: ${errors.join('; ')}${rejected > errors.length ? '; …' : ''}`;
  return msg.length > MAX_MESSAGE_CHARS ? `${msg.slice(0, MAX_MESSAGE_CHARS - 1)}…` : msg;
}

const OTLP = { source: 'otlp' } as const;

/** Offers decoded spans to `sink` and counts `tracejudge.spans.received` / `.rejected` (source=otlp). */
export function ingestTraces(decoded: TraceDecodeResult, sink: SpanSink): IngestOutcome {
  const t = telemetry();
  if (decoded.rejected > 0) t.spansRejected.add(decoded.rejected, { ...OTLP, reason: 'invalid' });
  const refused = offer(sink, decoded.spans, []);
  if (refused) {
    t.spansRejected.add(decoded.spans.length, { ...OTLP, reason: 'backpressure' });
    return refused;
  }
  if (decoded.spans.length > 0) t.spansReceived.add(decoded.spans.length, OTLP);
  return { kind: 'accepted', rejected: decoded.rejected, message: rejectionMessage(decoded.rejected, decoded.errors, 'span') };
}

/** Offers decoded log records to `sink`. */
export function ingestLogs(decoded: LogsDecodeResult, sink: SpanSink): IngestOutcome {
  const refused = offer(sink, [], decoded.logs);
  if (refused) return refused;
  return { kind: 'accepted', rejected: decoded.rejected, message: rejectionMessage(decoded.rejected, decoded.errors, 'log record') };
}

function offer(sink: SpanSink, spans: Span[], logs: LogRecord[]): IngestOutcome | undefined {
  if (spans.length === 0 && logs.length === 0) return undefined;
  const result = sink.offer({ spans, logs, source: 'otlp' });
  if (result.accepted) return undefined;
  return { kind: 'refused', reason: result.reason, retryAfterMs: result.retryAfterMs };
}
