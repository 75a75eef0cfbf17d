import { describe, expect, it } from 'vitest';
import { DeadlineHeap, type HeapItem } from '../../src/ingest/deadline-heap.js';

interface Item extends HeapItem {
  id: number;
}

/** Deterministic LCG so a failure reproduces. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('DeadlineHeap', () => {
  it('pops in deadline order through random pushes, updates (both directions) and removals', () => {
    const rand = lcg(42);
    const heap = new DeadlineHeap<Item>();
    const live = new Map<number, Item>();
    let next = 0;
    for (let step = 0; step < 5000; step++) {
      const r = rand();
      if (r < 0.5 || live.size === 0) {
        const item: Item = { id: next++, deadline: Math.floor(rand() * 1000), heapIndex: -1 };
        live.set(item.id, item);
        heap.push(item);
      } else {
        const ids = [...live.keys()];
        const item = live.get(ids[Math.floor(rand() * ids.length)] as number) as Item;
        if (r < 0.8) {
          item.deadline = Math.floor(rand() * 1000);
          heap.update(item);
        } else if (r < 0.9) {
          heap.remove(item);
          live.delete(item.id);
          expect(item.heapIndex).toBe(-1);
        } else {
          const top = heap.pop() as Item;
          const min = Math.min(...[...live.values()].map((i) => i.deadline));
          expect(top.deadline).toBe(min);
          live.delete(top.id);
        }
      }
      expect(heap.size).toBe(live.size);
    }
    const drained: number[] = [];
    for (let top = heap.pop(); top; top = heap.pop()) drained.push(top.deadline);
    expect(drained).toEqual([...live.values()].map((i) => i.deadline).sort((a, b) => a - b));
  });

  it('ignores removal of an item that is not in the heap', () => {
    const heap = new DeadlineHeap<Item>();
    const a: Item = { id: 1, deadline: 5, heapIndex: -1 };
    heap.remove(a);
    heap.push(a);
    heap.remove(a);
    heap.remove(a);
    expect(heap.size).toBe(0);
    expect(heap.peek()).toBeUndefined();
  });
});
