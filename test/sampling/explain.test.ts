import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { explainSampling } from '../../src/sampling/explain.js';

const config = parseConfig(
  {
    scorers: {
      hallucination: { type: 'hallucination' },
      similarity: { type: 'content-similarity' },
    },
    sampling: {
      default: { rate: 0.1 },
      agents: {
        'billing-*': {
          rate: 0.05,
          rateLimit: { perMinute: 120 },
          scorers: { hallucination: { rate: 1, rateLimit: { perSecond: 2 } } },
          rules: [{ name: 'ungrounded', type: 'score-below', below: { grounding: 0.5 }, action: 'boost' }],
        },
      },
      rules: [{ type: 'errors' }],
    },
  },
  '<test>',
  {},
);

describe('explainSampling', () => {
  it('names the matched entry, the rules in order, and each scorer rate and limit with its source', () => {
    const lines = explainSampling(config, 'billing-eu', { hallucination: 'judge', similarity: 'code' });
    expect(lines).toEqual([
      'agent "billing-eu"',
      '  matches sampling.agents["billing-*"] (glob)',
      '  upstream: runs whose agent span is flagged not sampled are skipped (respectUpstream: true)',
      '  rules, in order (the first decisive rule wins):',
      '    1. ungrounded: judge scorers at 100% when code score grounding < 0.5 [sampling.agents["billing-*"].rules[0]]',
      '    2. errors: always score when the run has error status [sampling.rules[0]]',
      '  scorers:',
      '    hallucination (judge): rate 1 [sampling.agents["billing-*"].scorers.hallucination]; rate limit 120/min [sampling.agents["billing-*"].rateLimit], 2/s [sampling.agents["billing-*"].scorers.hallucination.rateLimit]',
      '    similarity (code): rate 0.05 [sampling.agents["billing-*"].rate]; rate limit 120/min [sampling.agents["billing-*"].rateLimit]',
    ]);
  });

  it('falls back to defaults for an unmatched agent and assumes judge for unknown kinds', () => {
    const lines = explainSampling(config, 'support');
    expect(lines).toContain('  matches no sampling.agents entry; default rates apply');
    expect(lines).toContain('    hallucination (judge, assumed): rate 0.1 [sampling.default.rate]');
  });

  it('explains the built-in defaults with no sampling section and no scorers', () => {
    const lines = explainSampling(parseConfig({}, '<t>', {}), 'x');
    expect(lines).toContain('  sampling: not configured; built-in rates: code scorers 1, judge scorers 0.1');
    expect(lines).toContain('    any code scorer: rate 1 [built-in (code scorer)]');
    expect(lines).toContain('    any judge scorer: rate 0.1 [built-in (judge scorer)]');
  });
});
