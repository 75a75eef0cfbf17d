/**
 * SummedCounter against the SDK's own synchronous counter: the same adds, in the same order, to both, on
 * one MeterProvider with an in-memory reader; the collected series (attributes and sums) must be equal,
 * whatever the attribute sets (other insertion orders, undefined values, keys outside the declared ones,
 * values containing the key separators, negative and non-finite values), and monotonic over collections.
 */
import type { Attributes } from '@opentelemetry/api';
import { DataPointType, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { describe, expect, it } from 'vitest';
import { SummedCounter } from '../../src/telemetry/summed-counter.js';

class Reader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const KEYS = ['gen_ai.evaluation.name', 'gen_ai.agent.name', 'outcome', 'tracejudge.skip.reason'];

function pair() {
  const reader = new Reader();
  const provider = new MeterProvider({ readers: [reader] });
  const meter = provider.getMeter('t');
  const reference = meter.createCounter('reference');
  const summed = new SummedCounter(meter, 'summed', {}, KEYS);
  const series = async (): Promise<Record<string, Record<string, number>>> => {
    const out: Record<string, Record<string, number>> = {};
    for (const m of (await reader.collect()).resourceMetrics.scopeMetrics.flatMap((s) => s.metrics)) {
      if (m.dataPointType !== DataPointType.SUM) continue;
      const byAttrs: Record<string, number> = {};
      for (const p of m.dataPoints) {
        const canonical = JSON.stringify(Object.entries(p.attributes).sort(([a], [b]) => (a < b ? -1 : 1)));
        byAttrs[canonical] = (byAttrs[canonical] ?? 0) + p.value;
      }
      out[m.descriptor.name] = byAttrs;
    }
    return out;
  };
  const add = (value: number, attributes?: Attributes): void => {
    reference.add(value, attributes);
    summed.add(value, attributes);
  };
  return { add, series, provider };
}

describe('SummedCounter', () => {
  it('reports the series and sums the SDK counter reports, for every kind of attribute set', async () => {
    const { add, series, provider } = pair();
    let seed = 11;
    const next = (n: number): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n);
    const names = ['grounding', 'answered', 'tool-errors'];
    const agents = ['weather', 'order', 'a\u0000b', 'a', 'other'];
    const outcomes = ['pass', 'fail', 'error', 'skipped'];
    for (let i = 0; i < 5000; i++) {
      const shape = next(8);
      const name = names[next(names.length)] as string;
      const agent = agents[next(agents.length)] as string;
      const outcome = outcomes[next(outcomes.length)] as string;
      const value = [1, 1, 1, 2, 0.5, 0][next(6)] as number;
      if (shape === 0) add(value, { 'gen_ai.evaluation.name': name, 'gen_ai.agent.name': agent, outcome });
      else if (shape === 1) add(value, { outcome, 'gen_ai.agent.name': agent, 'gen_ai.evaluation.name': name }); // another order
      else if (shape === 2) add(value, { 'gen_ai.evaluation.name': name, 'gen_ai.agent.name': agent, outcome, 'tracejudge.skip.reason': 'no_output' });
      else if (shape === 3) add(value, { 'gen_ai.evaluation.name': name, 'gen_ai.agent.name': agent, outcome, 'tracejudge.skip.reason': undefined });
      else if (shape === 4) add(value, { 'gen_ai.evaluation.name': name, extra: agent }); // a key outside the declared ones
      else if (shape === 5) add(value); // no attributes
      else if (shape === 6) add(value, { 'gen_ai.evaluation.name': `${name}\u0001`, 'gen_ai.agent.name': agent });
      else add(value, { outcome: 7, 'gen_ai.agent.name': true }); // non-string values
    }
    const first = await series();
    expect(Object.keys(first.reference ?? {}).length).toBeGreaterThan(50);
    expect(first.summed).toEqual(first.reference);
    // Cumulative across collections, like the SDK's counter.
    add(3, { 'gen_ai.evaluation.name': 'grounding', 'gen_ai.agent.name': 'weather', outcome: 'pass' });
    const second = await series();
    expect(second.summed).toEqual(second.reference);
    await provider.shutdown();
  });

  it('ignores what a counter must ignore (negative, NaN, infinite)', async () => {
    const { add, series, provider } = pair();
    add(1, { outcome: 'pass' });
    const summedOnly = new SummedCounter(provider.getMeter('t2'), 'summed-only', {}, ['outcome']);
    for (const v of [-1, Number.NaN, Number.POSITIVE_INFINITY]) summedOnly.add(v, { outcome: 'pass' });
    summedOnly.add(2, { outcome: 'pass' });
    const s = await series();
    expect(s['summed-only']).toEqual({ [JSON.stringify([['outcome', 'pass']])]: 2 });
    await provider.shutdown();
  });
});
