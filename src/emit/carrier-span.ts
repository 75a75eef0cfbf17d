/**
 * The evaluation carrier span (docs/records.md): one span per score record, inside the evaluated trace, child of and
 * linked to the agent run span, with one `gen_ai.evaluation.result` span event. Built as a `ReadableSpan` so the
 * official OTLP exporters serialise it.
 */
import { SpanKind, SpanStatusCode, TraceFlags, type Attributes, type HrTime, type SpanContext } from '@opentelemetry/api';
import type { InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { Attr, EVALUATION_EVENT_NAME, evaluationEventAttributes } from './evaluation-attributes.js';
import { carrierSpanIdFor } from './evaluation-id.js';
import { hrAfter, hrDuration, hrTimeFromMs, hrTimeFromRfc3339 } from './otel-time.js';
import type { ScoreRecord } from '../model/score-record.js';

/** The evaluated agent span as a span context (sampled, remote: it was recorded by another process). */
export function evaluatedSpanContext(record: ScoreRecord): SpanContext {
  return { traceId: record.traceId.toLowerCase(), spanId: record.spanId.toLowerCase(), traceFlags: TraceFlags.SAMPLED, isRemote: true };
}

/** Start and end of the evaluation: `startTime` (or `timestamp - durationMs`) to `timestamp`. */
export function evaluationTimes(record: ScoreRecord, nowMs: number = Date.now()): { start: HrTime; end: HrTime } {
  const end = hrTimeFromRfc3339(record.timestamp) ?? hrTimeFromMs(nowMs);
  const endMs = end[0] * 1000 + end[1] / 1e6;
  const duration = Number.isFinite(record.durationMs) && record.durationMs > 0 ? record.durationMs : 0;
  let start = hrTimeFromRfc3339(record.startTime) ?? hrTimeFromMs(endMs - duration);
  if (hrAfter(start, end)) start = end;
  return { start, end };
}

/** Build the carrier span of one score record. */
export function toCarrierSpan(record: ScoreRecord, resource: Resource, scope: InstrumentationScope): ReadableSpan {
  const target = evaluatedSpanContext(record);
  const own: SpanContext = { traceId: target.traceId, spanId: carrierSpanIdFor(record.evaluationId), traceFlags: TraceFlags.SAMPLED };
  const { start, end } = evaluationTimes(record);
  const attributes: Attributes = {
    [Attr.evaluationName]: record.scorer,
    [Attr.agentName]: record.agentName,
    [Attr.openinferenceKind]: 'EVALUATOR',
  };
  if (record.scorerVersion) attributes[Attr.scorerVersion] = record.scorerVersion;
  if (record.error) attributes[Attr.errorType] = record.error.type || '_OTHER';
  return {
    name: `evaluation ${record.scorer}`,
    kind: SpanKind.INTERNAL,
    spanContext: () => own,
    parentSpanContext: target,
    startTime: start,
    endTime: end,
    duration: hrDuration(start, end),
    status: record.error ? { code: SpanStatusCode.ERROR, message: record.error.message } : { code: SpanStatusCode.UNSET },
    attributes,
    links: [{ context: target, attributes: {} }],
    events: [{ name: EVALUATION_EVENT_NAME, time: end, attributes: evaluationEventAttributes(record), droppedAttributesCount: 0 }],
    ended: true,
    resource,
    instrumentationScope: scope,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}
