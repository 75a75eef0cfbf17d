import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { z } from 'zod';
import { componentSettings } from '../../src/component.js';
import { Telemetry } from '../../src/telemetry/instruments.js';
import { createJudgeClient, resolveJudgeSettings, type JudgeClient } from '../../src/judge/index.js';
import { judgeSection } from '../../src/config/sections/judge.js';
import { reply, startStubJudge, type StubJudge } from '../../src/testing/stub-judge/index.js';

class TestReader extends MetricReader {
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

let stub: StubJudge;
let client: JudgeClient;
const reader = new TestReader();
beforeAll(async () => {
  const telemetry = new Telemetry(new MeterProvider({ readers: [reader] }).getMeter('test'));
  stub = await startStubJudge();
  const s = resolveJudgeSettings(judgeSection.parse({}), { OPENAI_API_KEY: 'sk-telemetry-key-1', OPENAI_BASE_URL: stub.baseURL });
  client = createJudgeClient({ ...s, apiKey: 'sk-telemetry-key-1', backoffInitialMs: 5 }, { settings: componentSettings({ telemetry }) });
});
afterAll(async () => {
  client.close();
  await stub.close();
});

interface Point {
  attributes: Record<string, unknown>;
  value: unknown;
}

function points(rm: ResourceMetrics, name: string): Point[] {
  for (const sm of rm.scopeMetrics) for (const m of sm.metrics) if (m.descriptor.name === name) return m.dataPoints;
  return [];
}

describe('judge telemetry', () => {
  it('counts requests by outcome, tokens by type and records latency', async () => {
    stub.enqueue(reply.serverError(500), reply.json({ ok: true }, { promptTokens: 100, completionTokens: 7 }), reply.quotaExhausted());
    const port = client.port();
    const args = { model: undefined, instructions: 'i', prompt: 'p', stepName: 'analyze', scorerId: 's', schema: z.object({ ok: z.boolean() }) };
    await port.generateObject(args);
    await expect(port.generateObject(args)).rejects.toThrow(/quota/);
    const { resourceMetrics } = await reader.collect();
    const requests = points(resourceMetrics, 'tracejudge.judge.requests');
    const byOutcome: Record<string, unknown> = Object.fromEntries(requests.map((p) => [String(p.attributes.outcome), p.value]));
    expect(byOutcome).toEqual({ retry: 1, success: 1, quota: 1 });
    const tokens: Record<string, unknown> = Object.fromEntries(points(resourceMetrics, 'tracejudge.judge.tokens').map((p) => [String(p.attributes['gen_ai.token.type']), p.value]));
    expect(tokens).toEqual({ input: 100, output: 7 });
    const durations = points(resourceMetrics, 'tracejudge.judge.duration');
    const count = durations.reduce((n, p) => n + ((p.value as { count: number }).count ?? 0), 0);
    expect(count).toBe(3);
  });
});
