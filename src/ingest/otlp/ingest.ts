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
 *
 * A large protobuf trace request (many spans) is decoded in parts, yielding to the event loop between
 * them, so `/healthz` and other requests are served meanwhile; once it holds more traces (or estimated
 * bytes) than the assembler can ever hold, the rest is not decoded at all and is rejected with the rest
 * of what the assembler could not take (partial success naming the bound).
 */
import { DecodeError, errorMessage } from '../../errors.js';
import { estimateSpanBytes, type LogRecord, type Span } from '../../model/span.js';
import type { ComponentSettings } from '../../component.js';
import { ThrottledLog } from '../../telemetry/log.js';
import type { OfferResult, Refusal, SpanSink } from '../sink.js';
import { WalClosedError, WalFullError, type WriteAheadLog } from '../wal/log.js';
import type { WalRecordKind } from '../wal/record.js';
import { decodeLogsRequestJson, decodeLogsRequestProto, decodeTraceRequestJson, decodeTraceRequestProto } from './decode.js';
import type { Interner } from './intern.js';
import type { OtlpEncoding } from './responses.js';
import { MAX_ERROR_MESSAGES, type LogsDecodeResult, type TraceDecodeResult } from './result.js';

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

/** Spans of a request that were not decoded because the request is far beyond the sink's bounds. */
interface OverBounds {
  spans: number;
  message: string;
}

type Decoded = { signal: 'traces'; result: TraceDecodeResult; overBounds?: OverBounds } | { signal: 'logs'; result: LogsDecodeResult };

/** Requests this big are scanned for their span count (cheap), and decoded in parts when they hold more than SPANS_PER_PART. */
const SPLIT_MIN_BYTES = 1024 * 1024;
const SPANS_PER_PART = 16_384;

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
  readonly #emptyLog: ThrottledLog;

  constructor(options: OtlpIngestOptions) {
    this.#sink = options.sink;
    this.#logSink = options.logSink ?? options.sink;
    this.#wal = options.wal;
    this.#settings = options.settings;
    this.#emptyLog = new ThrottledLog(
      options.settings.logger,
      'OTLP export requests with no spans or log records (accepted: unknown fields are ignored); is the client sending OTLP (resourceSpans / resourceLogs)?',
    );
  }

  /** The refusal a new trace request would get now (checked before its body is read), else undefined. */
  pressure(signal: OtlpSignal): Refusal | undefined {
    return signal === 'traces' ? this.#sink.pressure?.() : undefined;
  }

  /** Decode `body` (throws `DecodeError` for a malformed request), make it durable when the log is on, offer it. */
  async accept(signal: OtlpSignal, encoding: OtlpEncoding, body: Buffer): Promise<IngestOutcome> {
    const parts = signal === 'traces' && encoding === 'protobuf' && body.length >= SPLIT_MIN_BYTES ? splitTraceRequest(body, SPANS_PER_PART) : undefined;
    const decoded = parts && parts.length > 1 ? await this.#decodeInParts(body, parts) : this.#decode(signal, encoding, body);
    if (this.#count(decoded) === 0 && decoded.result.rejected === 0) {
      // Spec-compliant: an empty request (or one of unknown fields only) succeeds, but it is counted and said.
      this.#settings.telemetry.instruments.otlpEmptyRequests.add(1, { signal });
      this.#emptyLog.hit(1, { signal, encoding, bytes: body.length });
    }
    const wal = this.#wal;
    if (!wal || this.#count(decoded) === 0) return this.#offerDecoded(decoded, undefined);
    return this.#appendThenOffer(wal, walKind(signal, encoding), body, decoded);
  }

  /** Offer what was decoded: at once, or, for a request over the sink's bounds, in parts (see {@link #offerInParts}). */
  #offerDecoded(d: Decoded, onSettled: (() => void) | undefined): IngestOutcome | Promise<IngestOutcome> {
    if (d.signal === 'traces' && d.overBounds) return this.#offerInParts(d.result, d.overBounds, onSettled);
    return this.#offer(d, onSettled);
  }

  /**
   * A request over the sink's bounds is offered SPANS_PER_PART spans at a time, yielding between parts (one
   * offer of every trace the assembler can hold would hold the event loop for as long), each part taking
   * what fits and rejecting the rest. Refused whole only when its first part is (nothing taken: the client
   * may retry); a later refusal rejects that part. `onSettled` runs once every part taken has settled.
   */
  async #offerInParts(decoded: TraceDecodeResult, over: OverBounds, onSettled: (() => void) | undefined): Promise<IngestOutcome> {
    const t = this.#settings.telemetry.instruments;
    const { spans, rejected, errors } = decoded;
    if (rejected > 0) t.spansRejected.add(rejected, { ...OTLP, reason: 'invalid' });
    const count = Math.ceil(spans.length / SPANS_PER_PART);
    let pending = count;
    const settleOne = (): void => {
      if (--pending === 0) onSettled?.();
    };
    let taken = 0;
    let overBounds = over.spans;
    for (let i = 0; i < count; i++) {
      if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      const part = spans.slice(i * SPANS_PER_PART, (i + 1) * SPANS_PER_PART);
      const result = this.#sink.offer({ spans: part, logs: [], source: 'otlp', takePartial: true, ...(onSettled ? { onSettled: settleOne } : {}) });
      if (!result.accepted) {
        if (i === 0) {
          t.spansRejected.add(spans.length, { ...OTLP, reason: 'backpressure' });
          return refusedOutcome(result);
        }
        overBounds += part.length;
        settleOne();
        continue;
      }
      const partRejected = result.partial?.rejectedSpans ?? 0;
      taken += part.length - partRejected;
      overBounds += partRejected;
    }
    t.spansRejected.add(overBounds, { ...OTLP, reason: 'over_bounds' });
    if (taken > 0) t.spansReceived.add(taken, OTLP);
    const message = [rejectionMessage(rejected, errors, 'span'), `${overBounds} span${overBounds === 1 ? '' : 's'} rejected: ${over.message}`].filter(Boolean).join('; ');
    return { kind: 'accepted', rejected: rejected + overBounds, message: capMessage(message) };
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

  /**
   * Decode the parts one by one, yielding between them; stop once the spans decoded belong to more traces,
   * or are estimated at more bytes, than the sink can hold at once (what is left is counted, not decoded).
   * A part that does not decode makes the whole body decode again, for the error at its right offset.
   */
  async #decodeInParts(body: Buffer, parts: readonly RequestPart[]): Promise<Decoded> {
    const ix = this.#settings.interner;
    const bounds = this.#sink.bounds?.();
    const spans: Span[] = [];
    const errors: string[] = [];
    const traceIds = new Set<string>();
    let rejected = 0;
    let bytes = 0;
    for (let i = 0; i < parts.length; i++) {
      if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      let result: TraceDecodeResult;
      try {
        result = decodeTraceRequestProto((parts[i] as RequestPart).bytes, ix);
      } catch (err) {
        if (err instanceof DecodeError) return this.#decode('traces', 'protobuf', body);
        throw err;
      }
      rejected += result.rejected;
      for (const e of result.errors) if (errors.length < MAX_ERROR_MESSAGES) errors.push(e);
      for (const span of result.spans) {
        spans.push(span);
        traceIds.add(span.traceId);
        if (bounds) bytes += estimateSpanBytes(span);
      }
      if (bounds && (traceIds.size > bounds.maxTraces || bytes > bounds.maxBytes) && i < parts.length - 1) {
        const left = parts.slice(i + 1).reduce((n, p) => n + p.spans, 0);
        const bound = traceIds.size > bounds.maxTraces ? `assembly.maxBufferedTraces (${bounds.maxTraces} traces)` : `assembly.maxBufferedBytes (${bounds.maxBytes} estimated bytes)`;
        const message = `the request holds more than ${bound}, the most the assembler holds at once; the spans that did not fit were rejected (the last ${left} not even read); send smaller requests`;
        return { signal: 'traces', result: { spans, rejected, errors }, overBounds: { spans: left, message } };
      }
    }
    return { signal: 'traces', result: { spans, rejected, errors } };
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
      const result = offer(this.#sink, spans, [], onSettled);
      if (result && !result.accepted) {
        t.spansRejected.add(spans.length, { ...OTLP, reason: 'backpressure' });
        return refusedOutcome(result);
      }
      const overBounds = (d.overBounds?.spans ?? 0) + (result?.partial?.rejectedSpans ?? 0);
      if (overBounds > 0) t.spansRejected.add(overBounds, { ...OTLP, reason: 'over_bounds' });
      if (spans.length > 0) t.spansReceived.add(spans.length - (result?.partial?.rejectedSpans ?? 0), OTLP);
      const messages = [rejectionMessage(rejected, errors, 'span'), ...(overBounds > 0 ? [`${overBounds} span${overBounds === 1 ? '' : 's'} rejected: ${[result?.partial?.message, d.overBounds?.message].filter(Boolean).join('; ')}`] : [])];
      return { kind: 'accepted', rejected: rejected + overBounds, message: capMessage(messages.filter(Boolean).join('; ')) };
    }
    const { logs, rejected, errors } = d.result;
    const result = offer(this.#logSink, [], logs, onSettled);
    if (result && !result.accepted) return refusedOutcome(result);
    const overBounds = result?.partial?.rejectedLogs ?? 0;
    const messages = [rejectionMessage(rejected, errors, 'log record'), ...(overBounds > 0 ? [`${overBounds} log record${overBounds === 1 ? '' : 's'} rejected: ${result?.partial?.message ?? ''}`] : [])];
    return { kind: 'accepted', rejected: rejected + overBounds, message: capMessage(messages.filter(Boolean).join('; ')) };
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
      outcome = await this.#offerDecoded(decoded, () => wal.settle(seq));
    } catch (err) {
      wal.settle(seq);
      throw err;
    }
    if (outcome.kind === 'refused') wal.settle(seq);
    return outcome;
  }
}

/** The sink's answer, or undefined for an empty request (nothing offered). */
function offer(sink: SpanSink, spans: Span[], logs: LogRecord[], onSettled: (() => void) | undefined): OfferResult | undefined {
  if (spans.length === 0 && logs.length === 0) return undefined;
  return sink.offer(onSettled ? { spans, logs, source: 'otlp', onSettled } : { spans, logs, source: 'otlp' });
}

function refusedOutcome(result: Refusal): IngestOutcome {
  return { kind: 'refused', reason: result.reason, retryAfterMs: result.retryAfterMs };
}

function capMessage(msg: string): string {
  return msg.length > MAX_MESSAGE_CHARS ? `${msg.slice(0, MAX_MESSAGE_CHARS - 1)}…` : msg;
}

/** One part of a split request: a valid `ExportTraceServiceRequest` of its own, and how many spans it holds. */
interface RequestPart {
  bytes: Buffer;
  spans: number;
}

const LEN = 2;
const fieldTag = (n: number): number => (n << 3) | LEN;

function varint(n: number): Buffer {
  const out: number[] = [];
  let v = n;
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return Buffer.from(out);
}

/** Field `n` (length-delimited) holding the concatenation of `parts`. */
function lengthDelimited(n: number, parts: readonly Buffer[]): Buffer[] {
  const len = parts.reduce((k, p) => k + p.length, 0);
  return [varint(fieldTag(n)), varint(len), ...parts];
}

/**
 * Split a protobuf `ExportTraceServiceRequest` into requests of at most `spansPerPart` spans, without
 * decoding a span: each part repeats the resource and scope bytes of the spans it carries (a request's
 * encodings concatenate into one request, so the parts together are the original). Spans are kept as runs
 * of consecutive bytes, so the cost is a walk over the field headers, not an object per span. Undefined
 * when the framing is malformed: the caller decodes the whole body, which reports the error.
 */
export function splitTraceRequest(body: Buffer, spansPerPart: number): RequestPart[] | undefined {
  const parts: RequestPart[] = [];
  let current: Buffer[] = [];
  let currentSpans = 0;
  const flush = (): void => {
    if (currentSpans === 0) return;
    parts.push({ bytes: Buffer.concat(current), spans: currentSpans });
    current = [];
    currentSpans = 0;
  };
  const w = new WireWalker(body);
  let seen = 0;
  while (w.pos < body.length) {
    const t = w.varint();
    if (t !== fieldTag(1)) {
      if (!w.skip(t, body.length)) return undefined;
      continue;
    }
    const resourceEnd = w.lengthEnd(body.length);
    if (resourceEnd < 0) return undefined;
    const resourceOther: Buffer[] = [];
    /** Per scope: its other fields, and its spans as runs [start, end) of `count` consecutive span fields. */
    const scopes: { other: Buffer[]; runs: { start: number; end: number; count: number }[] }[] = [];
    while (w.pos < resourceEnd) {
      const start = w.pos;
      const ft = w.varint();
      if (ft !== fieldTag(2)) {
        if (!w.skip(ft, resourceEnd)) return undefined;
        resourceOther.push(body.subarray(start, w.pos));
        continue;
      }
      const scopeEnd = w.lengthEnd(resourceEnd);
      if (scopeEnd < 0) return undefined;
      const scope = { other: [] as Buffer[], runs: [] as { start: number; end: number; count: number }[] };
      let run: { start: number; end: number; count: number } | undefined;
      while (w.pos < scopeEnd) {
        const at = w.pos;
        const st = w.varint();
        if (st === fieldTag(2)) {
          const spanEnd = w.lengthEnd(scopeEnd);
          if (spanEnd < 0) return undefined;
          w.pos = spanEnd;
          // A run never crosses a part boundary (parts are cut every spansPerPart spans, in order).
          if (seen++ % spansPerPart === 0) run = undefined;
          if (!run) scope.runs.push((run = { start: at, end: spanEnd, count: 1 }));
          else {
            run.end = spanEnd;
            run.count++;
          }
        } else {
          if (!w.skip(st, scopeEnd)) return undefined;
          scope.other.push(body.subarray(at, w.pos));
          run = undefined;
        }
      }
      if (w.pos !== scopeEnd) return undefined;
      scopes.push(scope);
    }
    if (w.pos !== resourceEnd) return undefined;
    for (const scope of scopes) {
      for (const run of scope.runs) {
        if (currentSpans + run.count > spansPerPart) flush();
        current.push(...lengthDelimited(1, [...resourceOther, ...lengthDelimited(2, [...scope.other, body.subarray(run.start, run.end)])]));
        currentSpans += run.count;
      }
    }
  }
  if (w.pos !== body.length) return undefined;
  flush();
  return parts;
}

/** Walks protobuf field headers over a buffer; a truncated or over-long varint reads as -1. */
class WireWalker {
  pos = 0;

  constructor(private readonly buf: Buffer) {}

  /** A varint of up to 32 bits (tags and lengths); longer or truncated ones mark the walk bad. */
  varint(): number {
    const first = this.buf[this.pos];
    if (first !== undefined && first < 0x80) {
      this.pos++;
      return first;
    }
    let value = 0;
    let shift = 0;
    for (let i = 0; i < 5; i++) {
      if (this.pos >= this.buf.length) return -1;
      const b = this.buf[this.pos++] as number;
      value += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return value;
      shift += 7;
    }
    return -1;
  }

  /** Reads a length prefix; the end of the field it opens, or -1 when it runs past `limit`. */
  lengthEnd(limit: number): number {
    const len = this.varint();
    if (len < 0) return -1;
    const end = this.pos + len;
    return end > limit ? -1 : end;
  }

  /** Skips the value of a field with tag `t`; false when it is malformed or runs past `limit`. */
  skip(t: number, limit: number): boolean {
    if (t < 0) return false;
    switch (t & 7) {
      case 0:
        while (this.pos < limit && (this.buf[this.pos] as number) >= 0x80) this.pos++;
        this.pos++;
        return this.pos <= limit;
      case 1:
        this.pos += 8;
        return this.pos <= limit;
      case 2: {
        const end = this.lengthEnd(limit);
        if (end < 0) return false;
        this.pos = end;
        return true;
      }
      case 5:
        this.pos += 4;
        return this.pos <= limit;
      default:
        return false;
    }
  }
}
