/**
 * The assembler's bounds hold within a single batch (issue #16, F4): a batch over `maxBufferedTraces` or
 * `maxBufferedBytes` on its own is never taken whole, not even into an empty assembler; the traces that fit
 * go in and the rest are rejected with a message naming the bound. And a burst of decided traces whose
 * handlers finish at once is started a slice per turn of the event loop, not all in one.
 */
import { describe, expect, it } from 'vitest';
import { TraceAssembler, type AssemblyConfig } from '../../src/ingest/assembler.js';
import type { SpanBatch } from '../../src/ingest/sink.js';
import type { Span, Trace } from '../../src/model/span.js';
import { FakeClock, settle, span, testMeter } from './helpers.js';

function setup(config: Partial<AssemblyConfig> = {}, onTrace?: (t: Trace) => Promise<void>) {
  const clock = new FakeClock();
  const meter = testMeter({ now: clock.now });
  const traces: Trace[] = [];
  const asm = new TraceAssembler({
    config: { decisionWaitMs: 5000, maxTraceAgeMs: 30_000, ...config },
    settings: meter.settings,
    onTrace: onTrace ?? ((t) => {
      traces.push(t);
      return Promise.resolve();
    }),
  });
  return { clock, traces, asm, meter };
}

const traceId = (i: number): string => i.toString(16).padStart(32, '0');

/** `n` single-span traces (roots), trace ids from `from`. */
function roots(n: number, from = 1): Span[] {
  return Array.from({ length: n }, (_, i) => span(traceId(from + i), '1', ''));
}

function batch(spans: Span[], extra: Partial<SpanBatch> = {}): SpanBatch {
  return { spans, logs: [], source: 'otlp', ...extra };
}

describe('TraceAssembler bounds within one batch', () => {
  it('takes the traces that fit maxBufferedTraces from a batch over it, even into an empty assembler, and rejects the rest naming the bound', async () => {
    const { asm, meter } = setup({ maxBufferedTraces: 100 });
    const settled: string[] = [];
    const result = asm.offer(batch(roots(1000), { onSettled: () => settled.push('big') }));
    expect(result.accepted).toBe(true);
    if (!result.accepted) return;
    expect(result.partial).toMatchObject({ rejectedSpans: 900, rejectedLogs: 0 });
    expect(result.partial?.message).toMatch(/900 of the request's 1000 traces did not fit assembly\.maxBufferedTraces \(100 traces\)/);
    expect(asm.bufferedTraces).toBe(100);
    expect(asm.stats.tracesOverBounds).toBe(900);
    expect(await meter.sum('tracejudge.traces.dropped', { reason: 'over_bounds' })).toBe(900);
    // The batch settles once the traces it fed are handled (the rejected ones hold nothing).
    await asm.flush();
    expect(settled).toEqual(['big']);
  });

  it('fills only the room that is left, and refuses (retry later) when there is none', () => {
    const { asm } = setup({ maxBufferedTraces: 100 });
    expect(asm.offer(batch(roots(60)))).toEqual({ accepted: true });
    const over = asm.offer(batch(roots(150, 1000)));
    expect(over).toMatchObject({ accepted: true, partial: { rejectedSpans: 110 } });
    expect(asm.bufferedTraces).toBe(100);
    // Full: nothing of an oversized batch fits now, so it is refused rather than rejected for good.
    expect(asm.offer(batch(roots(150, 5000)))).toMatchObject({ accepted: false, reason: 'buffer_full' });
    // A batch that would fit an empty assembler is refused whole, as before: the source retries it.
    expect(asm.offer(batch(roots(50, 9000)))).toMatchObject({ accepted: false, reason: 'buffer_full' });
  });

  it('applies maxBufferedBytes the same way, keeping whole traces, and spans of held traces still get in', () => {
    const { asm } = setup({ maxBufferedBytes: 20_000 });
    const before = asm.offer(batch([span(traceId(1), 'a', '')]));
    expect(before).toEqual({ accepted: true });
    const perSpan = asm.bufferedBytes;
    // 200 traces of 2 spans (each about `perSpan` bytes): far past 20 kB.
    const spans = Array.from({ length: 200 }, (_, i) => [span(traceId(100 + i), 'r', ''), span(traceId(100 + i), 'c', 'r')]).flat();
    const result = asm.offer(batch([span(traceId(1), 'b', 'a'), ...spans]));
    expect(result.accepted).toBe(true);
    if (!result.accepted) return;
    expect(result.partial?.message).toMatch(/assembly\.maxBufferedBytes \(20000 estimated bytes\)/);
    expect(asm.bufferedBytes).toBeLessThanOrEqual(20_000);
    const kept = 401 - (result.partial?.rejectedSpans ?? 0);
    // The held trace's span went in, and the others by whole traces (an even number of spans).
    expect((kept - 1) % 2).toBe(0);
    expect(kept).toBeGreaterThan(1);
    expect(asm.stats.spansAccepted).toBe(1 + kept);
    expect(perSpan).toBeGreaterThan(0);
  });

  it('takes a part of a batch marked takePartial instead of refusing it', () => {
    const { asm } = setup({ maxBufferedTraces: 100 });
    asm.offer(batch(roots(90)));
    // 20 traces would fit an empty assembler (so are refused whole) unless the source takes a part.
    expect(asm.offer(batch(roots(20, 500)))).toMatchObject({ accepted: false });
    expect(asm.offer(batch(roots(20, 500), { takePartial: true }))).toMatchObject({ accepted: true, partial: { rejectedSpans: 10 } });
    expect(asm.bufferedTraces).toBe(100);
  });

  it('evict mode: evicts the held traces, then still takes no more of an oversized batch than the bound', () => {
    const { asm } = setup({ maxBufferedTraces: 100, overflow: 'evict' });
    asm.offer(batch(roots(50)));
    const result = asm.offer(batch(roots(300, 1000)));
    expect(result).toMatchObject({ accepted: true, partial: { rejectedSpans: 200 } });
    expect(asm.bufferedTraces).toBe(100);
    expect(asm.stats.tracesEvicted).toBe(50);
  });

  it('into an empty assembler, a single trace over the byte bound still goes in (a source never stalls on it)', () => {
    const { asm } = setup({ maxBufferedBytes: 100 });
    expect(asm.offer(batch([span(traceId(1), 'a', ''), span(traceId(1), 'b', 'a')]))).toEqual({ accepted: true });
    expect(asm.bufferedTraces).toBe(1);
    // But never a second trace with it.
    expect(asm.offer(batch(roots(2, 10)))).toMatchObject({ accepted: false });
  });
});

describe('TraceAssembler handler pacing', () => {
  it('starts at most 256 handlers per turn of the event loop; the rest follow on the next turns', async () => {
    let started = 0;
    const { clock, asm } = setup({ maxBufferedTraces: 2000, maxInFlightTraces: 10_000, maxQueuedTraces: 10_000, decisionWaitMs: 0 }, () => {
      started++;
      return Promise.resolve();
    });
    asm.offer(batch(roots(1000)));
    clock.advance(1);
    asm.tick();
    expect(started).toBe(256);
    expect(asm.queuedTraces).toBe(1000 - 256);
    await settle();
    await asm.flush();
    expect(started).toBe(1000);
    expect(asm.unfinishedTraces).toBe(0);
  });
});
