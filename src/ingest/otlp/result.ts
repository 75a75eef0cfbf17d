import type { LogRecord, Span } from '../../model/span.js';

/** At most this many rejection messages are kept per request; `rejected` still counts them all. */
export const MAX_ERROR_MESSAGES = 10;

/**
 * Result of decoding an `ExportTraceServiceRequest`: the spans that decoded, how many were rejected
 * individually (bad ids, too deeply nested values), and the first few rejection messages, each naming
 * the span's path in the request.
 */
export interface TraceDecodeResult {
  spans: Span[];
  rejected: number;
  errors: string[];
}

/** Result of decoding an `ExportLogsServiceRequest`. */
export interface LogsDecodeResult {
  logs: LogRecord[];
  rejected: number;
  errors: string[];
}

/** Collects rejections; bounded message list. */
export class Rejections {
  count = 0;
  readonly messages: string[] = [];
  add(message: string): void {
    this.count++;
    if (this.messages.length < MAX_ERROR_MESSAGES) this.messages.push(message);
  }
}

/**
 * Thrown inside a decoder for a problem that rejects one span or log record (not the request):
 * caught at the item boundary and counted.
 */
export class ItemRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ItemRejected';
  }
}

/** Attribute values nest at most this deep (arrays and kvlists); deeper values reject their item. */
export const MAX_VALUE_DEPTH = 64;
