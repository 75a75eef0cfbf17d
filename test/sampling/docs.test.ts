import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/load.js';
import { explainSampling } from '../../src/sampling/explain.js';
import { hashToUnitInterval } from '../../src/sampling/hash.js';
import { createSamplingPolicy } from '../../src/sampling/policy.js';
import { makeInput, traceIds } from './helpers.js';

const doc = readFileSync(fileURLToPath(new URL('../../docs/sampling.md', import.meta.url)), 'utf8');
const blocks = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] as string);

describe('docs/sampling.md examples', () => {
  it('has YAML examples, and every one is a valid config', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    for (const text of blocks) expect(() => parseConfigText(text, 'docs/sampling.md', {})).not.toThrow();
  });

  it('the worked example behaves as the text says', () => {
    const config = parseConfigText(blocks[0] as string, 'docs/sampling.md', {});
    const kinds = { hallucination: 'judge', similarity: 'code' } as const;
    const p = createSamplingPolicy(config.sampling, kinds, 0);
    const ids = traceIds(2000, 3);
    const high = ids.find((id) => hashToUnitInterval(id) > 0.5) as string;
    const low = ids.find((id) => hashToUnitInterval(id) < 0.05) as string;
    const billing = (o: { traceId: string; status?: 'ok' | 'error' }, scorer: string) =>
      makeInput({ run: { agentName: 'billing-eu', traceId: o.traceId, status: o.status ?? 'ok' }, scorer });

    expect(p.decide(billing({ traceId: high, status: 'error' }, 'hallucination'), 0)).toEqual({ sampled: true, rate: 1, reason: 'rule:errors' });
    expect(p.decide(billing({ traceId: high }, 'hallucination'), 1000).reason).toBe('rate:0.05');
    expect(p.decide(billing({ traceId: high }, 'hallucination'), 1000).sampled).toBe(false);
    expect(p.decide(billing({ traceId: high }, 'similarity'), 1000)).toEqual({ sampled: true, rate: 1, reason: 'rate:1' });
    expect(p.decide(billing({ traceId: low }, 'hallucination'), 1000).sampled).toBe(true);
    // hallucination: 2 per second; the bucket is full again (2) at t=1000, so a third call in that instant is refused
    expect(p.decide(billing({ traceId: low }, 'hallucination'), 1000).sampled).toBe(true);
    expect(p.decide(billing({ traceId: low }, 'hallucination'), 1000).reason).toBe('rate-limit');
    expect(p.decide(makeInput({ run: { agentName: 'onboarding-agent', traceId: high }, scorer: 'hallucination' }), 0).sampled).toBe(true);
    expect(p.decide(makeInput({ run: { agentName: 'other', traceId: high }, scorer: 'hallucination' }), 0).reason).toBe('rate:0.1');

    const lines = explainSampling(config, 'billing-eu', kinds).join('\n');
    expect(lines).toContain('matches sampling.agents["billing-*"] (glob)');
    expect(lines).toContain('hallucination (judge): rate 0.05');
    expect(lines).toContain('2/s');
    expect(lines).toContain('600/min');
  });
});
