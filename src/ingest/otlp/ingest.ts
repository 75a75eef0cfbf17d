/**
 * The step both OTLP receivers (and the write-ahead log's replay) share after reading a request body:
 * decode it, make it durable when the write-ahead log is on, offer the batch to the sink, count what was
 * received and rejected, and say what to answer (partial success, back-pressure, or a log failure).
 *
 * With the write-ahead log the order is decode, append, wait until durable, and only then offer (with
 * `onSettled` settling the record). If the append or the sync fails, nothing of the request has reached
 * the assembler, so the 503 the client gets is the whole truth and its retry is not a duplicate. A record
 * whose offer is then refused (buffers full, shutting down) is settled at once: after a crash it may be
 * replayed although the client was told to retry, which gives a duplicate (same evaluation ids), never a
 * loss.
 */
import { errorMessage } from '../../errors.js';
import type { LogRecord, Span } from '../../model/span.js';
import type { ComponentSettings } from '../../component.js';
import type { Refusal, SpanSink } from '../sink.js';
import { WalClosedError, WalFullError, type WriteAheadLog } from '../wal/log.js';
import type { WalRecordKind } from '../wal/record.js';
import { decodeLogsRequestJson, decodeLogsRequestProto, decodeTraceRequestJson, decodeTraceRequestProto } from './decode.js';
import type { Interner } from './intern.js';
import type { OtlpEncoding } from './responses.js';
import type { LogsDecodeResult, TraceDecodeResult } from './result.js';

/** Which OTLP signal a request carried. */
export type OtlpSignal = 'traces' | 'logs';

export type IngestOutcome =
  /** Taken (or empty). `rejected` items were invalid; `message` explains them (partial success) when > 0. */
  | { kind: 'accepted'; rejected: number; message: string }
  /** The sink refused; nothing of the request was kept, so the client's retry is not a duplicate. */
  | { kind: 'refused'; reason: 'buffer_full' | 'shutting_down'; retryAfterMs: number }
  /** The write-ahead log could not take the request (503 / UNAVAILABLE); nothing was accepted. */
  | { kind: 'wal_failed'; message: string };

/** Partial-success messages stay well under the 4 MiB response bound. */
const MAX_MESSAGE_CHARS = 2000;
const OTLP = { source: 'otlp' } as const;

function rejectionMessage(rejected: number, errors: string[], noun: string): string {
  if (rejected === 0) return '';
  const msg = `${rejected} ${noun}${rejected === 1 ? '' : 's'} rejected: ${errors.join('; ')}${rejected > errors.length ? '; …' : ''}`;
  return msg.length > MAX_MESSAGE_CHARS ? `${msg.slice(0, MAX_MESSAGE_CHARS - 1)}…` : msg;
}

/** The write-ahead log record kind for a request. */
function walKind(signal: OtlpSignal, encoding: OtlpEncoding): WalRecordKind {
  return `${signal}-${encoding}`;
}

type Decoded = { signal: 'traces'; result: TraceDecodeResult } | { signal: 'logs'; result: LogsDecodeResult };

export interface OtlpIngestOptions {
  /** Receives decoded spans. */
  sink: SpanSink;
  /** Receives decoded log records; defaults to `sink`. */
  logSink?: SpanSink;
  /** When set, a request is offered (and answered) only once its body is durable in this log. */
  wal?: WriteAheadLog | undefined;
  settings: ComponentSettings & { readonly interner: Interner };
}

export class OtlpIngest {
  readonly #sink: SpanSink;
  readonly #logSink: SpanSink;
  readonly #wal: WriteAheadLog | undefined;
  readonly #settings: OtlpIngestOptions['settings'];

  constructor(options: OtlpIngestOptions) {
    this.#sink = options.sink;
    this.#logSink = options.logSink ?? options.sink;
    this.#wal = options.wal;
    this.#settings = options.settings;
  }

  /** The refusal a new trace request would get now (checked before its body is read), else undefined. */
  pressure(signal: OtlpSignal): Refusal | undefined {
    return signal === 'traces' ? this.#sink.pressure?.() : undefined;
  }

  /** Decode `body` (throws `DecodeError` for a malformed request), make it durable when the log is on, offer it. */
  async accept(signal: OtlpSignal, encoding: OtlpEncoding, body: Buffer): Promise<IngestOutcome> {
    const decoded = this.#decode(signal, encoding, body);
    const wal = this.#wal;
    if (!wal || this.#count(decoded) === 0) return this.#offer(decoded, undefined);
    return this.#appendThenOffer(wal, walKind(signal, encoding), body, decoded);
  }

  /**
   * Decode and offer one write-ahead log record's body (replay), through the same decoders and counters;
   * `onSettled` runs when the assembler has handled it. Returns the items offered (0: nothing to do, the
   * caller settles). Throws `DecodeError`.
   */
  offerRecord(kind: WalRecordKind, body: Buffer, onSettled: () => void): { items: number; outcome: IngestOutcome } {
    const [signal, encoding] = kind.split('-') as [OtlpSignal, OtlpEncoding];
    const decoded = this.#decode(signal, encoding, body);
    return { items: this.#count(decoded), outcome: this.#offer(decoded, onSettled) };
  }

  #decode(signal: OtlpSignal, encoding: OtlpEncoding, body: Buffer): Decoded {
    const ix = this.#settings.interner;
    if (signal === 'traces') return { signal, result: encoding === 'json' ? decodeTraceRequestJson(body, ix) : decodeTraceRequestProto(body, ix) };
    return { signal, result: encoding === 'json' ? decodeLogsRequestJson(body, ix) : decodeLogsRequestProto(body, ix) };
  }

  #count(d: Decoded): number {
    return d.signal === 'traces' ? d.result.spans.length : d.result.logs.length;
  }

  /** Offer the decoded items; counts `tracejudge.spans.received` / `.rejected` (source=otlp) for traces. */
  #offer(d: Decoded, onSettled: (() => void) | undefined): IngestOutcome {
    const t = this.#settings.telemetry.instruments;
    if (d.signal === 'traces') {
      const { spans, rejected, errors } = d.result;
      if (rejected > 0) t.spansRejected.add(rejected, { ...OTLP, reason: 'invalid' });
      const refused = offer(this.#sink, spans, [], onSettled);
      if (refused) {
        t.spansRejected.add(spans.length, { ...OTLP, reason: 'backpressure' });
        return refused;
      }
      if (spans.length > 0) t.spansReceived.add(spans.length, OTLP);
      return { kind: 'accepted', rejected, message: rejectionMessage(rejected, errors, 'span') };
    }
    const { logs, rejected, errors } = d.result;
    const refused = offer(this.#logSink, [], logs, onSettled);
    if (refused) return refused;
    return { kind: 'accepted', rejected, message: rejectionMessage(rejected, errors, 'log record') };
  }

  async #appendThenOffer(wal: WriteAheadLog, kind: WalRecordKind, body: Buffer, decoded: Decoded): Promise<IngestOutcome> {
    const appends = this.#settings.telemetry.instruments.walAppends;
    let seq: number;
    try {
      seq = wal.append(kind, body);
    } catch (err) {
      if (err instanceof WalFullError) {
        appends.add(1, { outcome: 'full' });
        return { kind: 'refused', reason: 'buffer_full', retryAfterMs: err.retryAfterMs };
      }
      if (err instanceof WalClosedError) return { kind: 'refused', reason: 'shutting_down', retryAfterMs: 1000 };
      appends.add(1, { outcome: 'failed' });
      return { kind: 'wal_failed', message: `write-ahead log append failed: ${errorMessage(err)}; retry later` };
    }
    try {
      await wal.durable(seq);
    } catch (err) {
      wal.settle(seq);
      appends.add(1, { outcome: 'failed' });
      return { kind: 'wal_failed', message: `write-ahead log sync failed: ${errorMessage(err)}; retry later` };
    }
    appends.add(1, { outcome: 'durable' });
    let outcome: IngestOutcome;
    try {
      outcome = this.#offer(decoded, () => wal.settle(seq));
    } catch (err) {
      wal.settle(seq);
      throw err;
    }
    if (outcome.kind === 'refused') wal.settle(seq);
    return outcome;
  }
}

function offer(sink: SpanSink, spans: Span[], logs: LogRecord[], onSettled: (() => void) | undefined): IngestOutcome | undefined {
  if (spans.length === 0 && logs.length === 0) return undefined;
  const result = sink.offer(onSettled ? { spans, logs, source: 'otlp', onSettled } : { spans, logs, source: 'otlp' });
  if (result.accepted) return undefined;
  return { kind: 'refused', reason: result.reason, retryAfterMs: result.retryAfterMs };
}
