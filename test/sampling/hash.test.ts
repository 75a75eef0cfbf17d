import { describe, expect, it } from 'vitest';
import { hashToUnitInterval, sampledAtRate } from '../../src/sampling/hash.js';
import { traceIds } from './helpers.js';

describe('hashToUnitInterval', () => {
  it.each([
    ['0af7651916cd43dd8448eb211c80319c', 0.08580714096926556],
    ['run-1', 0.30624127292746905],
    ['abc', 0.7283949105903993],
  ])('u(%s) = %s (docs/configuration.md)', (key, want) => {
    expect(hashToUnitInterval(key)).toBe(want);
  });

  it('stays in [0, 1)', () => {
    for (const id of traceIds(2000, 7)) {
      const u = hashToUnitInterval(id);
      expect(u).toBeGreaterThanOrEqual(0);
      expect(u).toBeLessThan(1);
    }
  });

  it('lowercases the trace id before hashing in the rate decision', () => {
    const id = '0AF7651916CD43DD8448EB211C80319C';
    expect(sampledAtRate(id, 0.0859)).toBe(true);
    expect(sampledAtRate(id, 0.0858)).toBe(false);
  });
});

describe('rate decision over 20,000 seeded random trace ids', () => {
  const ids = traceIds(20_000, 20240601);
  const n = ids.length;

  it.each([0.01, 0.1, 0.5])('rate %s lands within 3 standard deviations', (rate) => {
    const kept = ids.filter((id) => sampledAtRate(id, rate)).length;
    const mean = n * rate;
    const sd = Math.sqrt(n * rate * (1 - rate));
    expect(Math.abs(kept - mean)).toBeLessThanOrEqual(3 * sd);
  });

  it('is nested: every id kept at a lower rate is kept at every higher rate', () => {
    const rates = [0, 0.01, 0.05, 0.1, 0.2, 0.5, 0.9, 1];
    let violations = 0;
    for (const id of ids) {
      let prev = false;
      for (const r of rates) {
        const kept = sampledAtRate(id, r);
        if (prev && !kept) violations++;
        prev = kept;
      }
    }
    expect(violations).toBe(0);
    const at10 = ids.filter((id) => sampledAtRate(id, 0.1));
    expect(at10.length).toBeGreaterThan(0);
    expect(at10.every((id) => sampledAtRate(id, 0.2))).toBe(true);
  });

  it('rate 0 never samples and rate 1 always does', () => {
    expect(ids.some((id) => sampledAtRate(id, 0))).toBe(false);
    expect(ids.every((id) => sampledAtRate(id, 1))).toBe(true);
  });
});
