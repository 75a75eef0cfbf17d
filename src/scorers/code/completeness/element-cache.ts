/**
 * A bounded LRU of `compromise` element lists by text. Completeness parses the input and the output of
 * every run, and inputs recur (the same prompt, the same user question across runs); parsing is ~99% of
 * the scorer's cost. Entries are bounded in count and in total text length, so the cache never holds
 * more than about `maxChars` × 2 bytes of text plus the element lists.
 */
import type { TableGauge } from '../../../telemetry/instruments.js';

export interface ElementCacheOptions {
  /** Entries kept at most (default 1,000). */
  maxEntries?: number;
  /** Total characters of the texts kept at most (default 2,000,000, about 4 MB); longer texts are not kept. */
  maxChars?: number;
}

function wordChars(words: readonly string[]): number {
  let n = 0;
  for (const w of words) n += w.length + 24;
  return n;
}

export class ElementCache {
  private readonly map = new Map<string, readonly string[]>();
  private readonly inflight = new Map<string, Promise<string[]>>();
  private chars = 0;
  /** Characters of the element lists held (the words), for the byte estimate. */
  private elementChars = 0;
  private readonly maxEntries: number;
  private readonly maxChars: number;
  hits = 0;
  misses = 0;

  constructor(options: ElementCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 1000;
    this.maxChars = options.maxChars ?? 2_000_000;
  }

  /** The elements of `text`, computed by `compute` on a miss. Returns a fresh array the caller may keep. */
  get(text: string, compute: (text: string) => string[]): string[] {
    const hit = this.map.get(text);
    if (hit !== undefined) {
      this.hits++;
      // Re-insert: Map order is the recency order.
      this.map.delete(text);
      this.map.set(text, hit);
      return [...hit];
    }
    this.misses++;
    const value = compute(text);
    this.store(text, value);
    return value;
  }

  private store(text: string, value: readonly string[]): void {
    if (this.maxEntries > 0 && text.length <= this.maxChars && !this.map.has(text)) {
      this.map.set(text, [...value]);
      this.chars += text.length;
      this.elementChars += wordChars(value);
      this.evict();
    }
  }

  /**
   * `get` for an asynchronous parse (worker threads): a text already being parsed is awaited, not parsed
   * again (counted as a hit). A failed parse is not cached.
   */
  async getAsync(text: string, compute: (text: string) => Promise<string[]>): Promise<string[]> {
    const hit = this.map.get(text);
    if (hit !== undefined) return this.get(text, () => [...hit]);
    const running = this.inflight.get(text);
    if (running) {
      this.hits++;
      return [...(await running)];
    }
    this.misses++;
    const parse = compute(text);
    this.inflight.set(text, parse);
    try {
      const value = await parse;
      this.store(text, value);
      return [...value];
    } finally {
      this.inflight.delete(text);
    }
  }

  /** Drops every entry (and the hit counts). */
  clear(): void {
    this.map.clear();
    this.chars = 0;
    this.elementChars = 0;
    this.hits = 0;
    this.misses = 0;
  }

  get size(): number {
    return this.map.size;
  }

  /** Entries and estimated bytes, as `/metrics` reports them (`tracejudge.memory.table.*`). */
  tables(): TableGauge[] {
    const words = this.elementChars;
    return [{ table: 'completeness.elements', entries: this.map.size, bytes: this.map.size * 96 + 2 * (this.chars + words) }];
  }

  private evict(): void {
    for (const oldest of this.map.keys()) {
      if (this.map.size <= this.maxEntries && this.chars <= this.maxChars) return;
      this.elementChars -= wordChars(this.map.get(oldest) ?? []);
      this.map.delete(oldest);
      this.chars -= oldest.length;
    }
  }
}
