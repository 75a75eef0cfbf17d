/** OTLP/protobuf `ExportTraceServiceRequest` → Span[] (see proto-reader.ts for the approach). */
import type { Attributes, Resource, Scope, Span, SpanEvent, SpanKind, SpanLink, StatusCode } from '../../model/span.js';
import { checkEnd, clampEnum, readFixed64, readId, readKeyValue, readString, sub, tag, type Reader } from './proto-reader.js';
import { readEnvelope } from './proto-envelope.js';
import { Interner } from './intern.js';
import { compactAttributes, NO_EVENTS, NO_LINKS, shareTraceIds, statusOf, UNSET_STATUS } from './compact.js';
import { ItemRejected, type TraceDecodeResult } from './result.js';

/**
 * Decodes a binary OTLP `ExportTraceServiceRequest`. Spans with missing or invalid ids, or with values
 * nested too deeply, are rejected one by one and counted; a malformed payload throws `DecodeError`
 * naming the byte offset. Short strings are shared through `interner` (default: one for this call).
 */
export function decodeTraceRequestProto(bytes: Uint8Array, interner: Interner = new Interner()): TraceDecodeResult {
  const { items: spans, rejections } = readEnvelope(bytes, NAMES, readSpan, interner);
  shareTraceIds(spans);
  return { spans, rejected: rejections.count, errors: rejections.messages };
}

const NAMES = { request: 'ExportTraceServiceRequest', resource: 'resourceSpans', scope: 'scopeSpans', item: 'spans' };

function readSpan(r: Reader, end: number, resource: Resource, scope: Scope): Span {
  let traceId = '';
  let spanId = '';
  let parentSpanId = '';
  let traceState = '';
  let flags = 0;
  let name = '';
  let kind = 0;
  let startTimeUnixNano = 0n;
  let endTimeUnixNano = 0n;
  const attributes: Attributes = {};
  let stored = 0;
  const events: SpanEvent[] = [];
  const links: SpanLink[] = [];
  let status: { code: StatusCode; message: string } = UNSET_STATUS;
  while (r.pos < end) {
    const t = r.uint32();
    switch (t) {
      case tag(1, 2):
        traceId = readId(r, end, 16, 'traceId');
        break;
      case tag(2, 2):
        spanId = readId(r, end, 8, 'spanId');
        break;
      case tag(3, 2):
        traceState = r.string();
        break;
      case tag(4, 2):
        parentSpanId = readId(r, end, 8, 'parentSpanId');
        break;
      case tag(16, 5):
        flags = r.fixed32();
        break;
      case tag(5, 2):
        name = readString(r);
        break;
      case tag(6, 0):
        kind = r.int32();
        break;
      case tag(7, 1):
        startTimeUnixNano = readFixed64(r);
        break;
      case tag(8, 1):
        endTimeUnixNano = readFixed64(r);
        break;
      case tag(9, 2):
        readKeyValue(r, sub(r, end), attributes, 0);
        stored++;
        break;
      case tag(11, 2):
        events.push(readEvent(r, sub(r, end)));
        break;
      case tag(13, 2):
        links.push(readLink(r, sub(r, end)));
        break;
      case tag(15, 2):
        status = readStatus(r, sub(r, end));
        break;
      default:
        r.skipType(t & 7);
    }
  }
  checkEnd(r, end);
  if (traceId === '') throw new ItemRejected('traceId: missing or all zeroes');
  if (spanId === '') throw new ItemRejected('spanId: missing or all zeroes');
  return {
    traceId,
    spanId,
    parentSpanId,
    traceState,
    flags,
    name,
    kind: clampEnum<SpanKind>(kind, 5),
    startTimeUnixNano,
    endTimeUnixNano,
    attributes: compactAttributes(attributes, stored),
    events: events.length > 0 ? events : NO_EVENTS,
    links: links.length > 0 ? links : NO_LINKS,
    status,
    resource,
    scope,
  };
}

function readEvent(r: Reader, end: number): SpanEvent {
  let timeUnixNano = 0n;
  let name = '';
  const attributes: Attributes = {};
  let stored = 0;
  while (r.pos < end) {
    const t = r.uint32();
    if (t === tag(1, 1)) timeUnixNano = readFixed64(r);
    else if (t === tag(2, 2)) name = readString(r);
    else if (t === tag(3, 2)) {
      readKeyValue(r, sub(r, end), attributes, 0);
      stored++;
    } else r.skipType(t & 7);
  }
  checkEnd(r, end);
  return { timeUnixNano, name, attributes: compactAttributes(attributes, stored) };
}

function readLink(r: Reader, end: number): SpanLink {
  let traceId = '';
  let spanId = '';
  let traceState = '';
  let flags = 0;
  const attributes: Attributes = {};
  while (r.pos < end) {
    const t = r.uint32();
    switch (t) {
      case tag(1, 2):
        traceId = readId(r, end, 16, 'links.traceId');
        break;
      case tag(2, 2):
        spanId = readId(r, end, 8, 'links.spanId');
        break;
      case tag(3, 2):
        traceState = r.string();
        break;
      case tag(4, 2):
        readKeyValue(r, sub(r, end), attributes, 0);
        break;
      case tag(6, 5):
        flags = r.fixed32();
        break;
      default:
        r.skipType(t & 7);
    }
  }
  checkEnd(r, end);
  if (traceId === '' || spanId === '') throw new ItemRejected('links: traceId and spanId are required');
  return { traceId, spanId, traceState, attributes, flags };
}

function readStatus(r: Reader, end: number): { code: StatusCode; message: string } {
  let code = 0;
  let message = '';
  while (r.pos < end) {
    const t = r.uint32();
    if (t === tag(2, 2)) message = r.string();
    else if (t === tag(3, 0)) code = r.int32();
    else r.skipType(t & 7);
  }
  checkEnd(r, end);
  return statusOf(clampEnum<StatusCode>(code, 2), message);
}
