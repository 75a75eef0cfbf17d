import { describe, expect, it } from 'vitest';
import { decodeTraceRequestProto } from '../../src/ingest/otlp/decode.js';
import { AISDK6_FIXTURES, collectorMessages, encodeSpans, fixtureSpans, fixtureTrace, splitTrace } from './collector-messages.js';

/** Strip the shared resource/scope objects to plain data for comparison. */
const plain = (spans: readonly unknown[]): unknown => JSON.parse(JSON.stringify(spans, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v instanceof Uint8Array ? [...v] : v)));

describe('Collector-style Kafka messages from the real AI SDK fixtures', () => {
  it.each(AISDK6_FIXTURES)('%s: protobuf re-encoding keeps every span field and attribute', (name) => {
    const spans = fixtureSpans(name);
    const decoded = decodeTraceRequestProto(encodeSpans(spans));
    expect(decoded.rejected).toBe(0);
    expect(plain(decoded.spans)).toEqual(plain(spans));
  });

  it('keys each message by the trace id and splits a trace with its root in the last message', () => {
    const trace = fixtureTrace('aisdk6-two-tools', 'ab'.repeat(16));
    const parts = splitTrace(trace, 3);
    expect(parts.flat()).toHaveLength(trace.spans.length);
    expect(parts[2]?.some((s) => s.parentSpanId === '')).toBe(true);
    expect(parts.slice(0, 2).flat().some((s) => s.parentSpanId === '')).toBe(false);
    const messages = collectorMessages([trace], 3);
    expect(messages.map((m) => m.key)).toEqual([trace.traceId, trace.traceId, trace.traceId]);
    const back = messages.flatMap((m) => decodeTraceRequestProto(m.value).spans);
    expect(new Set(back.map((s) => s.spanId))).toEqual(new Set(trace.spans.map((s) => s.spanId)));
    expect(back.every((s) => s.traceId === trace.traceId)).toBe(true);
  });
});
