/**
 * The receivers' path when the write-ahead log is on: decode, append the request body, wait until it is
 * durable, and only then offer the spans (with `onSettled` settling the record) and answer.
 *
 * Why offer after the append and the sync, not before: if the append or the sync fails, nothing of the
 * request has reached the assembler, so the 503 the client gets is the whole truth and its retry is not a
 * duplicate. The reverse order would leave spans being scored for a request the client was told failed.
 * A record whose offer is then refused (buffers full, shutting down) is settled at once: after a crash it
 * may be replayed although the client was told to retry, which gives a duplicate (same evaluation ids,
 * deduplicated downstream), never a loss.
 */
import { errorMessage } from '../../errors.js';
import { telemetry } from '../../telemetry/instruments.js';
import { decodeLogsRequestJson, decodeLogsRequestProto, decodeTraceRequestJson, decodeTraceRequestProto } from '../otlp/decode.js';
import { ingestLogs, ingestTraces, type IngestOutcome, type OtlpSignal } from '../otlp/ingest.js';
import type { OtlpEncoding } from '../otlp/responses.js';
import type { SpanSink } from '../sink.js';
import { WalClosedError, WalFullError, type WriteAheadLog } from './log.js';
import type { WalRecordKind } from './record.js';

/** What to answer: an ingest outcome, or a log failure (503 / UNAVAILABLE; nothing was accepted). */
export type DurableOutcome = IngestOutcome | { kind: 'wal_failed'; message: string };

/** The record kind for a request. */
export function walKind(signal: OtlpSignal, encoding: OtlpEncoding): WalRecordKind {
  return `${signal}-${encoding}`;
}

/** `sink`, with every offered batch settling WAL record `seq` once handled. */
export function settlingSink(sink: SpanSink, onSettled: () => void): SpanSink {
  return { offer: (batch) => sink.offer({ ...batch, onSettled }) };
}

/**
 * Decode and offer one record's body, as the receivers do (same decoders, same counters); the record is
 * settled when the assembler has handled it. Returns the number of items offered (0: nothing to do, the
 * caller settles), or throws `DecodeError`.
 */
export function offerRecord(kind: WalRecordKind, body: Buffer, sink: SpanSink, onSettled: () => void): { items: number; outcome: IngestOutcome } {
  const target = settlingSink(sink, onSettled);
  switch (kind) {
    case 'traces-protobuf':
    case 'traces-json': {
      const decoded = kind === 'traces-json' ? decodeTraceRequestJson(body) : decodeTraceRequestProto(body);
      return { items: decoded.spans.length, outcome: ingestTraces(decoded, target) };
    }
    case 'logs-protobuf':
    case 'logs-json': {
      const decoded = kind === 'logs-json' ? decodeLogsRequestJson(body) : decodeLogsRequestProto(body);
      return { items: decoded.logs.length, outcome: ingestLogs(decoded, target) };
    }
  }
}

/**
 * Decode `body`, log it, and offer it once durable. Throws `DecodeError` for a malformed request (nothing
 * is logged: the client gets 400 and must not retry).
 */
export async function ingestDurably(wal: WriteAheadLog, signal: OtlpSignal, encoding: OtlpEncoding, body: Buffer, sink: SpanSink): Promise<DurableOutcome> {
  const kind = walKind(signal, encoding);
  if (signal === 'traces') {
    const decoded = encoding === 'json' ? decodeTraceRequestJson(body) : decodeTraceRequestProto(body);
    if (decoded.spans.length === 0) return ingestTraces(decoded, sink);
    return appendThenOffer(wal, kind, body, (target) => ingestTraces(decoded, target), sink);
  }
  const decoded = encoding === 'json' ? decodeLogsRequestJson(body) : decodeLogsRequestProto(body);
  if (decoded.logs.length === 0) return ingestLogs(decoded, sink);
  return appendThenOffer(wal, kind, body, (target) => ingestLogs(decoded, target), sink);
}

async function appendThenOffer(wal: WriteAheadLog, kind: WalRecordKind, body: Buffer, ingest: (sink: SpanSink) => IngestOutcome, sink: SpanSink): Promise<DurableOutcome> {
  let seq: number;
  const appends = telemetry().walAppends;
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
    outcome = ingest(settlingSink(sink, () => wal.settle(seq)));
  } catch (err) {
    wal.settle(seq);
    throw err;
  }
  if (outcome.kind === 'refused') wal.settle(seq);
  return outcome;
}
