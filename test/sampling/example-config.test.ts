import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/load.js';
import { createSamplingPolicy } from '../../src/sampling/policy.js';
import { makeInput } from './helpers.js';

const example = readFileSync(fileURLToPath(new URL('../../config/tracejudge.example.yaml', import.meta.url)), 'utf8');

/** The commented-out `sampling` block of the example config, uncommented. */
function samplingBlock(): string {
  const lines = example.split('\n');
  const start = lines.findIndex((l) => l.startsWith('# sampling:'));
  expect(start).toBeGreaterThanOrEqual(0);
  const out: string[] = [];
  for (const line of lines.slice(start)) {
    if (!line.startsWith('#')) break;
    out.push(line.replace(/^# ?/, ''));
  }
  return out.join('\n');
}

describe('config/tracejudge.example.yaml sampling section', () => {
  it('is a valid config once uncommented, and every rule in it evaluates', () => {
    const config = parseConfigText(samplingBlock(), 'example sampling', {});
    expect(config.sampling?.rules?.length).toBeGreaterThanOrEqual(8);
    const p = createSamplingPolicy(config.sampling, { grounding: 'code', hallucination: 'judge' }, 0);
    const staging = makeInput({ resource: { 'deployment.environment': 'staging' } });
    expect(p.decide(staging, 0)).toEqual({ sampled: false, rate: 0, reason: 'rule:staging' });
    expect(p.decide(makeInput({ run: { agentName: 'billing-eu', status: 'error' } }), 0).reason).toBe('rule:errors');
    expect(p.decide(makeInput(), 0).reason).toBe('rule:tools');
  });
});
