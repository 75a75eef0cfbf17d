/** OTLP/protobuf `ExportLogsServiceRequest` → LogRecord[] (see proto-reader.ts for the approach). */
import type { Attributes, AttributeValue, LogRecord, Resource, Scope } from '../span.js';
import { DecodeError, errorMessage } from '../../errors.js';
import { checkEnd, createReader, readAnyValue, readFixed64, readId, readKeyValue, readResource, readScope, sub, tag, type Reader } from './proto-reader.js';
import { compactAttributes } from './compact.js';
import { ItemRejected, Rejections, type LogsDecodeResult } from './result.js';
import { eventNameOf } from './log-event-name.js';

/**
 * Decodes a binary OTLP `ExportLogsServiceRequest`. Records with invalid ids or too deeply nested values
 * are rejected one by one and counted; a malformed payload throws `DecodeError` naming the byte offset.
 */
export function decodeLogsRequestProto(bytes: Uint8Array): LogsDecodeResult {
  const r = createReader(bytes);
  const logs: LogRecord[] = [];
  const rejections = new Rejections();
  let rlIndex = 0;
  try {
    while (r.pos < r.len) {
      const t = r.uint32();
      if (t === tag(1, 2)) readResourceLogs(r, sub(r, r.len), `resourceLogs[${rlIndex++}]`, logs, rejections);
      else r.skipType(t & 7);
    }
    checkEnd(r, r.len);
  } catch (err) {
    if (err instanceof DecodeError) throw err;
    throw new DecodeError(`malformed protobuf ExportLogsServiceRequest: ${errorMessage(err)}`, Math.min(r.pos, r.len), { cause: err });
  }
  return { logs, rejected: rejections.count, errors: rejections.messages };
}

function readResourceLogs(r: Reader, end: number, path: string, out: LogRecord[], rej: Rejections): void {
  const resource: Resource = { attributes: {} };
  let slIndex = 0;
  while (r.pos < end) {
    const t = r.uint32();
    if (t === tag(1, 2)) {
      try {
        readResource(r, sub(r, end), resource);
      } catch (err) {
        if (err instanceof ItemRejected) throw new DecodeError(`${path}.resource: ${err.message}`, r.pos);
        throw err;
      }
    } else if (t === tag(2, 2)) readScopeLogs(r, sub(r, end), `${path}.scopeLogs[${slIndex++}]`, resource, out, rej);
    else r.skipType(t & 7);
  }
  checkEnd(r, end);
}

function readScopeLogs(r: Reader, end: number, path: string, resource: Resource, out: LogRecord[], rej: Rejections): void {
  const scope: Scope = { name: '', version: '', attributes: {} };
  let index = 0;
  while (r.pos < end) {
    const t = r.uint32();
    if (t === tag(1, 2)) {
      try {
        readScope(r, sub(r, end), scope);
      } catch (err) {
        if (err instanceof ItemRejected) throw new DecodeError(`${path}.scope: ${err.message}`, r.pos);
        throw err;
      }
    } else if (t === tag(2, 2)) {
      const recEnd = sub(r, end);
      const i = index++;
      try {
        out.push(readLogRecord(r, recEnd, resource, scope));
      } catch (err) {
        if (!(err instanceof ItemRejected)) throw err;
        rej.add(`${path}.logRecords[${i}]: ${err.message}`);
        r.pos = recEnd;
      }
    } else r.skipType(t & 7);
  }
  checkEnd(r, end);
}

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
