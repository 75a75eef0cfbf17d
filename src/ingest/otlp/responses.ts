/**
 * OTLP responses and `google.rpc.Status` error bodies, encoded with the descriptor in the request's
 * encoding (the OTLP/HTTP rule: answer in the content type you were sent).
 */
import type protobuf from 'protobufjs';
import { otlp } from '../../otlp/descriptor.js';
import type { OtlpSignal } from './ingest.js';

export type OtlpEncoding = 'json' | 'protobuf';

/** google.rpc.Code values used by the receivers. */
export const RpcCode = { INVALID_ARGUMENT: 3, RESOURCE_EXHAUSTED: 8, UNAUTHENTICATED: 16, UNAVAILABLE: 14, INTERNAL: 13 } as const;

function encode(type: protobuf.Type, obj: Record<string, unknown>, encoding: OtlpEncoding): Buffer {
  const msg = type.fromObject(obj);
  if (encoding === 'json') return Buffer.from(JSON.stringify(type.toObject(msg, { longs: String })));
  return Buffer.from(type.encode(msg).finish());
}

/** `Export{Trace,Logs}ServiceResponse`; `partialSuccess` is set only when something was rejected. */
export function encodeExportResponse(signal: OtlpSignal, encoding: OtlpEncoding, rejected: number, message: string): Buffer {
  if (signal === 'traces') {
    const obj = rejected > 0 || message ? { partialSuccess: { rejectedSpans: rejected, errorMessage: message } } : {};
    return encode(otlp().types.ExportTraceServiceResponse, obj, encoding);
  }
  const obj = rejected > 0 || message ? { partialSuccess: { rejectedLogRecords: rejected, errorMessage: message } } : {};
  return encode(otlp().types.ExportLogsServiceResponse, obj, encoding);
}

/** A `google.rpc.Status` body. */
export function encodeStatus(encoding: OtlpEncoding, code: number, message: string): Buffer {
  return encode(otlp().types.Status, { code, message }, encoding);
}

/** `google.rpc.Status` with one `google.rpc.RetryInfo` detail, binary (the gRPC `grpc-status-details-bin` form). */
export function encodeStatusWithRetryInfo(code: number, message: string, retryAfterMs: number): Buffer {
  const seconds = Math.floor(retryAfterMs / 1000);
  const nanos = (retryAfterMs % 1000) * 1_000_000;
  const retryInfo = otlp().types.RetryInfo.encode(otlp().types.RetryInfo.fromObject({ retryDelay: { seconds, nanos } })).finish();
  const status = otlp().types.Status.fromObject({ code, message, details: [{ type_url: 'type.googleapis.com/google.rpc.RetryInfo', value: retryInfo }] });
  return Buffer.from(otlp().types.Status.encode(status).finish());
}
