/** Helpers for building OTLP payloads by hand in ingest tests. */
import protobuf from 'protobufjs';
import { otlp } from '../../src/otlp/descriptor.js';

/** The OTLP Span message type (the descriptor only names the request and response types). */
const spanType = (): protobuf.Type => otlp().root.lookupType('opentelemetry.proto.trace.v1.Span');

/** A deterministic xorshift PRNG (tests must be reproducible). */
export function prng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
}

/** An OTLP/JSON AnyValue nested `depth` arrays deep, as JSON text (JSON.stringify would overflow the stack). */
export function deepAnyValueJson(depth: number): string {
  return '{"arrayValue":{"values":['.repeat(depth) + '{"stringValue":"leaf"}' + ']}}'.repeat(depth);
}

/** A length-delimited protobuf field. */
export function ld(field: number, bytes: Uint8Array): Uint8Array {
  return protobuf.Writer.create().uint32((field << 3) | 2).bytes(bytes).finish();
}

const varintLen = (n: number): number => (n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5);

/** A protobuf AnyValue nested `depth` arrays deep, written outside-in in one pass (linear time). */
export function deepAnyValueProto(depth: number): Uint8Array {
  const leaf = ld(1, Buffer.from('leaf'));
  const outer: number[] = [leaf.length]; // size of the AnyValue at each level
  const inner: number[] = []; // size of the ArrayValue inside level i+1
  for (let i = 0; i < depth; i++) {
    const a = 1 + varintLen(outer[i] as number) + (outer[i] as number);
    inner.push(a);
    outer.push(1 + varintLen(a) + a);
  }
  const w = protobuf.Writer.create();
  for (let i = depth - 1; i >= 0; i--) w.uint32((5 << 3) | 2).uint32(inner[i] as number).uint32((1 << 3) | 2).uint32(outer[i] as number);
  const head = w.finish();
  return Buffer.concat([head, leaf]);
}

/** One protobuf span (from a protobufjs-style object) plus extra raw attribute KeyValues, wrapped in a request. */
export function encodeSpanWithRawAttributes(span: Record<string, unknown>, rawAttributes: { key: string; value: Uint8Array }[]): Uint8Array {
  const spanBytes = Buffer.concat([
    spanType().encode(spanType().fromObject(span)).finish(),
    ...rawAttributes.map((a) => ld(9, Buffer.concat([ld(1, Buffer.from(a.key)), ld(2, a.value)]))),
  ]);
  return ld(1, ld(2, ld(2, spanBytes)));
}

let counter = 1;
/** A valid OTLP/JSON span with fresh ids. */
export function jsonSpan(name: string, traceId = '0af7651916cd43dd8448eb211c80319c'): Record<string, unknown> {
  const spanId = (counter++).toString(16).padStart(16, '0');
  return { traceId, spanId, name, startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000001000000000' };
}

/** An OTLP/JSON ExportTraceServiceRequest holding `spans` (objects, or raw JSON text) in one resource/scope. */
export function jsonTraceRequest(spans: unknown[]): string {
  const parts = spans.map((s) => (typeof s === 'string' ? s : JSON.stringify(s)));
  return `{"resourceSpans":[{"resource":{"attributes":[]},"scopeSpans":[{"scope":{"name":"t"},"spans":[${parts.join(',')}]}]}]}`;
}

/** A JSON span text carrying one attribute whose value is the given raw AnyValue JSON text. */
export function jsonSpanWithRawAttribute(name: string, key: string, anyValueJson: string): string {
  const base = JSON.stringify(jsonSpan(name));
  return `${base.slice(0, -1)},"attributes":[{"key":${JSON.stringify(key)},"value":${anyValueJson}}]}`;
}

/** An OTLP/protobuf ExportTraceServiceRequest from protobufjs-style span objects. */
export function encodeTraceRequest(spans: Record<string, unknown>[]): Uint8Array {
  const msg = otlp().types.ExportTraceServiceRequest.fromObject({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 't' }, spans }] }] });
  return otlp().types.ExportTraceServiceRequest.encode(msg).finish();
}
