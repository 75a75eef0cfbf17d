/** Small measurement helpers for the bench scenarios. */
import { performance } from 'node:perf_hooks';

/** The `p`-quantile (0..1) of `values` by nearest rank; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[rank] as number;
}

/** Median of `values`. */
export function median(values: readonly number[]): number {
  return percentile(values, 0.5);
}

/** Runs `fn` `rounds` times and returns the median wall time in ms (after one untimed warm-up). */
export function medianTimeMs(rounds: number, fn: () => void): number {
  fn();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

/**
 * Samples RSS on an interval (unref'd) and remembers the peak; `stop()` returns it in bytes. `start` is the
 * RSS when sampling began and `atPeak` the process's memory breakdown (heap, external, array buffers) at the
 * peak sample, to tell what held the memory.
 */
export class PeakRss {
  readonly start = process.memoryUsage.rss();
  #peak = this.start;
  #atPeak: NodeJS.MemoryUsage | undefined;
  readonly #timer: NodeJS.Timeout;

  constructor(intervalMs = 20) {
    this.#timer = setInterval(() => this.sample(), intervalMs);
    this.#timer.unref();
  }

  sample(): void {
    const rss = process.memoryUsage.rss();
    if (rss > this.#peak || this.#atPeak === undefined) {
      this.#peak = Math.max(rss, this.#peak);
      this.#atPeak = process.memoryUsage();
    }
  }

  /** The breakdown at the peak sample (after `stop()`, or the latest peak while sampling). */
  get atPeak(): NodeJS.MemoryUsage | undefined {
    return this.#atPeak;
  }

  stop(): number {
    this.sample();
    clearInterval(this.#timer);
    return this.#peak;
  }
}

/** Bytes → MiB with one decimal. */
export function mib(bytes: number): number {
  return Math.round((bytes / 1048576) * 10) / 10;
}
