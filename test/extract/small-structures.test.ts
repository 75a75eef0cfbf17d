/**
 * The small structures extraction's hot path uses in place of the general ones, each checked against the
 * general one it stands in for: `sortByStart` against `Array#sort(byStart)`, the per-trace `JsonCache`
 * against a `Map` keyed by the text, and `append` against `push`.
 */
import { describe, expect, it } from 'vitest';
import { append } from '../../src/extract/lists.js';
import { byStart, sortByStart } from '../../src/extract/tree.js';
import { JsonCache } from '../../src/extract/values.js';
import type { Span } from '../../src/model/span.js';
import { seededRandom } from '../seeded-random.js';

/** A span with only what `byStart` reads (start, end, id). */
function span(id: string, start: bigint, end: bigint): Span {
  return { spanId: id, startTimeUnixNano: start, endTimeUnixNano: end } as Span;
}

/** Lists of spans in the orders a sort meets: sorted, nearly sorted, reversed, shuffled, with equal starts. */
function lists(seed: number, count: number): Span[][] {
  const random = seededRandom(seed);
  const out: Span[][] = [];
  for (let n = 0; n < count; n++) {
    const size = Math.floor(random() * 40);
    // Few distinct start times, so ties on start (and on end) are common and the id decides.
    const spans = Array.from({ length: size }, (_, i) => {
      const start = BigInt(Math.floor(random() * 6));
      return span(`s${String(i).padStart(3, '0')}${Math.floor(random() * 1000)}`, start, start + BigInt(Math.floor(random() * 3)));
    });
    const sorted = [...spans].sort(byStart);
    const kind = n % 5;
    if (kind === 0) out.push(sorted);
    else if (kind === 1) {
      // Nearly sorted: a few neighbours swapped.
      const l = [...sorted];
      for (let k = 0; k + 1 < l.length; k += 3 + Math.floor(random() * 4)) [l[k], l[k + 1]] = [l[k + 1] as Span, l[k] as Span];
      out.push(l);
    } else if (kind === 2) out.push([...sorted].reverse());
    else out.push(spans);
  }
  return out;
}

describe('sortByStart', () => {
  it('orders every list exactly as Array#sort(byStart) does, in place', () => {
    for (const list of lists(11, 2_000)) {
      const expected = [...list].sort(byStart);
      const copy = [...list];
      expect(sortByStart(copy)).toBe(copy);
      expect(copy).toEqual(expected);
    }
  });

  it('sorts only from `from` on, leaving the slots before it as they were', () => {
    const random = seededRandom(12);
    for (const list of lists(13, 1_000)) {
      const from = Math.floor(random() * (list.length + 1));
      const copy = [...list];
      sortByStart(copy, from);
      expect(copy.slice(0, from)).toEqual(list.slice(0, from));
      expect(copy.slice(from)).toEqual(list.slice(from).sort(byStart));
    }
  });
});

describe('JsonCache', () => {
  it('finds what a Map keyed by the text finds, for texts of one length past the list it keeps per length', () => {
    const random = seededRandom(21);
    const cache = new JsonCache();
    const reference = new Map<string, unknown>();
    // 40 distinct texts of each of a few lengths (more than the cache lists per length), asked for in
    // random order, each stored on its first miss.
    const texts: string[] = [];
    for (let i = 0; i < 40; i++) texts.push(String.fromCharCode(48 + i));
    for (const length of [2, 17, 300]) for (let i = 0; i < 40; i++) texts.push(String(i).padStart(length, 'x'));
    for (let k = 0; k < 5_000; k++) {
      const text = texts[Math.floor(random() * texts.length)] as string;
      // A copy made by concatenation is equal but not the same string object as the one stored.
      const asked = random() < 0.5 ? text : `${text.slice(0, 1)}${text.slice(1)}`;
      expect(cache.get(asked)).toBe(reference.get(asked));
      if (!reference.has(asked)) {
        const value = { parsed: asked };
        reference.set(asked, value);
        cache.set(asked, value);
      }
    }
    for (const t of texts) expect(cache.get(t)).toBe(reference.get(t));
  });

  it('tells apart texts of one length that differ only at the end', () => {
    const cache = new JsonCache();
    cache.set('{"a":1}', 1);
    cache.set('{"a":2}', 2);
    expect(cache.get('{"a":1}')).toBe(1);
    expect(cache.get('{"a":2}')).toBe(2);
    expect(cache.get('{"a":3}')).toBeUndefined();
  });
});

describe('append', () => {
  it('gives the list push would, whatever the length', () => {
    let list: number[] | undefined;
    const pushed: number[] = [];
    for (let i = 0; i < 20; i++) {
      list = append(list, i);
      pushed.push(i);
      expect(list).toEqual(pushed);
    }
    expect(append([], 7)).toEqual([7]);
  });
});
