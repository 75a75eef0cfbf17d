import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { createSamplingPolicy } from '../../src/sampling/policy.js';
import { TokenBucket, bucketFor, takeAll } from '../../src/sampling/rate-limit.js';
import { makeInput } from './helpers.js';

const sampling = (s: unknown) => parseConfig({ sampling: s }, '<test>', {}).sampling;

describe('TokenBucket', () => {
  it('starts full, empties, and refills with the injected clock', () => {
    const b = bucketFor({ perSecond: 2 }, 1000);
    expect([b.tryTake(1000), b.tryTake(1000), b.tryTake(1000)]).toEqual([true, true, false]);
    expect(b.tryTake(1499)).toBe(false);
    expect(b.tryTake(1500)).toBe(true); // 0.5 s × 2/s = 1 token
    expect(b.tryTake(1500)).toBe(false);
    expect(b.tryTake(100_000)).toBe(true);
    expect(b.tryTake(100_000)).toBe(true);
    expect(b.tryTake(100_000)).toBe(false); // capped at the burst (2)
  });

  it('per minute, with a burst', () => {
    const b = bucketFor({ perMinute: 6, burst: 1 }, 0);
    expect(b.tryTake(0)).toBe(true);
    expect(b.tryTake(9_999)).toBe(false);
    expect(b.tryTake(10_000)).toBe(true);
  });

  it('a clock going backwards never refills', () => {
    const b = new TokenBucket(1, 1 / 1000, 5000);
    expect(b.tryTake(5000)).toBe(true);
    expect(b.tryTake(0)).toBe(false);
    expect(b.tryTake(5999)).toBe(false);
    expect(b.tryTake(6000)).toBe(true);
  });

  it('takeAll takes from every bucket or from none', () => {
    const a = new TokenBucket(5, 0, 0);
    const empty = new TokenBucket(1, 0, 0);
    empty.tryTake(0);
    expect(takeAll([a, empty], 0)).toBe(false);
    let n = 0;
    while (a.tryTake(0) && n < 10) n++;
    expect(n).toBe(5);
  });
});

describe('rate limits in the policy', () => {
  const run = (agentName: string, scorer: string) => makeInput({ run: { agentName }, scorer });

  it('per agent: excess runs are not sampled with reason rate-limit, and refill with time', () => {
    const p = createSamplingPolicy(sampling({ default: { rate: 1 }, agents: { busy: { rate: 1, rateLimit: { perSecond: 3 } } } }), {}, 0);
    const got = Array.from({ length: 5 }, () => p.decide(run('busy', 'h'), 0));
    expect(got.map((d) => d.sampled)).toEqual([true, true, true, false, false]);
    expect(got[4]).toEqual({ sampled: false, rate: 1, reason: 'rate-limit' });
    // Other agents are not limited.
    expect(p.decide(run('calm', 'h'), 0).sampled).toBe(true);
    expect(p.decide(run('busy', 'h'), 333).sampled).toBe(false);
    expect(p.decide(run('busy', 'h'), 334).sampled).toBe(true);
  });

  it('per scorer within an agent, and the agent limit counts every scorer', () => {
    const s = {
      default: { rate: 1 },
      agents: { 'busy-*': { rateLimit: { perMinute: 4 }, scorers: { hallucination: { rate: 1, rateLimit: { perMinute: 1 } } } } },
    };
    const p = createSamplingPolicy(sampling(s), {}, 0);
    expect(p.decide(run('busy-1', 'hallucination'), 0).sampled).toBe(true);
    expect(p.decide(run('busy-1', 'hallucination'), 0).reason).toBe('rate-limit');
    // A refused scorer-level decision did not spend the agent bucket: 3 agent tokens remain.
    expect(['r', 'r', 'r', 'r'].map((sc) => p.decide(run('busy-2', sc), 0).sampled)).toEqual([true, true, true, false]);
    expect(p.decide(run('busy-1', 'hallucination'), 60_000).sampled).toBe(true);
  });

  it('caps rule-forced decisions too', () => {
    const p = createSamplingPolicy(sampling({ default: { rate: 0, rateLimit: { perSecond: 1 } }, rules: [{ type: 'errors' }] }), {}, 0);
    const err = makeInput({ run: { status: 'error' } });
    expect(p.decide(err, 0)).toEqual({ sampled: true, rate: 1, reason: 'rule:errors' });
    expect(p.decide(err, 0)).toEqual({ sampled: false, rate: 1, reason: 'rate-limit' });
  });

  it('not-sampled decisions spend no tokens', () => {
    const p = createSamplingPolicy(sampling({ default: { rate: 0, rateLimit: { perSecond: 1 } } }), {}, 0);
    for (let i = 0; i < 5; i++) expect(p.decide(makeInput(), 0).reason).toBe('rate:0');
    const p2 = createSamplingPolicy(sampling({ default: { rate: 1, rateLimit: { perSecond: 1 } } }), {}, 0);
    expect(p2.decide(makeInput(), 0).sampled).toBe(true);
  });
});
