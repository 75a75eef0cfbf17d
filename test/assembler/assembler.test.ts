import { describe, expect, it } from 'vitest';
import { TraceAssembler, type AssemblyConfig } from '../../src/ingest/assembler.js';
import type { SpanBatch } from '../../src/ingest/sink.js';
import type { Span, Trace } from '../../src/model/span.js';
import { deferred, FakeClock, log, settle, span, T1, T2, T3, testMeter, type Deferred } from './helpers.js';

function setup(config: Partial<AssemblyConfig> = {}, handler?: (t: Trace) => Promise<void>) {
  const clock = new FakeClock();
  const meter = testMeter({ now: clock.now });
  const traces: Trace[] = [];
  const asm = new TraceAssembler({
    config: { decisionWaitMs: 5000, maxTraceAgeMs: 30_000, ...config },
    settings: meter.settings,
    onTrace: handler ?? ((t) => {
      traces.push(t);
      return Promise.resolve();
    }),
  });
  return { clock, traces, asm, meter };
}

function batch(spans: Span[], onSettled?: () => void, logs: SpanBatch['logs'] = []): SpanBatch {
  return { spans, logs, source: 'file', onSettled };
}

describe('TraceAssembler timing (fake clock)', () => {
  it('root last: decided decisionWaitMs after the last span, not before', async () => {
    const { clock, traces, asm, meter } = setup();
    expect(asm.offer(batch([span(T1, 'b', 'a')]))).toEqual({ accepted: true });
    clock.advance(100);
    asm.offer(batch([span(T1, 'c', 'a')]));
    clock.advance(100);
    asm.offer(batch([span(T1, 'a', '')]));
    clock.advance(4999);
    asm.tick();
    await settle();
    expect(traces).toHaveLength(0);
    expect(asm.bufferedTraces).toBe(1);
    clock.advance(1);
    asm.tick();
    await settle();
    expect(traces).toHaveLength(1);
    expect(traces[0]?.spans.map((s) => s.name)).toEqual(['span-b', 'span-c', 'span-a']);
    expect(asm.bufferedTraces).toBe(0);
    expect(await meter.sum('tracejudge.traces.assembled', { reason: 'complete', source: 'file' })).toBeGreaterThanOrEqual(1);
  });

  it('root first: a later child pushes the decision back', async () => {
    const { clock, traces, asm } = setup();
    asm.offer(batch([span(T1, 'a', '')]));
    clock.advance(1000);
    asm.offer(batch([span(T1, 'b', 'a')]));
    clock.advance(4000); // 5000 after the root, 4000 after the child
    asm.tick();
    await settle();
    expect(traces).toHaveLength(0);
    clock.advance(1000);
    asm.tick();
    await settle();
    expect(traces).toHaveLength(1);
    expect(traces[0]?.spans).toHaveLength(2);
  });

  it('missing root: decided at maxTraceAgeMs since the first span and counted', async () => {
    const { clock, traces, asm, meter } = setup();
    const before = await meter.sum('tracejudge.traces.assembled', { reason: 'missing_root' });
    asm.offer(batch([span(T1, 'b', 'a')]));
    clock.advance(29_000);
    asm.offer(batch([span(T1, 'c', 'a')]));
    clock.advance(999);
    asm.tick();
    await settle();
    expect(traces).toHaveLength(0);
    clock.advance(1);
    asm.tick();
    await settle();
    expect(traces).toHaveLength(1);
    expect(await meter.sum('tracejudge.traces.assembled', { reason: 'missing_root' })).toBe(before + 1);
  });

  it('a trace that keeps growing is decided at its age limit even with a root', async () => {
    const { clock, traces, asm } = setup({ maxTraceAgeMs: 10_000 });
    asm.offer(batch([span(T1, 'a', '')]));
    for (let i = 1; i <= 5; i++) {
      clock.advance(2000);
      asm.offer(batch([span(T1, i.toString(16), 'a')]));
      asm.tick();
    }
    await settle();
    expect(traces).toHaveLength(1);
    expect(traces[0]?.spans).toHaveLength(6); // root + 5 children: the one offered at 10 000 ms was in time
  });

  it('decides traces in deadline order across many traces', async () => {
    const { clock, traces, asm } = setup({ decisionWaitMs: 100 });
    const start = clock.t;
    const ids = Array.from({ length: 300 }, (_, i) => i.toString(16).padStart(32, '0'));
    // offered in a shuffled order, each at its own time start + i
    const order = ids.map((_, i) => (i * 7919) % 300);
    for (const i of order) {
      clock.t = start + i;
      asm.offer(batch([span(ids[i] as string, '1', '')]));
    }
    clock.t = start + 249; // deadlines start + i + 100: traces 0..149 are due
    asm.tick();
    await settle();
    expect(traces.map((t) => t.traceId)).toEqual(ids.slice(0, 150));
    expect(asm.bufferedTraces).toBe(150);
  });

  it('late span after the decision is counted, never crashes, and does not start a new trace', async () => {
    const { clock, traces, asm, meter } = setup();
    const before = await meter.sum('tracejudge.traces.dropped', { reason: 'late_span' });
    asm.offer(batch([span(T1, 'a', '')]));
    clock.advance(5000);
    asm.tick();
    await settle();
    expect(traces).toHaveLength(1);
    let settled = 0;
    expect(asm.offer(batch([span(T1, 'b', 'a'), span(T1, 'c', 'a')], () => settled++, [log(T1, 'b')]))).toEqual({ accepted: true });
    expect(asm.bufferedTraces).toBe(0);
    expect(asm.stats.lateSpans).toBe(2);
    expect(asm.stats.lateLogs).toBe(1);
    await settle();
    expect(settled).toBe(1); // nothing held for it: settled at once
    expect(await meter.sum('tracejudge.traces.dropped', { reason: 'late_span' })).toBe(before + 2);
  });

  it('joins log records to their trace by trace id', async () => {
    const { clock, traces, asm } = setup();
    asm.offer(batch([], undefined, [log(T1, 'a')])); // logs before the spans
    asm.offer(batch([span(T1, 'a', '')], undefined, [log(T1, 'a'), log('', 'a')]));
    clock.advance(5000);
    asm.tick();
    await settle();
    expect(traces[0]?.logs).toHaveLength(2);
    expect(asm.stats.orphanLogs).toBe(1);
  });
});

describe('TraceAssembler dedupe and bounds', () => {
  it('deduplicates spans by trace id + span id within and across batches', async () => {
    const { traces, asm } = setup();
    asm.offer(batch([span(T1, 'a', ''), span(T1, 'a', ''), span(T2, 'a', '')]));
    asm.offer(batch([span(T1, 'a', ''), span(T1, 'b', 'a')]));
    await asm.flush();
    const t1 = traces.find((t) => t.traceId === T1);
    expect(t1?.spans.map((s) => s.spanId)).toEqual(['000000000000000a', '000000000000000b']);
    expect(traces.find((t) => t.traceId === T2)?.spans).toHaveLength(1);
    expect(asm.stats.duplicateSpans).toBe(2);
  });

  it('refuses a batch that needs a new trace beyond maxBufferedTraces, keeps feeding existing ones, accepts after drain', async () => {
    const { clock, asm, traces } = setup({ maxBufferedTraces: 2 });
    asm.offer(batch([span(T1, 'a', '')]));
    asm.offer(batch([span(T2, 'a', '')]));
    const refused = asm.offer(batch([span(T1, 'b', 'a'), span(T3, 'a', '')]));
    expect(refused).toMatchObject({ accepted: false, reason: 'buffer_full' });
    if (!refused.accepted) expect(refused.retryAfterMs).toBeGreaterThanOrEqual(1000);
    expect(asm.stats.spansAccepted).toBe(2); // nothing of the refused batch was taken
    expect(asm.offer(batch([span(T1, 'b', 'a')]))).toEqual({ accepted: true });
    clock.advance(5000);
    asm.tick();
    await settle();
    expect(traces).toHaveLength(2);
    expect(asm.offer(batch([span(T3, 'a', '')]))).toEqual({ accepted: true });
  });

  it('refuses at maxBufferedBytes, but always accepts into an empty buffer', () => {
    const { asm } = setup({ maxBufferedBytes: 600 });
    expect(asm.offer(batch([span(T1, 'a', ''), span(T1, 'b', 'a')])).accepted).toBe(true); // empty buffer
    expect(asm.bufferedBytes).toBeGreaterThan(600);
    expect(asm.offer(batch([span(T1, 'c', 'a')]))).toMatchObject({ accepted: false, reason: 'buffer_full' });
  });

  it('drops and counts spans beyond maxSpansPerTrace', async () => {
    const { asm, traces, meter } = setup({ maxSpansPerTrace: 3 });
    const before = await meter.sum('tracejudge.traces.dropped', { reason: 'too_many_spans' });
    asm.offer(batch([span(T1, '1', ''), span(T1, '2', '1')]));
    expect(asm.offer(batch([span(T1, '3', '1'), span(T1, '4', '1'), span(T1, '5', '1')])).accepted).toBe(true);
    await asm.flush();
    expect(traces[0]?.spans).toHaveLength(3);
    expect(asm.stats.tooManySpans).toBe(2);
    expect(await meter.sum('tracejudge.traces.dropped', { reason: 'too_many_spans' })).toBe(before + 2);
  });

  it('refuses while the handler queue is full (back-pressure reaches the sources)', async () => {
    const gates: Deferred[] = [];
    const { clock, asm } = setup({ maxInFlightTraces: 1, maxQueuedTraces: 1, decisionWaitMs: 0 }, () => {
      const d = deferred();
      gates.push(d);
      return d.promise;
    });
    asm.offer(batch([span(T1, 'a', '')]));
    asm.offer(batch([span(T2, 'a', '')]));
    clock.advance(1);
    asm.tick();
    expect(asm.inFlightTraces).toBe(1);
    expect(asm.queuedTraces).toBe(1);
    expect(asm.offer(batch([span(T3, 'a', '')]))).toMatchObject({ accepted: false, reason: 'buffer_full' });
    gates[0]?.resolve();
    await settle();
    expect(asm.inFlightTraces).toBe(1);
    expect(asm.queuedTraces).toBe(0);
    expect(asm.offer(batch([span(T3, 'a', '')]))).toEqual({ accepted: true });
    gates[1]?.resolve();
    const flushed = asm.flush();
    await settle();
    gates[2]?.resolve();
    await flushed;
    expect(gates).toHaveLength(3);
  });

  it('evict mode drops the oldest trace, counts it, and settles its batch', async () => {
    const { asm, traces, meter } = setup({ maxBufferedTraces: 2, overflow: 'evict' });
    const before = await meter.sum('tracejudge.traces.dropped', { reason: 'evicted' });
    const settled: string[] = [];
    asm.offer(batch([span(T1, 'a', '')], () => settled.push('b1')));
    asm.offer(batch([span(T2, 'a', '')], () => settled.push('b2')));
    expect(asm.offer(batch([span(T3, 'a', '')], () => settled.push('b3')))).toEqual({ accepted: true });
    expect(settled).toEqual(['b1']);
    expect(asm.stats.tracesEvicted).toBe(1);
    expect(await meter.sum('tracejudge.traces.dropped', { reason: 'evicted' })).toBe(before + 1);
    asm.offer(batch([span(T1, 'b', 'a')])); // its trace was evicted: a late span now
    expect(asm.stats.lateSpans).toBe(1);
    await asm.flush();
    expect(traces.map((t) => t.traceId).sort()).toEqual([T2, T3]);
    expect(settled.sort()).toEqual(['b1', 'b2', 'b3']);
  });

  it('refuses with shutting_down after close()', async () => {
    const { asm, traces } = setup();
    asm.offer(batch([span(T1, 'a', '')]));
    await asm.close();
    expect(traces).toHaveLength(1);
    expect(asm.offer(batch([span(T2, 'a', '')]))).toMatchObject({ accepted: false, reason: 'shutting_down' });
  });
});

describe('TraceAssembler onSettled and handler failures', () => {
  it('ref-counts onSettled: two batches feeding one trace, one batch feeding two traces', async () => {
    const gates = new Map<string, Deferred>();
    const { asm } = setup({}, (t) => {
      const d = deferred();
      gates.set(t.traceId, d);
      return d.promise;
    });
    const settled: string[] = [];
    asm.offer(batch([span(T1, 'a', '')], () => settled.push('A'))); // feeds T1
    asm.offer(batch([span(T1, 'b', 'a'), span(T2, 'a', '')], () => settled.push('B'))); // feeds T1 and T2
    asm.offer(batch([span(T2, 'b', 'a'), span(T2, 'c', 'a')], () => settled.push('C'))); // feeds T2 only
    const flushed = asm.flush();
    await settle();
    expect(gates.size).toBe(2);
    expect(settled).toEqual([]);
    gates.get(T2)?.resolve();
    await settle();
    expect(settled).toEqual(['C']); // B still waits for T1
    gates.get(T1)?.resolve();
    await flushed;
    expect(settled.sort()).toEqual(['A', 'B', 'C']);
    expect(settled.filter((s) => s === 'B')).toHaveLength(1);
  });

  it('a rejecting or throwing handler is logged and counted, settles its batches, and later traces still flow', async () => {
    let calls = 0;
    const { asm, meter } = setup({}, (t) => {
      calls++;
      if (t.traceId === T1) return Promise.reject(new Error('judge exploded'));
      if (t.traceId === T2) throw new Error('sync throw');
      return Promise.resolve();
    });
    const before = await meter.sum('tracejudge.traces.dropped', { reason: 'handler_error' });
    const settled: string[] = [];
    asm.offer(batch([span(T1, 'a', '')], () => settled.push('1')));
    asm.offer(batch([span(T2, 'a', '')], () => settled.push('2')));
    asm.offer(batch([span(T3, 'a', '')], () => settled.push('3')));
    await asm.flush();
    expect(calls).toBe(3);
    expect(asm.stats.handlerErrors).toBe(2);
    expect(settled.sort()).toEqual(['1', '2', '3']);
    expect(asm.inFlightTraces).toBe(0);
    expect(asm.bufferedBytes).toBe(0);
    expect(await meter.sum('tracejudge.traces.dropped', { reason: 'handler_error' })).toBe(before + 2);
  });

  it('flush() with nothing buffered resolves at once; start()/stop() tick on one interval', async () => {
    const { asm, traces } = setup({ decisionWaitMs: 0 });
    await asm.flush();
    const real = new TraceAssembler({ config: { decisionWaitMs: 0 }, onTrace: (t) => (traces.push(t), Promise.resolve()) });
    real.startTicking(5);
    real.offer(batch([span(T1, 'a', '')]));
    for (let i = 0; i < 200 && traces.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    real.stop();
    expect(traces).toHaveLength(1);
  });
});

describe('TraceAssembler.pressure (the receivers ask it before decoding)', () => {
  it('is clear while a batch could fit, refuses at the byte bound, and says shutting_down after close', async () => {
    const { asm } = setup({ maxBufferedBytes: 1 });
    expect(asm.pressure()).toBeUndefined(); // empty: the first batch always gets in
    expect(asm.offer(batch([span(T1, 'a', '')]))).toEqual({ accepted: true });
    expect(asm.pressure()).toMatchObject({ accepted: false, reason: 'buffer_full' });
    await asm.close();
    expect(asm.pressure()).toMatchObject({ accepted: false, reason: 'shutting_down' });
  });

  it('does not refuse at the trace bound: spans of held traces (their roots) must still get in', () => {
    const { asm } = setup({ maxBufferedTraces: 1 });
    asm.offer(batch([span(T1, 'b', 'a')]));
    expect(asm.pressure()).toBeUndefined();
    expect(asm.offer(batch([span(T2, 'x', '')]))).toMatchObject({ accepted: false });
    expect(asm.offer(batch([span(T1, 'a', '')]))).toEqual({ accepted: true });
  });
});

describe('TraceAssembler held-trace bookkeeping', () => {
  it('deduplicates in traces past the scanning size, and keeps every span id and parent id as sent', async () => {
    const { traces, asm } = setup();
    const ids = Array.from({ length: 40 }, (_, i) => (i + 1).toString(16));
    // Children first (as batch span processors export them), then the root; every span twice.
    asm.offer(batch(ids.slice(1).map((id) => span(T1, id, '1'))));
    asm.offer(batch([span(T1, '1', ''), ...ids.map((id) => span(T1, id, id === '1' ? '' : '1'))]));
    await asm.flush();
    expect(traces).toHaveLength(1);
    const got = traces[0]?.spans ?? [];
    expect(got).toHaveLength(40);
    expect(asm.stats.duplicateSpans).toBe(40);
    expect(new Set(got.map((s) => s.spanId)).size).toBe(40);
    for (const s of got) expect(s.parentSpanId).toBe(s.spanId === '0000000000000001' ? '' : '0000000000000001');
  });

  it('settles each batch once when a trace is fed by many batches, including the same batch twice', async () => {
    const { asm } = setup();
    const settled = { first: 0, second: 0, third: 0 };
    asm.offer(batch([span(T1, 'b', 'a'), span(T1, 'c', 'a')], () => settled.first++));
    asm.offer(batch([span(T1, 'd', 'a')], () => settled.second++));
    asm.offer(batch([span(T1, 'a', ''), span(T2, 'a', '')], () => settled.third++));
    await asm.flush();
    expect(settled).toEqual({ first: 1, second: 1, third: 1 });
  });
});
