/**
 * The span records Mastra's observability store returns (`getTrace({ traceId }).spans`, `@mastra/core`'s
 * `SpanRecord`), as {@link extractTrajectoryFromTrace} reads them. Only the fields named here are read; the
 * store's other fields (user, session and request ids, tags, links, row timestamps, …) are accepted as they are.
 */
import type { Span } from '../../model/span.js';

/** A point in time: a `Date` (what the store returns), an ISO 8601 string (its JSON over HTTP), or epoch milliseconds. */
export type SpanRecordTime = Date | string | number;

/** One span of a Mastra trace, as stored. */
export interface SpanRecord {
  traceId?: string;
  spanId: string;
  /** The parent span's id; `null`, `undefined` or `''` for a root span. */
  parentSpanId?: string | null;
  name: string;
  /** Mastra's `SpanType`: `agent_run`, `model_generation`, `tool_call`, `workflow_step`, … */
  spanType: string;
  isEvent?: boolean;
  startedAt: SpanRecordTime;
  /** `null` or absent while the span is running. */
  endedAt?: SpanRecordTime | null;
  entityType?: string | null;
  /** The agent, workflow, tool or processor id. */
  entityId?: string | null;
  entityName?: string | null;
  /** Span-type specific attributes (`model`, `usage`, `success`, `mcpServer`, `conditionCount`, …). */
  attributes?: Record<string, unknown> | null;
  metadata?: Record<string, unknown> | null;
  input?: unknown;
  output?: unknown;
  error?: unknown;
  [field: string]: unknown;
}

/** Milliseconds since the epoch, or `undefined` for a missing or unreadable time. */
export function recordTimeMs(value: unknown): number | undefined {
  let ms: number | undefined;
  if (value instanceof Date) ms = value.getTime();
  else if (typeof value === 'string') ms = Date.parse(value);
  else if (typeof value === 'number') ms = value;
  return ms !== undefined && Number.isFinite(ms) ? ms : undefined;
}

/** True for a record with the fields the extraction needs to place it in the tree. */
export function isSpanRecord(value: unknown): value is SpanRecord {
  return value !== null && typeof value === 'object' && typeof (value as { spanId?: unknown }).spanId === 'string' && !isOtelSpan(value);
}

/** True for tracejudge's own span model (an OTel span, with nanosecond `bigint` times). */
export function isOtelSpan(value: unknown): value is Span {
  if (value === null || typeof value !== 'object') return false;
  const v = value as { spanId?: unknown; startTimeUnixNano?: unknown };
  return typeof v.spanId === 'string' && typeof v.startTimeUnixNano === 'bigint';
}
