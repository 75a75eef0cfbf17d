import { describe, expect, it } from 'vitest';
import { OffsetTracker } from '../../src/ingest/kafka/offset-tracker.js';

describe('OffsetTracker', () => {
  it('commits only up to the oldest unsettled message', () => {
    const t = new OffsetTracker();
    const a = t.track(0, 10n);
    const b = t.track(0, 11n);
    const c = t.track(0, 12n);
    expect(t.committable(0)).toBe(10n); // nothing settled: the watermark is the first pending offset
    t.markCommitted(0, 10n);
    expect(t.committable(0)).toBeUndefined();
    t.settle(b);
    expect(t.committable(0)).toBeUndefined(); // 10 still pending
    t.settle(a);
    expect(t.committable(0)).toBe(12n);
    t.settle(c);
    expect(t.committable(0)).toBe(13n);
    expect(t.inFlight()).toBe(0);
  });

  it('keeps partitions apart', () => {
    const t = new OffsetTracker();
    const a = t.track(0, 5n);
    t.track(1, 7n);
    t.settle(a);
    expect(t.committable(0)).toBe(6n);
    expect(t.committable(1)).toBe(7n);
  });

  it('ignores settles from before a reset (rebalance) and untracks refused messages', () => {
    const t = new OffsetTracker();
    const old = t.track(2, 100n);
    t.reset(2);
    t.settle(old);
    expect(t.committable(2)).toBeUndefined();
    const fresh = t.track(2, 100n);
    const refused = t.track(2, 101n);
    t.untrack(refused);
    t.settle(fresh);
    expect(t.committable(2)).toBe(101n);
    expect(t.inFlight()).toBe(0);
  });

  it('settling twice is harmless', () => {
    const t = new OffsetTracker();
    const a = t.track(0, 1n);
    t.settle(a);
    t.settle(a);
    expect(t.committable(0)).toBe(2n);
    expect(t.inFlight()).toBe(0);
  });

  it('knows which offsets this generation already holds (re-fetched after a rebalance), and forgets them on reset', () => {
    const t = new OffsetTracker();
    t.track(3, 5n);
    const h = t.track(3, 6n);
    expect([t.seen(3, 4n), t.seen(3, 5n), t.seen(3, 6n), t.seen(3, 7n), t.seen(2, 5n)]).toEqual([true, true, true, false, false]);
    t.untrack(h); // refused: it must be offered again
    expect(t.seen(3, 6n)).toBe(false);
    t.reset(3);
    expect(t.seen(3, 5n)).toBe(false);
  });
});
