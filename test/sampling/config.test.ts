import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { ConfigError } from '../../src/errors.js';

function issues(sampling: unknown): { path: string; message: string }[] {
  try {
    parseConfig({ sampling }, '<test>', {});
  } catch (err) {
    if (err instanceof ConfigError) return [...err.issues];
    throw err;
  }
  return [];
}

describe('sampling config section', () => {
  it('accepts the docs/configuration.md example and a full config', () => {
    expect(issues({ default: { rate: 0.1 }, agents: { 'support-agent': { rate: 1.0 }, 'billing-*': { rate: 0.5, scorers: { hallucination: 1.0 } } } })).toEqual([]);
    expect(
      issues({
        respectUpstream: false,
        default: { rate: 0.1, rateLimit: { perMinute: 600 }, scorers: { hallucination: { rate: 0.05, rateLimit: { perSecond: 2, burst: 5 } } } },
        agents: { busy: { rate: 0.05, rules: [{ type: 'errors' }], rateLimit: { perSecond: 10 } } },
        rules: [
          { type: 'errors', includeSpans: true },
          { name: 'staging', type: 'attribute', key: 'deployment.environment', equals: 'staging', in: 'resource', action: 'drop' },
          { name: 'tools', type: 'tool-calls', min: 1, action: 'only' },
          { type: 'retrieval' },
          { type: 'latency', aboveMs: 30000 },
          { type: 'tokens', count: 'output', above: 4000 },
          { name: 'ungrounded', type: 'score-below', below: { grounding: 0.6 }, action: 'boost' },
          { name: 'combo', type: 'and', rules: [{ type: 'not', rule: { type: 'errors' } }, { type: 'or', rules: [{ type: 'attribute', key: 'x', exists: true }] }] },
        ],
      }),
    ).toEqual([]);
  });

  it('defaults respectUpstream to true when the section is present', () => {
    expect(parseConfig({ sampling: {} }, '<t>', {}).sampling?.respectUpstream).toBe(true);
    expect(parseConfig({}, '<t>', {}).sampling).toBeUndefined();
  });

  it.each([
    [{ agents: { 'billing-*': { rate: 1.5 } } }, 'sampling.agents["billing-*"].rate', 'must be between 0 and 1'],
    [{ agents: { b: { scorers: { hallucination: -1 } } } }, 'sampling.agents.b.scorers.hallucination.rate', 'must be between 0 and 1'],
    [{ default: { rateLimit: { perSecond: 1, perMinute: 60 } } }, 'sampling.default.rateLimit', 'set exactly one of perSecond or perMinute'],
    [{ default: { rateLimit: {} } }, 'sampling.default.rateLimit', 'set exactly one of perSecond or perMinute'],
    [{ agents: { a: { rateLimit: { perSecond: 0 } } } }, 'sampling.agents.a.rateLimit.perSecond', 'must be > 0'],
    [{ rules: [{ type: 'attribute', key: 'k', regex: '(' }] }, 'sampling.rules[0].regex', 'invalid regular expression'],
    [{ rules: [{ type: 'attribute', key: 'k' }] }, 'sampling.rules[0]', 'set exactly one of equals, regex or exists'],
    [{ rules: [{ type: 'attribute', key: 'k', equals: 'a', exists: true }] }, 'sampling.rules[0]', 'set exactly one of equals, regex or exists'],
    [{ rules: [{ type: 'latency' }] }, 'sampling.rules[0]', 'set at least one of aboveMs, belowMs'],
    [{ rules: [{ type: 'errors' }, { type: 'errors' }] }, 'sampling.rules[1].name', 'duplicate rule name "errors"'],
    [{ rules: [{ type: 'errors', action: 'maybe' }] }, 'sampling.rules[0].action', ''],
    [{ rules: [{ type: 'sometimes' }] }, 'sampling.rules[0].type', ''],
    [{ rules: [{ type: 'and', rules: [] }] }, 'sampling.rules[0].rules', 'needs at least one rule'],
    [{ rules: [{ type: 'not', rule: { type: 'errors', name: 'x' } }] }, 'sampling.rules[0].rule.name', 'unknown key'],
    [{ agents: { a: { rules: [{ type: 'tokens', count: 'all', above: 1 }] } } }, 'sampling.agents.a.rules[0].count', ''],
    [{ rules: [{ type: 'score-below', below: {} }] }, 'sampling.rules[0].below', 'name at least one code scorer'],
    [{ rate: 0.1 }, 'sampling.rate', 'unknown key'],
  ])('%j → %s', (config, path, message) => {
    const got = issues(config);
    expect(got.map((i) => i.path)).toContain(path);
    expect(got.find((i) => i.path === path)?.message).toContain(message);
  });
});
