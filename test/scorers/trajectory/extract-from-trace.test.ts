/**
 * `extractTrajectoryFromTrace` beyond what the parity suite (test/mastra/parity/trajectory-from-trace.test.ts)
 * compares with Mastra: tracejudge's OTel spans are read by `trajectoryFromSpans`, times may be strings or epoch
 * milliseconds, and malformed records never make it throw. Expected values are derived by hand from the rules in
 * docs/mastra-compat.md, "extractTrajectoryFromTrace".
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { extractAgentRunContexts } from '../../../src/api/extract.js';
import { decodeTraceRequestJson } from '../../../src/ingest/otlp/decode.js';
import { TracejudgeError } from '../../../src/errors.js';
import { extractTrajectoryFromTrace, trajectoryFromSpans, type SpanRecord } from '../../../src/index.js';

const TRACES = fileURLToPath(new URL('../../fixtures/traces/', import.meta.url));
const T0 = Date.parse('2026-01-01T00:00:00.000Z');

describe('extractTrajectoryFromTrace on OTel spans', () => {
  for (const name of ['aisdk6-two-tools', 'aisdk6-nested-agents', 'openinference-nested-agents']) {
    it(`${name}: is trajectoryFromSpans, with and without a root span id`, () => {
      const text = readFileSync(join(TRACES, `${name}.json`), 'utf8');
      const spans = decodeTraceRequestJson(text).spans;
      const agentSpanId = extractAgentRunContexts(text)[0]?.span.spanId as string;
      const fromRoot = extractTrajectoryFromTrace(spans, agentSpanId);
      expect(fromRoot.steps.length).toBeGreaterThan(0);
      expect(fromRoot).toEqual(trajectoryFromSpans(spans, agentSpanId));
      expect(extractTrajectoryFromTrace(spans)).toEqual(trajectoryFromSpans(spans));
    });
  }
});

describe('extractTrajectoryFromTrace on span records', () => {
  const records = (time: (ms: number) => SpanRecord['startedAt']): SpanRecord[] => [
    { spanId: 'a', name: "agent run: 'x'", spanType: 'agent_run', entityId: 'x', startedAt: time(0), endedAt: time(100) },
    { spanId: 't2', parentSpanId: 'a', name: "tool: 'second'", spanType: 'tool_call', entityId: 'second', startedAt: time(50), endedAt: time(70) },
    { spanId: 't1', parentSpanId: 'a', name: "tool: 'first'", spanType: 'tool_call', entityId: 'first', startedAt: time(10), endedAt: time(15), input: { q: 1 } },
  ];
  const expected = {
    totalDurationMs: 100,
    steps: [
      { stepType: 'tool_call', name: 'first', durationMs: 5, toolArgs: { q: 1 } },
      { stepType: 'tool_call', name: 'second', durationMs: 20 },
    ],
  };

  it('reads Dates, ISO strings and epoch milliseconds alike', () => {
    expect(extractTrajectoryFromTrace(records((ms) => new Date(T0 + ms)))).toEqual(expected);
    expect(extractTrajectoryFromTrace(records((ms) => new Date(T0 + ms).toISOString()))).toEqual(expected);
    expect(extractTrajectoryFromTrace(records((ms) => T0 + ms))).toEqual(expected);
  });

  it('accepts records with the store’s other fields', () => {
    const withContext = records((ms) => new Date(T0 + ms)).map((r) => ({ ...r, traceId: 'tr', userId: 'u1', tags: ['prod'], createdAt: new Date(T0), isEvent: false }));
    expect(extractTrajectoryFromTrace(withContext)).toEqual(expected);
  });

  it('names what is wrong when the argument is not span records', () => {
    const call = (spans: unknown, root?: unknown) => () => extractTrajectoryFromTrace(spans as SpanRecord[], root as string);
    expect(call('not a list')).toThrow(/^extractTrajectoryFromTrace: spans must be an array of span records, got string "not a list"$/);
    // The likely mistake: the store's trace object instead of its spans.
    expect(call({ traceId: 't', spans: [] })).toThrow('got an object with keys ["traceId","spans"] (a trace object: pass its .spans)');
    expect(call([{ spanId: 'a', name: 'a', spanType: 'tool_call', startedAt: T0 }, null])).toThrow('spans[1] is not a span record (an object with a string spanId), got null');
    expect(call([{ name: 'no id' }])).toThrow('spans[0] is not a span record');
    expect(call([], 7)).toThrow('rootSpanId must be a string, got number 7');
    try {
      call(7)();
    } catch (err) {
      expect(err).toBeInstanceOf(TracejudgeError);
      expect((err as TracejudgeError).code).toBe('TJ_USAGE');
    }
    expect.assertions(7);
  });

  it('never throws on malformed fields of a record', () => {
    // A missing or unreadable start sorts after the others; an unreadable time gives no duration; a record without
    // a name is named by its id.
    const odd = [
      { spanId: 'a', name: 'a', spanType: 'agent_run', startedAt: new Date(T0), endedAt: new Date(T0 + 10) },
      { spanId: 'n', parentSpanId: 'a', name: 'no start', spanType: 'tool_call' },
      { spanId: 'b', parentSpanId: 'a', name: 'bad end', spanType: 'tool_call', startedAt: new Date(T0 + 5), endedAt: 'yesterday' },
      { spanId: 'c', parentSpanId: 'a', name: 'first', spanType: 'tool_call', startedAt: new Date(T0 + 1), endedAt: new Date(T0 + 2) },
      { spanId: 'anon', parentSpanId: 'a', spanType: 'agent_run', startedAt: new Date(T0 + 3) },
    ] as unknown as SpanRecord[];
    expect(extractTrajectoryFromTrace(odd)).toEqual({
      totalDurationMs: 10,
      steps: [
        { stepType: 'tool_call', name: 'first', durationMs: 1 },
        { stepType: 'agent_run', name: 'anon' },
        { stepType: 'tool_call', name: 'bad end' },
        { stepType: 'tool_call', name: 'no start' },
      ],
    });
  });

  it('leaves out spans only reachable through a cycle, and cuts a very deep chain', () => {
    const cycle: SpanRecord[] = [
      { spanId: 'r', name: 'root tool', spanType: 'tool_call', startedAt: T0, endedAt: T0 + 9 },
      { spanId: 'p', parentSpanId: 'q', name: 'p', spanType: 'tool_call', startedAt: T0 },
      { spanId: 'q', parentSpanId: 'p', name: 'q', spanType: 'tool_call', startedAt: T0 },
    ];
    expect(extractTrajectoryFromTrace(cycle)).toEqual({ totalDurationMs: 9, steps: [{ stepType: 'tool_call', name: 'root tool', durationMs: 9 }] });

    const chain: SpanRecord[] = Array.from({ length: 2000 }, (_, i) => ({ spanId: `s${i}`, parentSpanId: i === 0 ? null : `s${i - 1}`, name: `t${i}`, spanType: 'tool_call', startedAt: T0 + i }));
    let depth = 0;
    for (let steps = extractTrajectoryFromTrace(chain).steps; steps.length > 0; steps = steps[0]?.children ?? []) depth++;
    expect(depth).toBe(512);
  });
});
