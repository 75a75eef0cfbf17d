/**
 * Says what an input that yielded no OTLP spans or log records holds instead, for the error message:
 * a known foreign trace format ("a Jaeger JSON export?"), an OTLP request of another signal, an empty
 * OTLP request, or the top-level keys seen. Runs only on the error path, so parsing the input again is fine.
 */
import type { InputBytes } from './read-bytes.js';

const MAX_KEYS_SHOWN = 8;

const EXPECTED = 'expected an OTLP ExportTraceServiceRequest or ExportLogsServiceRequest ({"resourceSpans": [...]} or {"resourceLogs": [...]})';

/**
 * The message for an input without OTLP spans or log records (after its name), e.g.
 * `no OTLP spans or log records: a Jaeger JSON export? (data[].spans with traceID); tracejudge reads OTLP only`.
 */
export function describeNonOtlp(input: InputBytes, format: 'json' | 'protobuf'): string {
  const head = 'no OTLP spans or log records';
  if (format === 'protobuf') return `${head} in ${input.bytes.length} bytes read as protobuf; ${EXPECTED}`;
  const doc = firstJsonValue(input.bytes);
  const foreign = doc === undefined ? undefined : foreignFormat(doc);
  if (foreign !== undefined) return `${head}: ${foreign}`;
  return `${head} (found ${doc === undefined ? 'no JSON value' : shapeOf(doc)}); ${EXPECTED}`;
}

/** A recognised trace format other than OTLP, with the evidence; undefined when none matches. */
export function foreignFormat(doc: unknown): string | undefined {
  if (Array.isArray(doc)) {
    // Zipkin v2: an array of spans, or (as the Zipkin UI downloads it) an array of traces, each an array of spans.
    const first: unknown = Array.isArray(doc[0]) ? (doc[0] as unknown[])[0] : doc[0];
    if (isObject(first) && 'traceId' in first && ('localEndpoint' in first || 'remoteEndpoint' in first || 'annotations' in first || 'binaryAnnotations' in first)) {
      return 'a Zipkin JSON? (an array of spans with traceId and localEndpoint); tracejudge reads OTLP only';
    }
    return undefined;
  }
  if (!isObject(doc)) return undefined;
  const data = doc.data;
  if (Array.isArray(data) && data.some((t) => isObject(t) && Array.isArray(t.spans) && ('traceID' in t || t.spans.some((s) => isObject(s) && 'traceID' in s)))) {
    return 'a Jaeger JSON export? (data[].spans with traceID); tracejudge reads OTLP only';
  }
  if (Array.isArray(doc.batches)) return 'a Tempo API response? (batches[]); tracejudge reads OTLP requests (resourceSpans[])';
  if ('resourceMetrics' in doc || 'resource_metrics' in doc) return 'an OTLP metrics request (resourceMetrics); tracejudge reads traces and logs';
  if (isEmptyArray(doc.resourceSpans) || isEmptyArray(doc.resource_spans)) return 'an OTLP traces request without spans (resourceSpans is empty)';
  if (isEmptyArray(doc.resourceLogs) || isEmptyArray(doc.resource_logs)) return 'an OTLP logs request without log records (resourceLogs is empty)';
  if ('resourceSpans' in doc || 'resourceLogs' in doc) return 'an OTLP request whose resources hold no spans or log records';
  return undefined;
}

function shapeOf(doc: unknown): string {
  if (isObject(doc)) {
    const keys = Object.keys(doc);
    if (keys.length === 0) return 'an empty JSON object';
    const shown = keys.slice(0, MAX_KEYS_SHOWN).join(', ');
    return `top-level keys: ${shown}${keys.length > MAX_KEYS_SHOWN ? `, … (${keys.length} in all)` : ''}`;
  }
  if (Array.isArray(doc)) return `a JSON array of ${doc.length} item(s)`;
  return `a JSON ${doc === null ? 'null' : typeof doc}`;
}

/** The whole input as one JSON value, else its first non-blank line (JSON lines); undefined when neither parses. */
function firstJsonValue(bytes: Uint8Array): unknown {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8').replace(/^\uFEFF/, '');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // The first non-blank line, found without splitting what may be a very large input.
    let start = 0;
    let line: string | undefined;
    while (start < text.length) {
      const nl = text.indexOf('\n', start);
      const candidate = text.slice(start, nl < 0 ? text.length : nl);
      if (candidate.trim() !== '') {
        line = candidate;
        break;
      }
      if (nl < 0) break;
      start = nl + 1;
    }
    if (line === undefined) return undefined;
    try {
      return JSON.parse(line) as unknown;
    } catch {
      return undefined;
    }
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isEmptyArray(v: unknown): boolean {
  return Array.isArray(v) && v.length === 0;
}
