/**
 * The one internal span model. Every source (OTLP/JSON, OTLP/protobuf, Kafka, files) decodes to it,
 * and every later stage reads only it.
 */

/** A decoded OTLP `AnyValue`: strings, numbers, booleans, arrays and kvlists as plain JS values. */
export type AttributeValue =
  | string
  | number
  | boolean
  | bigint
  | Uint8Array
  | null
  | AttributeValue[]
  | { [key: string]: AttributeValue };

/** Attributes keyed by name. Plain object with a null prototype is not required; keys are never `__proto__`. */
export type Attributes = Record<string, AttributeValue>;

/** OTLP `SpanKind`: 0 UNSPECIFIED, 1 INTERNAL, 2 SERVER, 3 CLIENT, 4 PRODUCER, 5 CONSUMER. */
export type SpanKind = 0 | 1 | 2 | 3 | 4 | 5;

/** OTLP `Status.code`: 0 UNSET, 1 OK, 2 ERROR. */
export type StatusCode = 0 | 1 | 2;

export interface SpanEvent {
  /** Nanoseconds since the Unix epoch. */
  timeUnixNano: bigint;
  name: string;
  attributes: Attributes;
}

export interface SpanLink {
  traceId: string;
  spanId: string;
  traceState: string;
  attributes: Attributes;
  flags: number;
}

export interface Resource {
  attributes: Attributes;
}

export interface Scope {
  name: string;
  version: string;
  attributes: Attributes;
}

export interface Span {
  /** 32 lowercase hex characters. */
  traceId: string;
  /** 16 lowercase hex characters. */
  spanId: string;
  /** 16 lowercase hex characters, or `''` for a root span. */
  parentSpanId: string;
  traceState: string;
  /** W3C trace flags (bit 0 = sampled) as carried by OTLP `Span.flags`; 0 when absent. */
  flags: number;
  name: string;
  kind: SpanKind;
  /** Nanoseconds since the Unix epoch. */
  startTimeUnixNano: bigint;
  /** Nanoseconds since the Unix epoch. */
  endTimeUnixNano: bigint;
  attributes: Attributes;
  events: SpanEvent[];
  links: SpanLink[];
  status: { code: StatusCode; message: string };
  /** Shared by every span of one `ResourceSpans`: do not mutate. */
  resource: Resource;
  /** Shared by every span of one `ScopeSpans`: do not mutate. */
  scope: Scope;
}

/** An OTLP log record, kept for conventions that carry message content in log events. */
export interface LogRecord {
  timeUnixNano: bigint;
  observedTimeUnixNano: bigint;
  severityNumber: number;
  severityText: string;
  /** `eventName` (proto field 12), else the deprecated `event.name` attribute, else `''`. */
  eventName: string;
  body: AttributeValue;
  attributes: Attributes;
  /** Lowercase hex, or `''`. */
  traceId: string;
  /** Lowercase hex, or `''`. */
  spanId: string;
  flags: number;
  resource: Resource;
  scope: Scope;
}

/** Where a batch of spans came from; carried into score records. */
export type SourceKind = 'otlp' | 'kafka' | 'file';

/** A trace as the assembler hands it on: every span received for one trace id, plus its log records. */
export interface Trace {
  traceId: string;
  spans: Span[];
  logs: LogRecord[];
  source: SourceKind;
}

/** Approximate retained size of a span in bytes, used for the assembler's byte bound. */
export function estimateSpanBytes(span: Span): number {
  return 200 + span.name.length * 2 + estimateValueBytes(span.attributes) + span.events.reduce((n, e) => n + 48 + estimateValueBytes(e.attributes), 0);
}

/** Approximate retained size of a log record in bytes, used for the assembler's byte bound. */
export function estimateLogBytes(log: LogRecord): number {
  return 200 + log.eventName.length * 2 + estimateValueBytes(log.body) + estimateValueBytes(log.attributes);
}

function estimateValueBytes(value: AttributeValue | Attributes): number {
  if (value === null) return 8;
  switch (typeof value) {
    case 'string':
      return 16 + value.length * 2;
    case 'number':
    case 'boolean':
      return 8;
    case 'bigint':
      return 16;
    default:
      break;
  }
  if (value instanceof Uint8Array) return 32 + value.byteLength;
  if (Array.isArray(value)) return value.reduce<number>((n, v) => n + estimateValueBytes(v), 16);
  let n = 16;
  for (const k in value) n += 16 + k.length * 2 + estimateValueBytes(value[k] as AttributeValue);
  return n;
}
