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
beforeAll(async () => {
  stub = await startStubJudge();
});
afterAll(async () => {
  await stub.close();
});

/** A judge client of `stream` mode whose instruments only `reader` sees. */
function instrumented(stream: boolean): { client: JudgeClient; reader: TestReader } {
  const reader = new TestReader();
  const telemetry = new Telemetry(new MeterProvider({ readers: [reader] }).getMeter('test'));
  const s = resolveJudgeSettings(judgeSection.parse({}), { OPENAI_API_KEY: 'sk-telemetry-key-1', OPENAI_BASE_URL: stub.baseURL });
  const client = createJudgeClient({ ...s, stream, apiKey: 'sk-telemetry-key-1', backoffInitialMs: 5 }, { settings: componentSettings({ telemetry }) });
  return { client, reader };
}

interface Point {
  attributes: Record<string, unknown>;
  value: unknown;
}

function points(rm: ResourceMetrics, name: string): Point[] {
  for (const sm of rm.scopeMetrics) for (const m of sm.metrics) if (m.descriptor.name === name) return m.dataPoints;
  return [];
}

const args = { model: undefined, instructions: 'i', prompt: 'p', stepName: 'analyze', scorerId: 's', schema: z.object({ ok: z.boolean() }) };

describe.each([{ stream: true }, { stream: false }])('judge telemetry, stream: $stream', ({ stream }) => {
  let client: JudgeClient;
  let reader: TestReader;
  beforeAll(() => {
    ({ client, reader } = instrumented(stream));
  });
  afterAll(() => client.close());

  it('counts requests by outcome, tokens by type and records latency', async () => {
    stub.reset();
    stub.enqueue(reply.serverError(500), reply.json({ ok: true }, { promptTokens: 100, completionTokens: 7 }), reply.quotaExhausted());
    const port = client.port();
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
    expect(stub.requests.every((r) => r.stream === stream)).toBe(true);
  });
});

describe('judge telemetry of a broken stream', () => {
  it('counts the broken call as a retry, with the tokens its stream reported', async () => {
    const { client, reader } = instrumented(true);
    stub.reset();
    // Single-chunk answer: role, content, finish, usage, [DONE]; cut after the usage chunk.
    const usage = { promptTokens: 40, completionTokens: 5 };
    stub.enqueue(reply.streamFault({ afterEvents: 4, then: 'cut' }, reply.json({ ok: true }, usage)), reply.json({ ok: true }, usage));
    try {
      await client.port().generateObject(args);
    } finally {
      client.close();
    }
    const { resourceMetrics } = await reader.collect();
    const byOutcome: Record<string, unknown> = Object.fromEntries(points(resourceMetrics, 'tracejudge.judge.requests').map((p) => [String(p.attributes.outcome), p.value]));
    expect(byOutcome).toEqual({ retry: 1, success: 1 });
    const tokens: Record<string, unknown> = Object.fromEntries(points(resourceMetrics, 'tracejudge.judge.tokens').map((p) => [String(p.attributes['gen_ai.token.type']), p.value]));
    expect(tokens).toEqual({ input: 80, output: 10 });
  });
});
