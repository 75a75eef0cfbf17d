/**
 * Spending the judge where code cannot decide (issue 28, item 4): the `unverified` rule and the `prefer`
 * action. A judge scorer's rate is spent first on runs whose answer a code scorer left unverified, the rest
 * keep at least `rest`, and the expected share of runs judged stays the scorer's rate. The expected rates are
 * worked out by hand from the formula in docs/sampling.md.
 */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { ConfigError } from '../../src/errors.js';
import { createSamplingPolicy } from '../../src/sampling/policy.js';
import { preferRates } from '../../src/sampling/rules/rule.js';
import { boostSignalScorers } from '../../src/sampling/boost-signals.js';
import { makeInput, traceIds } from './helpers.js';

const sampling = (s: unknown) => parseConfig({ sampling: s }, '<test>', {}).sampling;

describe('preferRates', () => {
  it('gives the matching runs what the rate affords after the rest, and the rest what is left', () => {
    // r = 0.1, u = 0.2, rest = 0.02: match = (0.1 − 0.02 × 0.8) / 0.2 = 0.42; other = (0.1 − 0.2 × 0.42) / 0.8 = 0.02.
    const a = preferRates(0.1, 0.2, 0.02);
    expect(a.match).toBeCloseTo(0.42, 12);
    expect(a.other).toBeCloseTo(0.02, 12);
    // u = 0.05: every matching run (1.62 capped at 1), the others (0.1 − 0.05) / 0.95 = 0.0526…
    const b = preferRates(0.1, 0.05, 0.02);
    expect(b.match).toBe(1);
    expect(b.other).toBeCloseTo(0.05 / 0.95, 12);
    // Rate 1 is rate 1 for all; no matching run yet leaves the rate to the others; a rest at or above the rate
    // takes the whole rate: (0.01 − 0.01 × 0.5) / 0.5 = 0.01 for both, no preference left.
    expect(preferRates(1, 0.3, 0.02)).toEqual({ match: 1, other: 1 });
    expect(preferRates(0.1, 0, 0.02).other).toBeCloseTo(0.1, 12);
    const c = preferRates(0.01, 0.5, 0.05);
    expect([c.match, c.other].map((v) => Number(v.toFixed(12)))).toEqual([0.01, 0.01]);
  });

  it('keeps the expected share judged at the rate whatever the share of matching runs', () => {
    for (const r of [0.05, 0.1, 0.3]) {
      for (const u of [0.01, 0.1, 0.25, 0.5, 0.9]) {
        const { match, other } = preferRates(r, u, 0.02);
        expect(u * match + (1 - u) * other, `r ${r}, u ${u}`).toBeCloseTo(r, 9);
        expect(match).toBeGreaterThanOrEqual(other);
      }
    }
  });
});

describe('the built-in unverified-first rule', () => {
  const ids = traceIds(20_000, 11);
  /** Judge decisions for runs of which every fifth has an unverified specific. */
  function run(section: unknown): { judged: number; unverifiedJudged: number; otherJudged: number; reasons: Set<string> } {
    const policy = createSamplingPolicy(sampling(section), { hallucination: 'judge', grounding: 'code' }, 0);
    let judged = 0;
    let unverifiedJudged = 0;
    let otherJudged = 0;
    const reasons = new Set<string>();
    ids.forEach((traceId, i) => {
      const unverified = i % 5 === 0 ? 2 : 0;
      const d = policy.decide(makeInput({ run: { traceId }, scorer: 'hallucination', codeScores: { grounding: 1 }, codeUnverified: { grounding: unverified } }), 0);
      reasons.add(d.reason);
      if (!d.sampled) return;
      judged++;
      if (unverified > 0) unverifiedJudged++;
      else otherJudged++;
    });
    return { judged, unverifiedJudged, otherJudged, reasons };
  }

  it('judges unverified answers first at the same judge cost as the rate alone', () => {
    const n = ids.length;
    const today = run({ rules: [] });
    const first = run(undefined);
    expect(today.reasons).toEqual(new Set(['rate:0.1']));
    expect(first.reasons).toEqual(new Set(['rule:unverified-first']));
    // Judge calls per run: the rate, 0.1, both ways (hash sampling: within 1 % of the runs).
    expect(Math.abs(today.judged / n - 0.1)).toBeLessThan(0.01);
    expect(Math.abs(first.judged / n - 0.1)).toBeLessThan(0.01);
    // Unverified runs (a fifth): 10 % judged today, 42 % first (see preferRates); the others 2 %.
    expect(today.unverifiedJudged / (n / 5)).toBeLessThan(0.13);
    expect(Math.abs(first.unverifiedJudged / (n / 5) - 0.42)).toBeLessThan(0.03);
    expect(Math.abs(first.otherJudged / ((4 * n) / 5) - 0.02)).toBeLessThan(0.01);
  });

  it('leaves runs no code scorer reported on to the rate', () => {
    const policy = createSamplingPolicy(sampling(undefined), { hallucination: 'judge' }, 0);
    expect(policy.decide(makeInput({ run: { traceId: ids[0] }, scorer: 'hallucination', codeScores: { grounding: 1 } }), 0).reason).toBe('rate:0.1');
  });

  it('leaves code scorers to the next rule and the rate', () => {
    const policy = createSamplingPolicy(sampling(undefined), { grounding: 'code' }, 0);
    expect(policy.decide(makeInput({ scorer: 'grounding', codeUnverified: { answered: 3 } }), 0)).toEqual({ sampled: true, rate: 1, reason: 'rate:1' });
  });

  it('is configurable: another rest, named scorers, a minimum count; its scorers feed the signal', () => {
    const policy = createSamplingPolicy(sampling({ default: { scorers: { hallucination: 0.2 } }, rules: [{ name: 'u', type: 'unverified', scorers: ['grounding'], min: 3, action: 'prefer', rest: 0.1 }] }), { hallucination: 'judge' }, 0);
    const two = policy.decide(makeInput({ run: { traceId: ids[1] }, codeUnverified: { grounding: 2 } }), 0);
    // Not matching (2 < 3), first run seen: u = 0, so the others get the whole rate.
    expect(two.rate).toBeCloseTo(0.2, 12);
    const three = policy.decide(makeInput({ run: { traceId: ids[2] }, codeUnverified: { grounding: 3 } }), 0);
    // u = 1/2 after two runs: match = (0.2 − 0.1 × 0.5) / 0.5 = 0.3.
    expect(three.rate).toBeCloseTo(0.3, 12);
    expect(boostSignalScorers({ rules: [{ type: 'unverified', scorers: ['grounding'] }] })).toEqual(new Set(['grounding']));
  });

  it('refuses rest on another action, naming the key path', () => {
    expect(() => sampling({ rules: [{ type: 'errors', rest: 0.1 }] })).toThrow(ConfigError);
    expect(() => sampling({ rules: [{ type: 'errors', rest: 0.1 }] })).toThrow(/sampling\.rules\[0\]\.rest.*prefer/);
  });
});
