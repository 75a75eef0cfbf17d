/**
 * An indexed binary min-heap keyed by `deadline` (ms). Each item remembers its own position, so a
 * deadline can move earlier or later, or the item be removed, in O(log n) without scanning.
 */

/** What the heap stores: anything with a deadline and a slot for its heap position (-1 when absent). */
export interface HeapItem {
  deadline: number;
  heapIndex: number;
}

export class DeadlineHeap<T extends HeapItem> {
  private readonly items: T[] = [];

  get size(): number {
    return this.items.length;
  }

  /** The item with the earliest deadline, without removing it. */
  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    item.heapIndex = this.items.length;
    this.items.push(item);
    this.up(item.heapIndex);
  }

  /** Restore order after `item.deadline` changed (either direction). */
  update(item: T): void {
    if (item.heapIndex < 0) return;
    this.up(item.heapIndex);
    this.down(item.heapIndex);
  }

  pop(): T | undefined {
    const top = this.items[0];
    if (top) this.remove(top);
    return top;
  }

  remove(item: T): void {
    const i = item.heapIndex;
    if (i < 0 || this.items[i] !== item) return;
    const last = this.items.pop() as T;
    item.heapIndex = -1;
    if (last === item) return;
    this.items[i] = last;
    last.heapIndex = i;
    this.up(i);
    this.down(last.heapIndex);
  }

  private up(start: number): void {
    let i = start;
    const item = this.items[i] as T;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = this.items[p] as T;
      if (parent.deadline <= item.deadline) break;
      this.items[i] = parent;
      parent.heapIndex = i;
      i = p;
    }
    this.items[i] = item;
    item.heapIndex = i;
  }

  private down(start: number): void {
    let i = start;
    const n = this.items.length;
    const item = this.items[i] as T;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      let c = l;
      if (r < n && (this.items[r] as T).deadline < (this.items[l] as T).deadline) c = r;
      const child = this.items[c] as T;
      if (child.deadline >= item.deadline) break;
      this.items[i] = child;
      child.heapIndex = i;
      i = c;
    }
    this.items[i] = item;
    item.heapIndex = i;
  }
}
