/**
 * Token buckets for `rateLimit: { perSecond | perMinute, burst? }`. The clock is injected (milliseconds), so
 * tests drive time and a replayed clock never refills backwards.
 */
import type { RateLimitConfig } from '../config/sections/sampling.js';

export class TokenBucket {
  private tokens: number;
  private last: number;
  /**
   * @param capacity most tokens held (the burst)
   * @param refillPerMs tokens added per millisecond
   * @param nowMs the clock at creation; the bucket starts full
   */
  constructor(
    readonly capacity: number,
    readonly refillPerMs: number,
    nowMs: number,
  ) {
    this.tokens = capacity;
    this.last = nowMs;
  }

  private refill(nowMs: number): void {
    if (nowMs > this.last) {
      this.tokens = Math.min(this.capacity, this.tokens + (nowMs - this.last) * this.refillPerMs);
      this.last = nowMs;
    }
  }

  /** Whether a token is available at `nowMs` (does not take it). */
  available(nowMs: number): boolean {
    this.refill(nowMs);
    return this.tokens >= 1;
  }

  /** Take a token if one is available. */
  tryTake(nowMs: number): boolean {
    if (!this.available(nowMs)) return false;
    this.tokens -= 1;
    return true;
  }
}

/** A bucket for a config limit: refill N per second or per minute, capacity `burst` (default N, at least 1). */
export function bucketFor(limit: RateLimitConfig, nowMs: number): TokenBucket {
  const perMs = limit.perSecond !== undefined ? limit.perSecond / 1000 : (limit.perMinute ?? 0) / 60_000;
  const n = limit.perSecond ?? limit.perMinute ?? 1;
  return new TokenBucket(limit.burst ?? Math.max(1, n), perMs, nowMs);
}

/** Human form of a limit, e.g. `10/s` or `100/min (burst 20)`. */
export function describeLimit(limit: RateLimitConfig): string {
  const base = limit.perSecond !== undefined ? `${limit.perSecond}/s` : `${limit.perMinute}/min`;
  return limit.burst !== undefined ? `${base} (burst ${limit.burst})` : base;
}

/**
 * Take one token from every bucket, or from none: a run refused by the second bucket does not spend a
 * token of the first.
 */
export function takeAll(buckets: readonly TokenBucket[], nowMs: number): boolean {
  for (const b of buckets) if (!b.available(nowMs)) return false;
  for (const b of buckets) b.tryTake(nowMs);
  return true;
}
