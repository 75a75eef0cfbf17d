/**
 * Which write-ahead log records are still unsettled: sequence numbers are tracked in increasing order
 * (appends, and the records replayed at startup) and settled in any order. The low watermark is the
 * oldest unsettled record; the checkpoint also lists every unsettled record below `next`, so that records
 * settled above a watermark held back by one slow record (a trace waiting for its root up to
 * `maxTraceAgeMs`, a slow judge) are not replayed after a crash: only what settled since the last
 * checkpoint is, whatever the oldest record does.
 */

/** Inclusive ranges `[first, last]` of sequence numbers, in increasing order. */
export type SeqRanges = [number, number][];

/** At most this many unsettled ranges are saved; beyond it the last ones are merged (over-reporting unsettled records: more replay, never a loss). */
export const MAX_SAVED_RANGES = 10_000;

export class SettleTracker {
  /** Tracked sequence numbers in increasing order, from `head` on; settled ones are dropped from the front. */
  private pending: number[] = [];
  private head = 0;
  private readonly settledAhead = new Set<number>();

  /** Start tracking `seq` (greater than every sequence number tracked before). */
  track(seq: number): void {
    const last = this.pending[this.pending.length - 1];
    if (this.pending.length > this.head && last !== undefined && seq <= last) throw new Error(`write-ahead log: record ${seq} tracked out of order (after ${last})`);
    this.pending.push(seq);
  }

  /** Record `seq` as settled. Idempotent; an untracked number is ignored. */
  settle(seq: number): void {
    if (this.head >= this.pending.length || seq < (this.pending[this.head] as number)) return;
    if (seq === this.pending[this.head]) {
      this.head++;
      while (this.head < this.pending.length && this.settledAhead.delete(this.pending[this.head] as number)) this.head++;
      if (this.head === this.pending.length) {
        this.pending = [];
        this.head = 0;
      } else if (this.head > 1024 && this.head * 2 > this.pending.length) {
        this.pending = this.pending.slice(this.head);
        this.head = 0;
      }
      return;
    }
    if (this.tracked(seq)) this.settledAhead.add(seq);
  }

  /** Records tracked and not settled. */
  inFlight(): number {
    return this.pending.length - this.head - this.settledAhead.size;
  }

  /** The oldest unsettled record, or `next` when every tracked record settled. */
  lowWatermark(next: number): number {
    return this.head < this.pending.length ? (this.pending[this.head] as number) : next;
  }

  /** The unsettled records as ranges of consecutive tracked numbers (at most `maxRanges`, the last merged). */
  unsettledRanges(maxRanges = MAX_SAVED_RANGES): SeqRanges {
    const out: SeqRanges = [];
    let open: [number, number] | undefined;
    for (let i = this.head; i < this.pending.length; i++) {
      const seq = this.pending[i] as number;
      if (this.settledAhead.has(seq)) {
        open = undefined;
        continue;
      }
      if (open && seq === open[1] + 1) open[1] = seq;
      else {
        open = [seq, seq];
        out.push(open);
      }
    }
    if (out.length > maxRanges) {
      const last = out[out.length - 1] as [number, number];
      const merged = out.slice(0, maxRanges);
      (merged[maxRanges - 1] as [number, number])[1] = last[1];
      return merged;
    }
    return out;
  }

  private tracked(seq: number): boolean {
    // Binary search over the pending part (increasing).
    let lo = this.head;
    let hi = this.pending.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = this.pending[mid] as number;
      if (v === seq) return true;
      if (v < seq) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }
}

/** Whether `seq` is in one of `ranges` (sorted, inclusive). */
export function inRanges(ranges: SeqRanges, seq: number): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [a, b] = ranges[mid] as [number, number];
    if (seq < a) hi = mid - 1;
    else if (seq > b) lo = mid + 1;
    else return true;
  }
  return false;
}
