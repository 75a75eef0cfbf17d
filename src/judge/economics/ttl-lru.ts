/**
 * A bounded map with least-recently-used eviction and a time to live, on an injected clock. Used by the
 * judge cache and the shared-preprocessing memo.
 */

interface Entry<V> {
  value: V;
  expiresAt: number;
}

/** LRU + TTL map. `maxEntries` ≥ 1; `ttlMs` ≤ 0 means entries never expire. */
export class TtlLru<V> {
  readonly #map = new Map<string, Entry<V>>();

  constructor(
    readonly maxEntries: number,
    readonly ttlMs: number,
    readonly now: () => number = Date.now,
  ) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError(`maxEntries must be a positive integer, got ${maxEntries}`);
  }

  /** Entries held (expired ones included until touched or evicted). */
  get size(): number {
    return this.#map.size;
  }

  /** The live value of `key` (refreshing its recency), or undefined. */
  get(key: string): V | undefined {
    const e = this.#map.get(key);
    if (!e) return undefined;
    if (this.ttlMs > 0 && e.expiresAt <= this.now()) {
      this.#map.delete(key);
      return undefined;
    }
    this.#map.delete(key);
    this.#map.set(key, e);
    return e.value;
  }

  /** Store `value`, evicting the least recently used entries beyond `maxEntries`. */
  set(key: string, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, { value, expiresAt: this.now() + this.ttlMs });
    while (this.#map.size > this.maxEntries) {
      const oldest = this.#map.keys().next();
      if (oldest.done === true) break;
      this.#map.delete(oldest.value);
    }
  }

  delete(key: string): void {
    this.#map.delete(key);
  }

  clear(): void {
    this.#map.clear();
  }
}
