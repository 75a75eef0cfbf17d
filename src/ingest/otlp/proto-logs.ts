/** OTLP/protobuf `ExportLogsServiceRequest` → LogRecord[] (see proto-reader.ts for the approach). */
import type { Attributes, AttributeValue, LogRecord, Resource, Scope } from '../../model/span.js';
import { checkEnd, readAnyValue, readFixed64, readId, readKeyValue, sub, tag, type Reader } from './proto-reader.js';
import { readEnvelope } from './proto-envelope.js';
import { Interner } from './intern.js';
import { compactAttributes } from './compact.js';
import type { LogsDecodeResult } from './result.js';
import { eventNameOf } from './log-event-name.js';

/**
 * Decodes a binary OTLP `ExportLogsServiceRequest`. Records with invalid ids or too deeply nested values
 * are rejected one by one and counted; a malformed payload throws `DecodeError` naming the byte offset.
 */
export function decodeLogsRequestProto(bytes: Uint8Array, interner: Interner = new Interner()): LogsDecodeResult {
  const { items: logs, rejections } = readEnvelope(bytes, NAMES, readLogRecord, interner);
  return { logs, rejected: rejections.count, errors: rejections.messages };
}

const NAMES = { request: 'ExportLogsServiceRequest', resource: 'resourceLogs', scope: 'scopeLogs', item: 'logRecords' };

function readLogRecord(r: Reader, end: number, resource: Resource, scope: Scope): LogRecord {
  let timeUnixNano = 0n;
  let observedTimeUnixNano = 0n;
  let severityNumber = 0;
  let severityText = '';
  let eventName = '';
  let body: AttributeValue = null;
  const attributes: Attributes = {};
  let stored = 0;
  let traceId = '';
  let spanId = '';
  let flags = 0;
  while (r.pos < end) {
    const t = r.uint32();
    switch (t) {
      case tag(1, 1):
        timeUnixNano = readFixed64(r);
        break;
      case tag(11, 1):
        observedTimeUnixNano = readFixed64(r);
        break;
      case tag(2, 0):
        severityNumber = r.int32();
        break;
      case tag(3, 2):
        severityText = r.string();
        break;
      case tag(5, 2):
        body = readAnyValue(r, sub(r, end), 0);
        break;
      case tag(6, 2):
        readKeyValue(r, sub(r, end), attributes, 0);
        stored++;
        break;
      case tag(8, 5):
        flags = r.fixed32();
        break;
      case tag(9, 2):
        traceId = readId(r, end, 16, 'traceId');
        break;
      case tag(10, 2):
        spanId = readId(r, end, 8, 'spanId');
        break;
      case tag(12, 2):
        eventName = r.string();
        break;
      default:
        r.skipType(t & 7);
    }
  }
  checkEnd(r, end);
  return {
    timeUnixNano,
    observedTimeUnixNano,
    severityNumber,
    severityText,
    eventName: eventNameOf(eventName, attributes),
    body,
    attributes: compactAttributes(attributes, stored),
    traceId,
    spanId,
    flags,
    resource,
    scope,
  };
}
