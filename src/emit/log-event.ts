/**
 * The `gen_ai.evaluation.result` log event (docs/records.md): an OTLP log record with that event name, the evaluation
 * attributes, and the trace id / span id of the evaluated agent span (the form the GenAI conventions prefer).
 */
import type { InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableLogRecord } from '@opentelemetry/sdk-logs';
import { evaluatedSpanContext, evaluationTimes } from './carrier-span.js';
import { EVALUATION_EVENT_NAME, evaluationEventAttributes } from './evaluation-attributes.js';
import { hrTimeFromMs } from './otel-time.js';
import type { ScoreRecord } from '../model/score-record.js';

/** Build the log event of one score record; its time is when the evaluation finished. */
export function toLogEvent(record: ScoreRecord, resource: Resource, scope: InstrumentationScope, nowMs: number = Date.now()): ReadableLogRecord {
  const { end } = evaluationTimes(record, nowMs);
  const { isRemote: _remote, ...spanContext } = evaluatedSpanContext(record);
  return {
    hrTime: end,
    hrTimeObserved: hrTimeFromMs(nowMs),
    spanContext,
    eventName: EVALUATION_EVENT_NAME,
    resource,
    instrumentationScope: scope,
    attributes: evaluationEventAttributes(record),
    droppedAttributesCount: 0,
  };
}
