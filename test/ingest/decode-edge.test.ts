import { describe, expect, it } from 'vitest';
import { decodeTraceRequestJson, decodeTraceRequestProto, decodeLogsRequestJson, decodeLogsRequestProto, MAX_VALUE_DEPTH } from '../../src/ingest/otlp/decode.js';
import { fieldNumbers, otlp } from '../../src/otlp/descriptor.js';
import { DecodeError } from '../../src/errors.js';
import { deepAnyValueJson, deepAnyValueProto, encodeSpanWithRawAttributes, encodeTraceRequest, jsonSpan, jsonSpanWithRawAttribute, jsonTraceRequest, prng } from './helpers.js';

const TRACE = '5B8EFFF798038103D269B633813FC60C';
const SPAN = 'EEE19B7EC3C1B174';

describe('OTLP/JSON decoder', () => {
  it('accepts uppercase hex, snake_case keys, int64 strings, enum names and ignores unknown fields', () => {
    const req = {
      resource_spans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { string_value: 'svc' } }] },
          scope_spans: [
            {
              scope: { name: 's', version: '1' },
              spans: [
                {
                  trace_id: TRACE,
                  span_id: SPAN,
                  parent_span_id: '',
                  name: 'op',
                  kind: 'SPAN_KIND_SERVER',
                  start_time_unix_nano: '1700000000000000001',
                  end_time_unix_nano: 1700000000,
                  futureField: { x: 1 },
                  attributes: [
                    { key: 'i', value: { int_value: '9007199254740993' } },
                    { key: 'small', value: { intValue: '-42' } },
                    { key: 'd', value: { doubleValue: 'Infinity' } },
                    { key: 'b', value: { bytesValue: 'AQID' } },
                    { key: 'kv', value: { kvlistValue: { values: [{ key: 'a', value: { arrayValue: { values: [{ boolValue: true }, {}] } } }] } } },
                    { key: '__proto__', value: { stringValue: 'dropped' } },
                  ],
                  status: { code: 'STATUS_CODE_ERROR', message: 'bad' },
                },
              ],
            },
          ],
        },
      ],
    };
    const { spans, rejected } = decodeTraceRequestJson(JSON.stringify(req));
    expect(rejected).toBe(0);
    const s = spans[0];
    expect(s).toBeDefined();
    expect(s?.traceId).toBe(TRACE.toLowerCase());
    expect(s?.spanId).toBe(SPAN.toLowerCase());
    expect(s?.kind).toBe(2);
    expect(s?.status).toEqual({ code: 2, message: 'bad' });
    expect(s?.startTimeUnixNano).toBe(1700000000000000001n);
    expect(s?.endTimeUnixNano).toBe(1700000000n);
    expect(s?.attributes).toEqual({ i: 9007199254740993n, small: -42, d: Infinity, b: new Uint8Array([1, 2, 3]), kv: { a: [true, null] } });
    expect(Object.getPrototypeOf(s?.attributes)).toBe(Object.prototype);
    expect(s?.resource.attributes).toEqual({ 'service.name': 'svc' });
  });

  it('treats missing kind and status as 0 and a missing parent as a root', () => {
    const { spans } = decodeTraceRequestJson(jsonTraceRequest([{ traceId: TRACE, spanId: SPAN }]));
    expect(spans[0]).toMatchObject({ kind: 0, status: { code: 0, message: '' }, parentSpanId: '', events: [], links: [] });
  });

  it('rejects spans with bad or missing ids individually and keeps the rest', () => {
    const good = jsonSpan('good');
    const req = jsonTraceRequest([good, { ...jsonSpan('noTrace'), traceId: undefined }, { ...jsonSpan('badHex'), spanId: 'zz19b7ec3c1b1740' }, { ...jsonSpan('short'), traceId: 'abcd' }, { ...jsonSpan('zero'), traceId: '0'.repeat(32) }]);
    const r = decodeTraceRequestJson(req);
    expect(r.spans.map((s) => s.name)).toEqual(['good']);
    expect(r.rejected).toBe(4);
    expect(r.errors[0]).toBe('resourceSpans[0].scopeSpans[0].spans[1]: traceId: missing');
    expect(r.errors[1]).toMatch(/spans\[2\]: spanId: expected 16 hex characters/);
    expect(r.errors[3]).toMatch(/spans\[4\]: traceId: all zeroes/);
  });

  it('rejects a span whose attribute nests too deeply, without blowing the stack', () => {
    const r = decodeTraceRequestJson(
      jsonTraceRequest([jsonSpanWithRawAttribute('deep', 'deep', deepAnyValueJson(20_000)), jsonSpanWithRawAttribute('shallow', 'ok', deepAnyValueJson(MAX_VALUE_DEPTH))]),
    );
    expect(r.spans.map((s) => s.name)).toEqual(['shallow']);
    expect(r.rejected).toBe(1);
    expect(r.errors[0]).toMatch(/nested deeper than 64 levels/);
  });

  it('throws DecodeError with a byte offset for invalid JSON', () => {
    const bytes = Buffer.from('{"resourceSpans": [ {"x": 1,, } ]}');
    const err = (() => {
      try {
        decodeTraceRequestJson(bytes);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(DecodeError);
    expect((err as DecodeError).message).toMatch(/^invalid JSON ExportTraceServiceRequest/);
    expect((err as DecodeError).offset).toBe(28);
    expect(() => decodeTraceRequestJson('{"resourceSpans": [')).toThrow(/at byte offset 19/);
  });

  it('throws DecodeError for a malformed envelope', () => {
    expect(() => decodeTraceRequestJson('[1,2]')).toThrow(/must be a JSON object, got an array/);
    expect(() => decodeTraceRequestJson('{"resourceSpans": 5}')).toThrow(/\(root\)\.resourceSpans must be an array/);
    expect(() => decodeTraceRequestJson('{"resourceSpans": [{"scopeSpans": [7]}]}')).toThrow(/resourceSpans\[0\]\.scopeSpans\[0\] must be an object/);
  });

  it('decodes logs with optional ids and rejects bad ones', () => {
    const req = { resourceLogs: [{ scopeLogs: [{ logRecords: [{ body: { stringValue: 'x' }, severityNumber: 'SEVERITY_NUMBER_WARN' }, { traceId: 'nothex', body: {} }] }] }] };
    const r = decodeLogsRequestJson(JSON.stringify(req));
    expect(r.logs).toHaveLength(1);
    expect(r.logs[0]).toMatchObject({ body: 'x', severityNumber: 13, traceId: '', spanId: '' });
    expect(r.rejected).toBe(1);
  });
});

describe('OTLP/protobuf decoder', () => {
  it('uses the field numbers of the official descriptor', () => {
    expect(fieldNumbers('opentelemetry.proto.trace.v1.Span')).toMatchObject({ traceId: 1, spanId: 2, traceState: 3, parentSpanId: 4, flags: 16, name: 5, kind: 6, startTimeUnixNano: 7, endTimeUnixNano: 8, attributes: 9, events: 11, links: 13, status: 15 });
    expect(fieldNumbers('opentelemetry.proto.trace.v1.Span.Event')).toMatchObject({ timeUnixNano: 1, name: 2, attributes: 3 });
    expect(fieldNumbers('opentelemetry.proto.trace.v1.Span.Link')).toMatchObject({ traceId: 1, spanId: 2, traceState: 3, attributes: 4, flags: 6 });
    expect(fieldNumbers('opentelemetry.proto.trace.v1.Status')).toMatchObject({ message: 2, code: 3 });
    expect(fieldNumbers('opentelemetry.proto.common.v1.AnyValue')).toMatchObject({ stringValue: 1, boolValue: 2, intValue: 3, doubleValue: 4, arrayValue: 5, kvlistValue: 6, bytesValue: 7 });
    expect(fieldNumbers('opentelemetry.proto.common.v1.KeyValue')).toMatchObject({ key: 1, value: 2 });
    expect(fieldNumbers('opentelemetry.proto.common.v1.InstrumentationScope')).toMatchObject({ name: 1, version: 2, attributes: 3 });
    expect(fieldNumbers('opentelemetry.proto.logs.v1.LogRecord')).toMatchObject({ timeUnixNano: 1, observedTimeUnixNano: 11, severityNumber: 2, severityText: 3, body: 5, attributes: 6, flags: 8, traceId: 9, spanId: 10, eventName: 12 });
    expect(fieldNumbers('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest')).toMatchObject({ resourceSpans: 1 });
    expect(fieldNumbers('opentelemetry.proto.trace.v1.ResourceSpans')).toMatchObject({ resource: 1, scopeSpans: 2 });
    expect(fieldNumbers('opentelemetry.proto.trace.v1.ScopeSpans')).toMatchObject({ scope: 1, spans: 2 });
  });

  it('decodes negative and large int64 values and rejects spans with wrong-length ids', () => {
    const bytes = encodeTraceRequest([
      { traceId: Buffer.from(TRACE, 'hex'), spanId: Buffer.from(SPAN, 'hex'), name: 'ok', attributes: [{ key: 'neg', value: { intValue: -5 } }, { key: 'max', value: { intValue: '9223372036854775807' } }] },
      { traceId: Buffer.from('abcd', 'hex'), spanId: Buffer.from(SPAN, 'hex'), name: 'short' },
      { spanId: Buffer.from(SPAN, 'hex'), name: 'noTrace' },
    ]);
    const r = decodeTraceRequestProto(bytes);
    expect(r.spans.map((s) => s.name)).toEqual(['ok']);
    expect(r.spans[0]?.attributes).toEqual({ neg: -5, max: 9223372036854775807n });
    expect(r.rejected).toBe(2);
    expect(r.errors).toEqual(['resourceSpans[0].scopeSpans[0].spans[1]: traceId: expected 16 bytes, got 2', 'resourceSpans[0].scopeSpans[0].spans[2]: traceId: missing or all zeroes']);
  });

  it('rejects a too-deep span but keeps its neighbours', () => {
    const deep = encodeSpanWithRawAttributes({ traceId: Buffer.from(TRACE, 'hex'), spanId: Buffer.from(SPAN, 'hex'), name: 'deep' }, [{ key: 'd', value: deepAnyValueProto(20_000) }]);
    const limit = encodeSpanWithRawAttributes({ traceId: Buffer.from(TRACE, 'hex'), spanId: Buffer.from('1111111111111111', 'hex'), name: 'limit' }, [{ key: 'd', value: deepAnyValueProto(MAX_VALUE_DEPTH) }]);
    const r = decodeTraceRequestProto(Buffer.concat([deep, limit]));
    expect(r.spans.map((s) => s.name)).toEqual(['limit']);
    let v: unknown = r.spans[0]?.attributes.d;
    let depth = 0;
    while (Array.isArray(v)) {
      v = v[0];
      depth++;
    }
    expect([depth, v]).toEqual([MAX_VALUE_DEPTH, 'leaf']);
    expect(r.errors[0]).toMatch(/spans\[0\]: attribute value nested deeper than 64 levels/);
  });

  it('throws DecodeError with an offset for truncated payloads', () => {
    const bytes = encodeTraceRequest([{ traceId: Buffer.from(TRACE, 'hex'), spanId: Buffer.from(SPAN, 'hex'), name: 'x'.repeat(50) }]);
    for (const cut of [1, 5, 20, bytes.length - 1]) {
      expect(() => decodeTraceRequestProto(bytes.subarray(0, cut)), `cut ${cut}`).toThrow(DecodeError);
    }
    expect(() => decodeTraceRequestProto(bytes.subarray(0, bytes.length - 1))).toThrow(/^malformed protobuf ExportTraceServiceRequest: .* at byte offset \d+$/);
  });

  it('never throws anything but DecodeError on random bytes', () => {
    const next = prng(42);
    let failures = 0;
    for (let i = 0; i < 500; i++) {
      const buf = new Uint8Array(1 + (next() % 300)).map(() => next() & 0xff);
      try {
        decodeTraceRequestProto(buf);
        decodeLogsRequestProto(buf);
      } catch (err) {
        expect(err).toBeInstanceOf(DecodeError);
        failures++;
      }
    }
    expect(failures).toBeGreaterThan(400);
  });

  it('encodes response types from the descriptor', () => {
    const msg = otlp().types.ExportTraceServiceResponse.fromObject({ partialSuccess: { rejectedSpans: 2, errorMessage: 'x' } });
    const round = otlp().types.ExportTraceServiceResponse.decode(otlp().types.ExportTraceServiceResponse.encode(msg).finish());
    expect(otlp().types.ExportTraceServiceResponse.toObject(round, { longs: Number })).toEqual({ partialSuccess: { rejectedSpans: 2, errorMessage: 'x' } });
  });
});
