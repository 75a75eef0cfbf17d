/** OTLP/JSON `ExportTraceServiceRequest` → Span[] (see json-common.ts for the mapping rules). */
import type { Resource, Scope, Span, SpanEvent, SpanKind, SpanLink, StatusCode } from '../../model/span.js';
import { OTLP_ENUMS } from '../../otlp/enums.js';
import {
  attributesOf,
  enumField,
  envelopeArray,
  envelopeObjects,
  isObject,
  itemArray,
  nanos,
  optionalId,
  parseJsonPayload,
  requiredId,
  resourceOf,
  scopeOf,
  str,
  uint32,
  describe,
  type JsonObject,
} from './json-common.js';
import { Interner } from './intern.js';
import { NO_EVENTS, NO_LINKS, shareTraceIds, statusOf } from './compact.js';
import { clampEnum } from './proto-reader.js';
import { ItemRejected, Rejections, type TraceDecodeResult } from './result.js';


/**
 * Decodes an OTLP/JSON `ExportTraceServiceRequest` (bytes or text). Spans with missing or invalid ids,
 * wrongly typed fields or values nested too deeply are rejected one by one and counted; malformed JSON
 * or a malformed envelope throws `DecodeError`. Short strings are shared through `ix` (default: one for this call).
 */
export function decodeTraceRequestJson(input: Uint8Array | string, ix: Interner = new Interner()): TraceDecodeResult {
  const doc = parseJsonPayload(input, 'ExportTraceServiceRequest');
  const spans: Span[] = [];
  const rej = new Rejections();
  const rsList = envelopeObjects(envelopeArray(doc, 'resourceSpans', 'resource_spans', '(root)'), 'resourceSpans');
  for (let i = 0; i < rsList.length; i++) {
    const rs = rsList[i] as JsonObject;
    const rsPath = `resourceSpans[${i}]`;
    const resource = resourceOf(rs, rsPath, ix);
    const ssList = envelopeObjects(envelopeArray(rs, 'scopeSpans', 'scope_spans', rsPath), `${rsPath}.scopeSpans`);
    for (let j = 0; j < ssList.length; j++) {
      const ss = ssList[j] as JsonObject;
      const ssPath = `${rsPath}.scopeSpans[${j}]`;
      const scope = scopeOf(ss, ssPath, ix);
      const list = envelopeArray(ss, 'spans', 'spans', ssPath);
      for (let k = 0; k < list.length; k++) {
        try {
          spans.push(spanOf(list[k], resource, scope, ix));
        } catch (err) {
          if (!(err instanceof ItemRejected)) throw err;
          rej.add(`${ssPath}.spans[${k}]: ${err.message}`);
        }
      }
    }
  }
  shareTraceIds(spans);
  return { spans, rejected: rej.count, errors: rej.messages };
}

function spanOf(s: unknown, resource: Resource, scope: Scope, ix: Interner): Span {
  if (!isObject(s)) throw new ItemRejected(`expected a span object, got ${describe(s)}`);
  const status = s.status;
  let code = 0;
  let message = '';
  if (isObject(status)) {
    code = enumField(status.code, OTLP_ENUMS.statusCode, 'status.code');
    message = str(status, 'message');
  }
  return {
    traceId: requiredId(s, 'traceId', 'trace_id', 16),
    spanId: requiredId(s, 'spanId', 'span_id', 8),
    parentSpanId: optionalId(s, 'parentSpanId', 'parent_span_id', 8),
    traceState: str(s, 'traceState', 'trace_state'),
    flags: uint32(s, 'flags', 'flags'),
    name: ix.intern(str(s, 'name')),
    kind: clampEnum<SpanKind>(enumField(s.kind, OTLP_ENUMS.spanKind, 'kind'), 5),
    startTimeUnixNano: nanos(s, 'startTimeUnixNano', 'start_time_unix_nano'),
    endTimeUnixNano: nanos(s, 'endTimeUnixNano', 'end_time_unix_nano'),
    attributes: attributesOf(s, ix),
    events: eventsOf(itemArray(s, 'events', 'events'), ix),
    links: linksOf(itemArray(s, 'links', 'links'), ix),
    status: statusOf(clampEnum<StatusCode>(code, 2), message),
    resource,
    scope,
  };
}

function eventsOf(list: unknown[], ix: Interner): SpanEvent[] {
  return list.length > 0 ? list.map((e) => eventOf(e, ix)) : NO_EVENTS;
}

function linksOf(list: unknown[], ix: Interner): SpanLink[] {
  return list.length > 0 ? list.map((l) => linkOf(l, ix)) : NO_LINKS;
}

function eventOf(e: unknown, ix: Interner): SpanEvent {
  if (!isObject(e)) throw new ItemRejected(`events: expected objects, got ${describe(e)}`);
  return { timeUnixNano: nanos(e, 'timeUnixNano', 'time_unix_nano'), name: str(e, 'name'), attributes: attributesOf(e, ix) };
}

function linkOf(l: unknown, ix: Interner): SpanLink {
  if (!isObject(l)) throw new ItemRejected(`links: expected objects, got ${describe(l)}`);
  return {
    traceId: requiredId(l, 'traceId', 'trace_id', 16, 'links.traceId'),
    spanId: requiredId(l, 'spanId', 'span_id', 8, 'links.spanId'),
    traceState: str(l, 'traceState', 'trace_state'),
    attributes: attributesOf(l, ix),
    flags: uint32(l, 'flags', 'flags'),
  };
}
