/**
 * Low-watermark offset tracking for at-least-once Kafka consumption.
 *
 * Every message handed to the assembler is tracked until its `onSettled` fires (all traces it fed were
 * scored and emitted, or deliberately skipped). The committable offset of a partition is the offset of
 * its oldest unsettled message (or one past the newest tracked message when all are settled): committing
 * it never skips work that is still in flight.
 */

interface PartitionState {
  /** Bumped when the partition is reassigned; settles from an older generation are ignored. */
  generation: number;
  /** Tracked offsets in arrival order (increasing). */
  pending: bigint[];
  settled: Set<bigint>;
  /** One past the highest offset ever tracked, or undefined when nothing was tracked. */
  next: bigint | undefined;
  /** The last offset committed (the "next offset to read" convention of Kafka), if any. */
  committed: bigint | undefined;
}

export interface TrackHandle {
  partition: number;
  offset: bigint;
  generation: number;
}

export class OffsetTracker {
  private readonly partitions = new Map<number, PartitionState>();

  private state(partition: number): PartitionState {
    let s = this.partitions.get(partition);
    if (!s) {
      s = { generation: 0, pending: [], settled: new Set(), next: undefined, committed: undefined };
      this.partitions.set(partition, s);
    }
    return s;
  }

  /** Start tracking a message. Offsets of one partition must be tracked in increasing order. */
  track(partition: number, offset: bigint): TrackHandle {
    const s = this.state(partition);
    s.pending.push(offset);
    if (s.next === undefined || offset + 1n > s.next) s.next = offset + 1n;
    return { partition, offset, generation: s.generation };
  }

  /** Stop tracking a message that was refused (it will be fetched again). Only the newest may be untracked. */
  untrack(handle: TrackHandle): void {
    const s = this.partitions.get(handle.partition);
    if (!s || s.generation !== handle.generation) return;
    const last = s.pending[s.pending.length - 1];
    if (last === handle.offset) {
      s.pending.pop();
      s.next = handle.offset;
    }
  }

  /**
   * Whether `offset` was already tracked in the current generation (it is in flight or settled here).
   * After a rebalance that leaves a partition with this member, kafkajs re-fetches from the committed
   * offset; those re-read messages are already in this process and must not be offered twice.
   */
  seen(partition: number, offset: bigint): boolean {
    const s = this.partitions.get(partition);
    return s?.next !== undefined && offset < s.next;
  }

  /** Mark a tracked message as fully handled. Idempotent; stale handles are ignored. */
  settle(handle: TrackHandle): void {
    const s = this.partitions.get(handle.partition);
    if (!s || s.generation !== handle.generation) return;
    const oldest = s.pending[0];
    // Offsets below the oldest pending one were settled and dropped already.
    if (oldest === undefined || handle.offset < oldest) return;
    s.settled.add(handle.offset);
    // Drop the settled prefix so memory stays proportional to in-flight work.
    let i = 0;
    while (i < s.pending.length && s.settled.has(s.pending[i] as bigint)) {
      s.settled.delete(s.pending[i] as bigint);
      i++;
    }
    if (i > 0) s.pending.splice(0, i);
  }

  /** The offset to commit for a partition (next offset to read), or undefined if nothing new is committable. */
  committable(partition: number): bigint | undefined {
    const s = this.partitions.get(partition);
    if (!s || s.next === undefined) return undefined;
    const watermark = s.pending.length > 0 ? (s.pending[0] as bigint) : s.next;
    if (s.committed !== undefined && watermark <= s.committed) return undefined;
    return watermark;
  }

  /** Record that `offset` was committed for `partition`. */
  markCommitted(partition: number, offset: bigint): void {
    const s = this.state(partition);
    if (s.committed === undefined || offset > s.committed) s.committed = offset;
  }

  /**
   * Forget a partition's in-flight state (revoked, or re-fetched from its committed offset after a
   * rebalance). Settles of messages tracked before this are ignored from now on.
   */
  reset(partition: number): void {
    const s = this.partitions.get(partition);
    if (!s) return;
    this.partitions.set(partition, {
      generation: s.generation + 1,
      pending: [],
      settled: new Set(),
      next: undefined,
      committed: undefined,
    });
  }

  /** Partitions with state. */
  known(): number[] {
    return [...this.partitions.keys()];
  }

  /** Messages tracked and not yet settled, over all partitions. */
  inFlight(): number {
    let n = 0;
    for (const s of this.partitions.values()) n += s.pending.length - s.settled.size;
    return n;
  }
}
