/** The calendar arithmetic of `isoSeconds` writes what `Date#toISOString` writes, and `rfc3339` with it. */
import { describe, expect, it } from 'vitest';
import { isoSeconds, YEAR_10000_SECS } from '../../src/extract/iso-date.js';
import { rfc3339 } from '../../src/extract/runs.js';
import type { TreeMemo } from '../../src/extract/tree.js';

const viaDate = (secs: number): string => new Date(secs * 1000).toISOString().slice(0, 19);
const day = 86_400;
const at = (iso: string): number => Date.parse(iso) / 1000;

describe('isoSeconds', () => {
  it('agrees with Date at the calendar edges (leap days, centuries, 400-year eras, the last second of 9999)', () => {
    const edges = [
      0, 1, 59, 60, 3599, 3600, day - 1, day,
      at('1972-02-28T23:59:59Z'), at('1972-02-29T00:00:00Z'), at('1972-03-01T00:00:00Z'),
      at('1999-12-31T23:59:59Z'), at('2000-02-29T12:00:00Z'), at('2000-03-01T00:00:00Z'), at('2001-01-01T00:00:00Z'),
      at('2100-02-28T23:59:59Z'), at('2100-03-01T00:00:00Z'), at('2400-02-29T00:00:00Z'),
      at('2026-01-01T00:00:00Z'), at('2038-01-19T03:14:08Z'), at('9999-12-31T23:59:59Z'), YEAR_10000_SECS - 1,
    ];
    for (const s of edges) expect(isoSeconds(s)).toBe(viaDate(s));
  });

  it('agrees with Date on a deterministic spread over years 1970–9999', () => {
    let x = 2_463_534_242;
    for (let i = 0; i < 50_000; i++) {
      x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
      const secs = Math.floor((x / 2_147_483_648) * YEAR_10000_SECS);
      expect(isoSeconds(secs)).toBe(viaDate(secs));
    }
  });
});

describe('rfc3339 with a memo shared across calls', () => {
  it('formats consecutive times (same second, next second, next day, year 10000) like Date', () => {
    const memo: TreeMemo = {};
    const base = 1_767_225_599_999_999_999n;
    const steps = [0n, 1n, 999_999_999n, 1_000_000_000n, 86_400_000_000_000n, 0n, 253_402_300_800_000_000_000n - base, 1n];
    let ns = base;
    for (const step of steps) {
      ns += step;
      const secs = Number(ns / 1_000_000_000n);
      const frac = (ns % 1_000_000_000n).toString().padStart(9, '0');
      expect(rfc3339(ns, memo)).toBe(`${viaDate(secs)}.${frac}Z`);
    }
  });
});
