/**
 * Serialises generated OTLP/JSON requests: compact JSON bytes, and protobuf bytes through the repository's
 * protobufjs descriptor (src/otlp/proto/otlp.json), so both encodings carry exactly the same data.
 */
import { otlp } from '../../src/otlp/descriptor.js';
import type { JsonAnyValue, JsonKeyValue, JsonTraceRequest } from './otlp-json.js';

/** OTLP/JSON body as sent by `Content-Type: application/json` exporters. */
export function encodeJson(request: JsonTraceRequest): Buffer {
  return Buffer.from(JSON.stringify(request));
}

type ProtoObject = Record<string, unknown>;

function hexBytes(hex: string | undefined): Buffer {
  return Buffer.from(hex ?? '', 'hex');
}

function value(v: JsonAnyValue | undefined): ProtoObject {
  if (!v) return {};
  if (v.arrayValue) return { arrayValue: { values: (v.arrayValue.values ?? []).map(value) } };
  if (v.kvlistValue) return { kvlistValue: { values: attrs(v.kvlistValue.values) } };
  return { ...v };
}

function attrs(list: JsonKeyValue[] | undefined): ProtoObject[] {
  return (list ?? []).map((kv) => ({ key: kv.key, value: value(kv.value) }));
}

/**
 * The OTLP/JSON request as a protobufjs plain object: hex ids become bytes (OTLP/JSON is the one place
 * ids are hex rather than base64), everything else maps field for field.
 */
export function toProtoObject(request: JsonTraceRequest): ProtoObject {
  return {
    resourceSpans: request.resourceSpans.map((rs) => ({
      ...(rs.resource ? { resource: { attributes: attrs(rs.resource.attributes), droppedAttributesCount: rs.resource.droppedAttributesCount ?? 0 } } : {}),
      schemaUrl: rs.schemaUrl ?? '',
      scopeSpans: rs.scopeSpans.map((ss) => ({
        ...(ss.scope ? { scope: { name: ss.scope.name ?? '', version: ss.scope.version ?? '', attributes: attrs(ss.scope.attributes) } } : {}),
        schemaUrl: ss.schemaUrl ?? '',
        spans: ss.spans.map((s) => ({
          traceId: hexBytes(s.traceId),
          spanId: hexBytes(s.spanId),
          parentSpanId: hexBytes(s.parentSpanId),
          traceState: s.traceState ?? '',
          flags: s.flags ?? 0,
          name: s.name,
          kind: s.kind ?? 0,
          startTimeUnixNano: s.startTimeUnixNano,
          endTimeUnixNano: s.endTimeUnixNano,
          attributes: attrs(s.attributes),
          droppedAttributesCount: s.droppedAttributesCount ?? 0,
          events: (s.events ?? []).map((e) => ({
            timeUnixNano: e.timeUnixNano ?? '0',
            name: e.name ?? '',
            attributes: attrs(e.attributes),
            droppedAttributesCount: e.droppedAttributesCount ?? 0,
          })),
          droppedEventsCount: s.droppedEventsCount ?? 0,
          droppedLinksCount: s.droppedLinksCount ?? 0,
          ...(s.status ? { status: { code: s.status.code ?? 0, message: s.status.message ?? '' } } : {}),
        })),
      })),
    })),
  };
}

/** Protobuf `ExportTraceServiceRequest` bytes, as `application/x-protobuf` exporters and the Collector's Kafka exporter send. */
export function encodeProto(request: JsonTraceRequest): Uint8Array {
  const T = otlp().types.ExportTraceServiceRequest;
  return T.encode(T.fromObject(toProtoObject(request))).finish();
}
