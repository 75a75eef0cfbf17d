import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { hashToUnitInterval } from '../../src/sampling/hash.js';
import { createSamplingPolicy } from '../../src/sampling/policy.js';
import { PolicyHolder } from '../../src/sampling/holder.js';
import { makeInput, traceIds, type InputOptions } from './helpers.js';

const sampling = (s: unknown) => parseConfig({ sampling: s }, '<test>', {}).sampling;
// u = 0.0858…: kept at rates above 0.0858, dropped below.
const LOW_U = '0af7651916cd43dd8448eb211c80319c';
const ids = traceIds(400, 5);
// An id whose u is above 0.9, dropped at every rate in these tests below 0.9.
const HIGH_U = ids.find((id) => hashToUnitInterval(id) > 0.9) as string;

function decide(s: unknown, o: InputOptions = {}, kinds: Record<string, 'code' | 'judge'> = {}) {
  return createSamplingPolicy(sampling(s), kinds, 0).decide(makeInput(o), 0);
}

describe('rates', () => {
  it('built-in defaults when sampling is absent: code 1.0, judge 0.1', () => {
    expect(decide(undefined, { run: { traceId: HIGH_U }, scorer: 'similarity' }, { similarity: 'code' })).toEqual({ sampled: true, rate: 1, reason: 'rate:1' });
    expect(decide(undefined, { run: { traceId: HIGH_U }, scorer: 'hallucination' }, { hallucination: 'judge' })).toEqual({
      sampled: false,
      rate: 0.1,
      reason: 'rate:0.1',
    });
    expect(decide(undefined, { run: { traceId: LOW_U }, scorer: 'hallucination', scorerKind: 'judge' })).toEqual({ sampled: true, rate: 0.1, reason: 'rate:0.1' });
  });

  it('unknown scorers count as judge scorers', () => {
    expect(decide(undefined, { run: { traceId: HIGH_U }, scorer: 'mystery' }).rate).toBe(0.1);
  });

  it('the input scorerKind wins over the kinds map', () => {
    expect(decide(undefined, { scorer: 'x', scorerKind: 'code' }, { x: 'judge' }).rate).toBe(1);
  });

  it('sampling.default.rate applies to every scorer and agent', () => {
    expect(decide({ default: { rate: 0.05 } }, { run: { traceId: LOW_U }, scorerKind: 'code' })).toEqual({ sampled: false, rate: 0.05, reason: 'rate:0.05' });
    expect(decide({ default: { rate: 0.09 } }, { run: { traceId: LOW_U } })).toEqual({ sampled: true, rate: 0.09, reason: 'rate:0.09' });
  });

  it('unset default.rate falls back to the built-in rate by kind', () => {
    expect(decide({ agents: { other: { rate: 0.5 } } }, { scorerKind: 'code' }).rate).toBe(1);
    expect(decide({ agents: { other: { rate: 0.5 } } }, { scorerKind: 'judge' }).rate).toBe(0.1);
  });

  const agents = {
    default: { rate: 0.1 },
    agents: {
      'billing-*': { rate: 0.5, scorers: { hallucination: 1.0 } },
      'billing-eu-*': { rate: 0.3 },
      '*-agent': { rate: 0.7 },
      'billing-eu-prod': { rate: 0.2 },
      'b*-*-p??d': { rate: 0.9 },
      '*': { rate: 0.05 },
    },
  };
  it.each([
    ['exact name beats every glob', 'billing-eu-prod', 'relevancy', 0.2],
    ['most literal characters wins', 'billing-eu-west', 'relevancy', 0.3],
    ['shorter glob when the longer does not match', 'billing-us', 'relevancy', 0.5],
    ['per-scorer override inside the matched glob', 'billing-us', 'hallucination', 1.0],
    ['per-scorer override is not inherited by a more specific entry', 'billing-eu-west', 'hallucination', 0.3],
    ['suffix glob', 'support-agent', 'relevancy', 0.7],
    ['catch-all glob', 'other', 'relevancy', 0.05],
  ])('%s (%s, %s → %s)', (_name, agentName, scorer, rate) => {
    expect(decide(agents, { run: { agentName }, scorer }).rate).toBe(rate);
  });

  it('among globs with equal literals, fewer wildcards win, then config order', () => {
    // 'a*c' and 'a?c*' have 2 literals; 'a*c' has fewer wildcards.
    expect(decide({ agents: { 'a?c*': { rate: 0.4 }, 'a*c': { rate: 0.6 } } }, { run: { agentName: 'abc' } }).rate).toBe(0.6);
    // Same literals and wildcards: the first written wins.
    expect(decide({ agents: { 'x*': { rate: 0.4 }, '*x': { rate: 0.6 } } }, { run: { agentName: 'xx' } }).rate).toBe(0.4);
    expect(decide({ agents: { '*x': { rate: 0.6 }, 'x*': { rate: 0.4 } } }, { run: { agentName: 'xx' } }).rate).toBe(0.6);
  });

  it('default.scorers sets a per-scorer rate for agents without their own', () => {
    const s = { default: { rate: 0.1, scorers: { hallucination: 0.02 } }, agents: { vip: { rate: 1 } } };
    expect(decide(s, { run: { agentName: 'anyone' }, scorer: 'hallucination' }).rate).toBe(0.02);
    expect(decide(s, { run: { agentName: 'anyone' }, scorer: 'relevancy' }).rate).toBe(0.1);
    expect(decide(s, { run: { agentName: 'vip' }, scorer: 'hallucination' }).rate).toBe(1);
  });

  it('the same trace gets the same decision from every scorer with the same rate', () => {
    const p = createSamplingPolicy(sampling({ default: { rate: 0.3 } }), {}, 0);
    for (const id of ids.slice(0, 100)) {
      const a = p.decide(makeInput({ run: { traceId: id }, scorer: 'a' }), 0).sampled;
      const b = p.decide(makeInput({ run: { traceId: id }, scorer: 'b' }), 0).sampled;
      expect(a).toBe(b);
      expect(a).toBe(hashToUnitInterval(id) < 0.3);
    }
  });
});

describe('rules before rates', () => {
  it('errors rule forces scoring at rate 0 with reason rule:errors', () => {
    const s = { default: { rate: 0 }, rules: [{ type: 'errors' }] };
    expect(decide(s, { run: { status: 'error' } })).toEqual({ sampled: true, rate: 1, reason: 'rule:errors' });
    expect(decide(s, {})).toEqual({ sampled: false, rate: 0, reason: 'rate:0' });
  });

  it('drop rule forbids scoring at rate 1', () => {
    const s = { default: { rate: 1 }, rules: [{ name: 'no-staging', type: 'attribute', key: 'deployment.environment', equals: 'staging', action: 'drop' }] };
    expect(decide(s, { resource: { 'deployment.environment': 'staging' } })).toEqual({ sampled: false, rate: 0, reason: 'rule:no-staging' });
    expect(decide(s, { resource: { 'deployment.environment': 'prod' } }).reason).toBe('rate:1');
  });

  it('only rule drops runs that fail the condition and defers on the rest', () => {
    const s = { default: { rate: 1 }, rules: [{ name: 'with-tools', type: 'tool-calls', action: 'only' }] };
    expect(decide(s, {})).toEqual({ sampled: false, rate: 0, reason: 'rule:with-tools' });
    const withTool = { run: { toolResults: [{ toolName: 't', toolCallId: '1', args: {}, result: 1 }] } };
    expect(decide(s, withTool)).toEqual({ sampled: true, rate: 1, reason: 'rate:1' });
  });

  it('first decisive rule wins, in config order', () => {
    const rules = [
      { name: 'drop-free', type: 'attribute', key: 'customer.tier', equals: 'free', action: 'drop' },
      { type: 'errors' },
    ];
    const o = { run: { status: 'error' as const }, resource: { 'customer.tier': 'free' } };
    expect(decide({ default: { rate: 0.5 }, rules }, o).reason).toBe('rule:drop-free');
    expect(decide({ default: { rate: 0.5 }, rules: [...rules].reverse() }, o).reason).toBe('rule:errors');
  });

  it('agent rules run before the top-level rules', () => {
    const s = {
      rules: [{ type: 'errors' }],
      agents: { 'billing-*': { rate: 0.5, rules: [{ name: 'quiet', type: 'errors', action: 'drop' }] } },
    };
    expect(decide(s, { run: { agentName: 'billing-eu', status: 'error' } }).reason).toBe('rule:quiet');
    expect(decide(s, { run: { agentName: 'support', status: 'error' } }).reason).toBe('rule:errors');
  });

  it('composed rule from config', () => {
    const s = {
      default: { rate: 0 },
      rules: [
        {
          name: 'slow-enterprise',
          type: 'and',
          rules: [
            { type: 'attribute', key: 'customer.tier', regex: '^ent' },
            { type: 'or', rules: [{ type: 'latency', aboveMs: 1000 }, { type: 'tokens', above: 100 }] },
          ],
        },
      ],
    };
    expect(decide(s, { resource: { 'customer.tier': 'enterprise' } }).reason).toBe('rule:slow-enterprise');
    expect(decide(s, { resource: { 'customer.tier': 'free' } }).reason).toBe('rate:0');
  });

  it('a rule that throws on malformed run data is skipped, not fatal', () => {
    const s = { default: { rate: 1 }, rules: [{ type: 'tool-calls', action: 'only' }] };
    const input = makeInput();
    const bad = { ...input, run: { ...input.run, output: undefined as unknown as [] } };
    const d = createSamplingPolicy(sampling(s), {}, 0).decide(bad, 0);
    expect(d).toEqual({ sampled: true, rate: 1, reason: 'rate:1' });
  });
});

describe('adaptive boost', () => {
  const s = {
    default: { rate: 0 },
    rules: [{ name: 'ungrounded', type: 'score-below', below: { grounding: 0.6, similarity: 0.3 }, action: 'boost' }],
  };
  it('raises a flagged run to 100% for judge scorers', () => {
    expect(decide(s, { scorerKind: 'judge', codeScores: { grounding: 0.4 } })).toEqual({ sampled: true, rate: 1, reason: 'rule:ungrounded' });
  });
  it('does not touch code scorers', () => {
    expect(decide(s, { scorerKind: 'code', codeScores: { grounding: 0.4 } }).reason).toBe('rate:0');
  });
  it('leaves unflagged runs to the rate', () => {
    expect(decide(s, { scorerKind: 'judge', codeScores: { grounding: 0.9, similarity: 0.9 } }).reason).toBe('rate:0');
    expect(decide(s, { scorerKind: 'judge' }).reason).toBe('rate:0');
  });
});

describe('upstream sampling', () => {
  it.each([
    ['flags unset (0) = unknown: scored', 0, true],
    ['sampled, has-is-remote (0x101)', 0x101, true],
    ['not sampled, opentelemetry-js style (0x100)', 0x100, false],
    ['not sampled, remote parent (0x300)', 0x300, false],
    ['not sampled, only the random flag (0x02)', 0x02, false],
    ['sampled bit, reserved high bits set', 0x101 | (1 << 20), true],
    ['only reserved high bits set = unknown', 1 << 20, true],
  ])('%s', (_name, flags, sampled) => {
    const d = decide({ default: { rate: 1 } }, { span: { flags } });
    expect(d.sampled).toBe(sampled);
    if (!sampled) expect(d).toEqual({ sampled: false, rate: 0, reason: 'upstream-not-sampled' });
  });

  it('upstream beats rules', () => {
    expect(decide({ rules: [{ type: 'errors' }] }, { span: { flags: 0x100 }, run: { status: 'error' } }).reason).toBe('upstream-not-sampled');
  });

  it('respectUpstream: false ignores the flag', () => {
    expect(decide({ respectUpstream: false, default: { rate: 1 } }, { span: { flags: 0x100 } })).toEqual({ sampled: true, rate: 1, reason: 'rate:1' });
  });

  it('reads the flags of the agent span, not of child spans', () => {
    expect(decide({ default: { rate: 1 } }, { span: { flags: 0x101 }, children: [{ flags: 0x100 }] }).sampled).toBe(true);
  });
});

describe('PolicyHolder', () => {
  it('swaps atomically and returns the previous policy', () => {
    const a = createSamplingPolicy(sampling({ default: { rate: 0 } }), {}, 0);
    const b = createSamplingPolicy(sampling({ default: { rate: 1 } }), {}, 0);
    const h = new PolicyHolder(a);
    const input = makeInput();
    const pinned = h.current();
    expect(h.swap(b)).toBe(a);
    expect(h.version).toBe(1);
    expect(pinned.decide(input, 0).sampled).toBe(false);
    expect(h.current().decide(input, 0).sampled).toBe(true);
  });
});
