/**
 * A small seeded PRNG (mulberry32) for the trace generator: the same seed gives the same traces on every
 * machine. Not for sampling decisions (the product hashes trace ids); only for benchmark data.
 */
export class Prng {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** Next unsigned 32-bit integer. */
  nextUint32(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** `bytes` random bytes as lowercase hex; never all zeros (OTLP ids must not be zero). */
  hex(bytes: number): string {
    let out = '';
    for (let i = 0; i < bytes; i += 4) out += this.nextUint32().toString(16).padStart(8, '0');
    out = out.slice(0, bytes * 2);
    return /^0+$/.test(out) ? `${out.slice(0, -1)}1` : out;
  }

  /** Picks a key of `weights` with probability proportional to its weight (weights > 0). */
  pick<K extends string>(weights: ReadonlyArray<readonly [K, number]>): K {
    const total = weights.reduce((n, [, w]) => n + w, 0);
    let r = this.next() * total;
    for (const [k, w] of weights) {
      r -= w;
      if (r < 0) return k;
    }
    const last = weights[weights.length - 1];
    if (!last) throw new Error('Prng.pick: no weights');
    return last[0];
  }
}
