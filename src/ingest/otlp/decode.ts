/**
 * The OTLP request decoders, by signal and encoding. Each returns the decoded items plus a count and
 * sample of individually rejected ones (partial success); a malformed payload throws `DecodeError`.
 */
export { decodeTraceRequestJson } from './json-traces.js';
export { decodeLogsRequestJson } from './json-logs.js';
export { decodeTraceRequestProto } from './proto-traces.js';
export { decodeLogsRequestProto } from './proto-logs.js';
export type { TraceDecodeResult, LogsDecodeResult } from './result.js';
export { MAX_VALUE_DEPTH, MAX_ERROR_MESSAGES } from './result.js';
