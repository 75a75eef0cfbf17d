import { MeterProvider, MetricReader, type DataPoint } from '@opentelemetry/sdk-metrics';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { createSamplingPolicy } from '../../src/sampling/policy.js';
import { componentSettings } from '../../src/component.js';
import { Telemetry } from '../../src/telemetry/instruments.js';
import { makeInput } from './helpers.js';

class TestReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const reader = new TestReader();
const provider = new MeterProvider({ readers: [reader] });
const settings = componentSettings({ telemetry: new Telemetry(provider.getMeter('test')) });
afterAll(() => provider.shutdown());

describe('tracejudge.sampling.decisions', () => {
  it('counts every decision by decision and reason', async () => {
    const s = parseConfig(
      { sampling: { default: { rate: 0 }, agents: { busy: { rate: 1, rateLimit: { perSecond: 1 } } }, rules: [{ type: 'errors' }] } },
      '<test>',
      {},
    ).sampling;
    const p = createSamplingPolicy(s, {}, 0, settings);
    p.decide(makeInput({ run: { status: 'error' } }), 0); // sampled rule:errors
    p.decide(makeInput(), 0); // not_sampled rate:0
    p.decide(makeInput(), 0); // not_sampled rate:0
    p.decide(makeInput({ run: { agentName: 'busy' } }), 0); // sampled rate:1
    p.decide(makeInput({ run: { agentName: 'busy' } }), 0); // not_sampled rate-limit
    p.decide(makeInput({ span: { flags: 0x100 } }), 0); // not_sampled upstream-not-sampled

    const { resourceMetrics } = await reader.collect();
    const metric = resourceMetrics.scopeMetrics.flatMap((sm) => sm.metrics).find((m) => m.descriptor.name === 'tracejudge.sampling.decisions');
    expect(metric).toBeDefined();
    const counts = new Map<string, number>();
    for (const dp of (metric?.dataPoints ?? []) as DataPoint<number>[]) {
      counts.set(`${String(dp.attributes.decision)} ${String(dp.attributes.reason)} ${String(dp.attributes['gen_ai.evaluation.name'])}`, dp.value);
    }
    expect(Object.fromEntries(counts)).toEqual({
      'sampled rule:errors hallucination': 1,
      'not_sampled rate:0 hallucination': 2,
      'sampled rate:1 hallucination': 1,
      'not_sampled rate-limit hallucination': 1,
      'not_sampled upstream-not-sampled hallucination': 1,
    });
  });
});
