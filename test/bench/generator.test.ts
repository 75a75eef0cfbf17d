import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  batchRequests,
  encodeJson,
  encodeProto,
  isToolSpan,
  replicaTraceId,
  replicateJson,
  replicateProto,
  spanCountOf,
  SYSTEM_PROMPT,
  TraceGenerator,
  type GeneratedTrace,
  type JsonSpan,
} from '../../bench/generator.js';
import { decodeTraceRequestJson, decodeTraceRequestProto } from '../../src/ingest/otlp/decode.js';

function spansOf(t: GeneratedTrace): JsonSpan[] {
  return t.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans));
}

describe('bench trace generator', () => {
  it('is deterministic for a seed and differs across seeds', () => {
    const a = batchRequests(new TraceGenerator({ seed: 11 }).take(30), 100).map(encodeJson);
    const b = batchRequests(new TraceGenerator({ seed: 11 }).take(30), 100).map(encodeJson);
    const c = batchRequests(new TraceGenerator({ seed: 12 }).take(30), 100).map(encodeJson);
    expect(Buffer.concat(a).equals(Buffer.concat(b))).toBe(true);
    expect(Buffer.concat(a).equals(Buffer.concat(c))).toBe(false);
  });

  it('gives every trace fresh unique ids whose parents resolve, and exactly one root', () => {
    const traces = new TraceGenerator({ seed: 5 }).take(60);
    expect(new Set(traces.map((t) => t.traceId)).size).toBe(60);
    const allSpanIds = new Set<string>();
    for (const t of traces) {
      const spans = spansOf(t);
      expect(spans).toHaveLength(t.spanCount);
      const ids = new Set(spans.map((s) => s.spanId));
      expect(ids.size).toBe(spans.length);
      for (const s of spans) {
        expect(s.traceId).toBe(t.traceId);
        expect(s.spanId).toMatch(/^[0-9a-f]{16}$/);
        if (s.parentSpanId) expect(ids.has(s.parentSpanId)).toBe(true);
        allSpanIds.add(s.spanId);
      }
      expect(spans.filter((s) => !s.parentSpanId)).toHaveLength(1);
    }
    expect(allSpanIds.size).toBe(traces.reduce((n, t) => n + t.spanCount, 0));
  });

  it('encodes protobuf and JSON bodies that decode to the same spans', () => {
    const requests = batchRequests(new TraceGenerator({ seed: 9, messageSize: 'llm', runsPerTrace: 2 }).take(20), 64);
    expect(requests.length).toBeGreaterThan(1);
    for (const r of requests) {
      const fromJson = decodeTraceRequestJson(encodeJson(r));
      const fromProto = decodeTraceRequestProto(encodeProto(r));
      expect(fromJson.rejected).toBe(0);
      expect(fromProto.rejected).toBe(0);
      expect(fromJson.spans).toHaveLength(spanCountOf(r));
      expect(isDeepStrictEqual(fromJson.spans, fromProto.spans)).toBe(true);
    }
  });

  it('honours the convention mix, tool calls per run and runs per trace', () => {
    const only = new TraceGenerator({ seed: 2, mix: { openinference: 1 } }).take(10);
    expect(only.every((t) => t.conventions.every((c) => c === 'openinference'))).toBe(true);

    const base = new TraceGenerator({ seed: 4, mix: { aisdk6: 1 } }).take(10);
    const more = new TraceGenerator({ seed: 4, mix: { aisdk6: 1 }, toolCallsPerRun: 6 }).take(10);
    for (const t of more) {
      const spans = spansOf(t);
      const parents = new Set(spans.map((s) => s.parentSpanId));
      expect(spans.filter((s) => isToolSpan(s) && !parents.has(s.spanId)).length).toBeGreaterThanOrEqual(6);
    }
    expect(more.reduce((n, t) => n + t.spanCount, 0)).toBeGreaterThan(base.reduce((n, t) => n + t.spanCount, 0));

    const multi = new TraceGenerator({ seed: 6, runsPerTrace: 3 }).take(5);
    for (const t of multi) {
      expect(t.conventions).toHaveLength(3);
      const roots = spansOf(t).filter((s) => !s.parentSpanId);
      expect(roots.map((s) => s.name)).toEqual(['handle-request']);
    }
  });

  it('pads LLM message text without breaking JSON carried inside attributes', () => {
    const small = new TraceGenerator({ seed: 8, mix: { aisdk6: 1 } }).take(5);
    const llm = new TraceGenerator({ seed: 8, mix: { aisdk6: 1 }, messageSize: 'llm' }).take(5);
    const bytes = (ts: GeneratedTrace[]): number => encodeJson({ resourceSpans: ts.flatMap((t) => t.resourceSpans) }).length;
    expect(bytes(llm) - bytes(small)).toBeGreaterThan(5 * 2500);
    // Padding goes after the support agent's SYSTEM_PROMPT (bench/generator/transform.ts); a template with its own
    // prompt (the ticket classifier of aisdk6-two-runs-one-trace) carries no padding and keeps valid JSON too.
    let padded = 0;
    for (const t of llm) {
      for (const s of spansOf(t)) {
        const messages = s.attributes?.find((a) => a.key === 'ai.prompt.messages')?.value?.stringValue;
        if (messages === undefined) continue;
        const system = (JSON.parse(messages) as { role: string; content: unknown }[]).find((m) => m.role === 'system');
        expect(typeof system?.content).toBe('string');
        const text = system?.content as string;
        if (text.startsWith(SYSTEM_PROMPT)) {
          expect(text.length).toBeGreaterThan(2000);
          padded++;
        } else expect(text.length).toBeLessThan(200);
      }
    }
    expect(padded).toBeGreaterThanOrEqual(5);
  });
});

describe('request replicas', () => {
  it('re-ids every span of the listed traces, in protobuf and JSON alike, and nothing else', () => {
    const traces = new TraceGenerator({ seed: 21 }).take(8);
    const [request] = batchRequests(traces, 10_000);
    if (!request) throw new Error('no request');
    const ids = traces.map((t) => t.traceId);
    const original = decodeTraceRequestProto(encodeProto(request)).spans;
    for (const r of [0, 1, 0xfffffffe]) {
      const fromProto = decodeTraceRequestProto(replicateProto(encodeProto(request), ids, r)).spans;
      const fromJson = decodeTraceRequestJson(replicateJson(encodeJson(request), ids, r)).spans;
      expect(fromProto).toHaveLength(original.length);
      expect(isDeepStrictEqual(fromProto, fromJson)).toBe(true);
      fromProto.forEach((s, i) => {
        const o = original[i];
        expect(s.traceId).toBe(replicaTraceId(o?.traceId ?? '', r));
        expect({ ...s, traceId: '' }).toEqual({ ...o, traceId: '' });
      });
    }
    expect(new Set([1, 2, 3].map((r) => replicaTraceId(ids[0] ?? '', r))).size).toBe(3);
  });
});
