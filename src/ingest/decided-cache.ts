/**
 * A bounded set of recently decided trace ids (least recently added evicted first), so that spans
 * arriving after their trace was decided are recognised and counted as late instead of starting a
 * new partial trace.
 */
export class DecidedCache {
  private readonly ids = new Map<string, true>();

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.ids.size;
  }

  has(traceId: string): boolean {
    return this.ids.has(traceId);
  }

  add(traceId: string): void {
    if (this.capacity <= 0) return;
    this.ids.delete(traceId);
    this.ids.set(traceId, true);
    if (this.ids.size > this.capacity) {
      const oldest = this.ids.keys().next();
      if (!oldest.done) this.ids.delete(oldest.value);
    }
  }
}
