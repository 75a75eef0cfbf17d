/**
 * The decoders' memory savings must not change what a span says: ids, attribute keys in order and
 * values, empty events/links, status.
 */
import { describe, expect, it } from 'vitest';
import { compactAttributes, NO_EVENTS, shareTraceIds, statusOf, UNSET_STATUS } from '../../src/ingest/otlp/compact.js';
import { decodeTraceRequestJson, decodeTraceRequestProto } from '../../src/ingest/otlp/decode.js';
import { otlp } from '../../src/otlp/descriptor.js';
import { bytesToHex } from '../../src/ingest/otlp/hex.js';
import type { Attributes, Span } from '../../src/model/span.js';

function referenceHex(buf: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end; i++) s += (buf[i] as number).toString(16).padStart(2, '0');
  return s;
}

function request(attributeCount: number, withStatus: boolean): Record<string, unknown> {
  const attributes = Array.from({ length: attributeCount }, (_, i) => ({ key: `k.${(i * 7) % attributeCount}.${i}`, value: { stringValue: `v${i}` } }));
  const span = (spanId: string, parentSpanId: string) => ({
    traceId: '0AF7651916CD43DD8448EB211C80319C',
    spanId,
    parentSpanId,
    name: 'chat',
    startTimeUnixNano: '1700000000000000000',
    endTimeUnixNano: '1700000000500000000',
    attributes,
    ...(withStatus ? { status: { code: 2, message: 'boom' } } : {}),
  });
  return { resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 's' }, spans: [span('b7ad6b7169203331', ''), span('00f067aa0ba902b7', 'b7ad6b7169203331')] }] }] };
}

function protoOf(json: Record<string, unknown>): Uint8Array {
  const type = otlp().types.ExportTraceServiceRequest;
  const spans = (json.resourceSpans as Array<{ scopeSpans: Array<{ spans: Array<Record<string, unknown>> }> }>)[0]?.scopeSpans[0]?.spans ?? [];
  const b64 = (hex: string): string => Buffer.from(hex, 'hex').toString('base64');
  const withBytes = { ...json, resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 's' }, spans: spans.map((s) => ({ ...s, traceId: b64(s.traceId as string), spanId: b64(s.spanId as string), parentSpanId: b64(s.parentSpanId as string) })) }] }] };
  return type.encode(type.fromObject(withBytes)).finish();
}

describe('bytesToHex', () => {
  it('matches byte-by-byte hex for every byte value, at any offset', () => {
    const buf = new Uint8Array(300).map((_, i) => (i * 37 + 11) % 256);
    for (const [start, end] of [[0, 16], [5, 13], [283, 299], [0, 256], [7, 7]] as const) {
      expect(bytesToHex(buf.subarray(1), start, end)).toBe(referenceHex(buf.subarray(1), start, end));
    }
  });
});

describe('compactAttributes', () => {
  it('keeps small objects as they are and copies large ones with the same keys, order and values', () => {
    const small: Attributes = { a: 1 };
    expect(compactAttributes(small, 1)).toBe(small);
    const large: Attributes = {};
    const inner = { nested: true };
    for (let i = 40; i > 0; i--) large[`key.${i}`] = i === 3 ? inner : `v${i}`;
    large['7'] = 'integer-like';
    const copy = compactAttributes(large, 41);
    expect(copy).not.toBe(large);
    expect(Object.keys(copy)).toEqual(Object.keys(large));
    expect(copy).toEqual(large);
    expect(copy['key.3']).toBe(inner);
  });
});

describe('decoded spans', () => {
  for (const [name, count] of [['few attributes', 3], ['many attributes', 30]] as const) {
    it(`JSON and protobuf agree, with ids shared per trace (${name})`, () => {
      const json = request(count, count > 10);
      const fromJson = decodeTraceRequestJson(JSON.stringify(json)).spans;
      const fromProto = decodeTraceRequestProto(protoOf(json)).spans;
      for (const spans of [fromJson, fromProto]) {
        expect(spans.map((s) => s.traceId)).toEqual(['0af7651916cd43dd8448eb211c80319c', '0af7651916cd43dd8448eb211c80319c']);
        const [a, b] = spans as [Span, Span];
        expect(Object.keys(a.attributes)).toEqual((json.resourceSpans as never as Array<{ scopeSpans: Array<{ spans: Array<{ attributes: Array<{ key: string }> }> }> }>)[0]?.scopeSpans[0]?.spans[0]?.attributes.map((kv) => kv.key));
        expect(a.events).toEqual([]);
        expect(a.links).toEqual([]);
        expect(b.parentSpanId).toBe('b7ad6b7169203331');
        expect(a.status).toEqual(count > 10 ? { code: 2, message: 'boom' } : { code: 0, message: '' });
      }
      expect(fromProto.map((s) => ({ ...s, resource: undefined, scope: undefined }))).toEqual(fromJson.map((s) => ({ ...s, resource: undefined, scope: undefined })));
    });
  }

  it('shares the frozen empties and statuses without changing them', () => {
    expect(Object.isFrozen(NO_EVENTS) && NO_EVENTS.length === 0).toBe(true);
    expect(statusOf(0, '')).toBe(UNSET_STATUS);
    expect(statusOf(1, '')).toEqual({ code: 1, message: '' });
    expect(statusOf(2, '')).toEqual({ code: 2, message: '' });
    expect(statusOf(0, 'm')).toEqual({ code: 0, message: 'm' });
    const spans = [{ traceId: 'ab'.repeat(16) }, { traceId: 'AB'.toLowerCase().repeat(16) }, { traceId: 'cd'.repeat(16) }] as Span[];
    shareTraceIds(spans);
    expect(spans.map((s) => s.traceId)).toEqual(['ab'.repeat(16), 'ab'.repeat(16), 'cd'.repeat(16)]);
  });
});
