/** OTLP/JSON `ExportLogsServiceRequest` → LogRecord[] (see json-common.ts for the mapping rules). */
import type { AttributeValue, LogRecord, Resource, Scope } from '../../model/span.js';
import { OTLP_ENUMS } from '../../otlp/enums.js';
import {
  anyValue,
  attributesOf,
  describe,
  enumField,
  envelopeArray,
  envelopeObjects,
  isObject,
  nanos,
  optionalId,
  parseJsonPayload,
  resourceOf,
  scopeOf,
  str,
  uint32,
  type JsonObject,
} from './json-common.js';
import { eventNameOf } from './log-event-name.js';
import { Interner } from './intern.js';
import { ItemRejected, Rejections, type LogsDecodeResult } from './result.js';


/**
 * Decodes an OTLP/JSON `ExportLogsServiceRequest` (bytes or text). Records with invalid ids, wrongly
 * typed fields or values nested too deeply are rejected one by one and counted; malformed JSON or a
 * malformed envelope throws `DecodeError`. Short strings are shared through `ix` (default: one for this call).
 */
export function decodeLogsRequestJson(input: Uint8Array | string, ix: Interner = new Interner()): LogsDecodeResult {
  const doc = parseJsonPayload(input, 'ExportLogsServiceRequest');
  const logs: LogRecord[] = [];
  const rej = new Rejections();
  const rlList = envelopeObjects(envelopeArray(doc, 'resourceLogs', 'resource_logs', '(root)'), 'resourceLogs');
  for (let i = 0; i < rlList.length; i++) {
    const rl = rlList[i] as JsonObject;
    const rlPath = `resourceLogs[${i}]`;
    const resource = resourceOf(rl, rlPath, ix);
    const slList = envelopeObjects(envelopeArray(rl, 'scopeLogs', 'scope_logs', rlPath), `${rlPath}.scopeLogs`);
    for (let j = 0; j < slList.length; j++) {
      const sl = slList[j] as JsonObject;
      const slPath = `${rlPath}.scopeLogs[${j}]`;
      const scope = scopeOf(sl, slPath, ix);
      const list = envelopeArray(sl, 'logRecords', 'log_records', slPath);
      for (let k = 0; k < list.length; k++) {
        try {
          logs.push(logOf(list[k], resource, scope, ix));
        } catch (err) {
          if (!(err instanceof ItemRejected)) throw err;
          rej.add(`${slPath}.logRecords[${k}]: ${err.message}`);
        }
      }
    }
  }
  return { logs, rejected: rej.count, errors: rej.messages };
}

function logOf(l: unknown, resource: Resource, scope: Scope, ix: Interner): LogRecord {
  if (!isObject(l)) throw new ItemRejected(`expected a log record object, got ${describe(l)}`);
  const attributes = attributesOf(l, ix);
  const rawBody = l.body;
  const body: AttributeValue = rawBody === undefined || rawBody === null ? null : anyValue(rawBody, 0, ix);
  return {
    timeUnixNano: nanos(l, 'timeUnixNano', 'time_unix_nano'),
    observedTimeUnixNano: nanos(l, 'observedTimeUnixNano', 'observed_time_unix_nano'),
    severityNumber: enumField(l.severityNumber ?? l.severity_number, OTLP_ENUMS.severityNumber, 'severityNumber'),
    severityText: str(l, 'severityText', 'severity_text'),
    eventName: eventNameOf(str(l, 'eventName', 'event_name'), attributes),
    body,
    attributes,
    traceId: optionalId(l, 'traceId', 'trace_id', 16),
    spanId: optionalId(l, 'spanId', 'span_id', 8),
    flags: uint32(l, 'flags', 'flags'),
    resource,
    scope,
  };
}
