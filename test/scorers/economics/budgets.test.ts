import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { economicsSection } from '../../../src/config/sections/economics.js';
import type { JudgeModelPort } from '../../../src/judge/port.js';
import { createScorer } from '../../../src/scorers/core/scorer.js';
import { createJudgeEconomics, JudgeBudgets, JudgeScopes, runBudgeted } from '../../../src/judge/economics/index.js';
import type { JudgeClient } from '../../../src/judge/index.js';
import { createHallucinationScorer } from '../../../src/scorers/llm/hallucination/index.js';
import { startStubJudge, type StubJudge } from '../../../src/testing/stub-judge/index.js';
import { createTestTelemetry, type TestTelemetry } from '../../../src/testing/test-telemetry.js';
import { agentRun, stubClient } from '../llm/helpers.js';
import { claimsScript } from './stub-script.js';

const HOUR = 3_600_000;

/** A fake clock starting at a UTC day boundary. */
function fakeClock(start = Date.UTC(2026, 0, 1)) {
  const c = { t: start, now: () => c.t, advance: (ms: number) => (c.t += ms) };
  return c;
}

/** A port that spends `tokens` per call. */
function spendingPort(tokens: number): JudgeModelPort & { calls: number } {
  const p = {
    calls: 0,
    generateObject: ({ schema }: { schema: { parse(v: unknown): unknown } }) => {
      p.calls++;
      return Promise.resolve({ object: schema.parse({ score: 0.9 }) as never, usage: { inputTokens: tokens - 10, outputTokens: 10, totalTokens: tokens }, durationMs: 1, modelId: 'judge-m', modelCallCount: 1 });
    },
    generateText: () => Promise.reject(new Error('unused')),
  };
  return p;
}

describe('JudgeBudgets', () => {
  it('hour windows reset on the clock hour; day windows on the UTC day', () => {
    const clock = fakeClock();
    const b = new JudgeBudgets(economicsSection.parse({ budgets: [{ perHour: { requests: 2 }, perDay: { tokens: 1000 } }] }).budgets, clock.now);
    b.charge('a', 's', { tokens: 100, requests: 1 });
    expect(b.check('a', 's')).toBeUndefined();
    b.charge('a', 's', { tokens: 100, requests: 1 });
    expect(b.check('a', 's')).toEqual({ rule: 0, window: 'hour', resource: 'requests', fallback: 'skip' });
    clock.advance(HOUR);
    expect(b.check('a', 's')).toBeUndefined();
    b.charge('x', 'y', { tokens: 800, requests: 1 }); // no agent/scorer in the rule: one shared allowance
    expect(b.check('a', 's')).toEqual({ rule: 0, window: 'day', resource: 'tokens', fallback: 'skip' });
    clock.advance(23 * HOUR);
    expect(b.check('a', 's')).toBeUndefined();
  });

  it('agent globs give each agent its own allowance; scorer rules only cover that scorer', () => {
    const b = new JudgeBudgets(
      economicsSection.parse({ budgets: [{ agent: 'billing-*', perHour: { requests: 1 } }, { scorer: 'hallucination', perDay: { requests: 1 }, fallback: 'similarity' }] }).budgets,
      fakeClock().now,
    );
    b.charge('billing-eu', 'relevancy', { tokens: 1, requests: 1 });
    expect(b.check('billing-eu', 'relevancy')?.window).toBe('hour');
    expect(b.check('billing-us', 'relevancy')).toBeUndefined();
    expect(b.check('support', 'relevancy')).toBeUndefined();
    b.charge('support', 'hallucination', { tokens: 1, requests: 1 });
    expect(b.check('support', 'hallucination')).toEqual({ rule: 1, window: 'day', resource: 'requests', fallback: 'similarity' });
    expect(b.check('support', 'relevancy')).toBeUndefined();
  });
});

describe('runBudgeted with fallbacks and counting (fake clock)', () => {
  let meter: TestTelemetry;
  beforeAll(() => {
    meter = createTestTelemetry();
  });
  afterAll(async () => {
    await meter.shutdown();
  });

  it('runs the judge until the token budget is spent, then the fallback code scorer, then again next hour', async () => {
    const clock = fakeClock();
    const economics = createJudgeEconomics(
      economicsSection.parse({
        cache: { enabled: false },
        prices: { 'judge-m': { inputPerMTokens: 1, outputPerMTokens: 2 } },
        budgets: [{ agent: 'support-agent', scorer: 'judged', perHour: { tokens: 250 }, fallback: 'length' }],
      }),
      { now: clock.now, telemetry: meter.telemetry },
    );
    const port = spendingPort(100);
    const judged = createScorer({ id: 'judged', description: 'd', judge: { model: economics.wrap(port), instructions: 'grade' } }).generateScore({
      description: 'score',
      createPrompt: ({ run }) => `grade ${String(run.output)}`,
    });
    const length = createScorer({ id: 'length', description: 'd' }).generateScore(({ run }) => String(run.output).length / 100);
    const once = (i: number) =>
      runBudgeted({
        economics,
        runId: `r${i}`,
        agentName: 'support-agent',
        scorerName: 'judged',
        evaluate: async () => (await judged.run({ output: `answer ${i}` })).score,
        fallback: (name) => (name === 'length' ? async () => (await length.run({ output: 'x'.repeat(42) })).score : undefined),
      });
    const outcomes = [];
    for (let i = 0; i < 5; i++) outcomes.push(await once(i));
    expect(outcomes.map((o) => o.kind)).toEqual(['judged', 'judged', 'judged', 'fallback', 'fallback']);
    expect(outcomes[0]).toEqual({ kind: 'judged', value: 0.9 });
    expect(outcomes[3]).toMatchObject({ kind: 'fallback', fallback: 'length', value: 0.42, exhausted: { window: 'hour', resource: 'tokens' } });
    expect(port.calls).toBe(3);
    expect(await meter.sum('tracejudge.judge.budget.exhausted', { 'gen_ai.agent.name': 'support-agent', 'gen_ai.evaluation.name': 'judged', fallback: 'length', window: 'hour' })).toBe(2);
    // cost: 3 calls × (90 in × $1 + 10 out × $2) / 1M
    expect(await meter.sum('tracejudge.judge.cost', { 'gen_ai.agent.name': 'support-agent', 'gen_ai.evaluation.name': 'judged', 'gen_ai.request.model': 'judge-m' })).toBeCloseTo((3 * 110) / 1e6, 12);
    expect(economics.accounting.totals()['support-agent|judged|judge-m']).toEqual({ requests: 3, inputTokens: 270, outputTokens: 30, costUsd: expect.closeTo(330 / 1e6, 12) as number });
    // other agents are not affected
    expect((await runBudgeted({ economics, runId: 'o', agentName: 'other', scorerName: 'judged', evaluate: async () => (await judged.run({ output: 'o' })).score })).kind).toBe('judged');
    clock.advance(HOUR);
    expect((await once(9)).kind).toBe('judged');
  });

  it('skip (or a fallback name without a scorer) emits nothing and is counted', async () => {
    const economics = createJudgeEconomics(economicsSection.parse({ budgets: [{ perDay: { requests: 0 } }, { perDay: { requests: 0 }, fallback: 'missing' }] }), { now: fakeClock().now, telemetry: meter.telemetry });
    let ran = 0;
    const before = await meter.sum('tracejudge.judge.budget.exhausted', { 'gen_ai.agent.name': 'skip-agent', fallback: 'skip' });
    const out = await runBudgeted({ economics, runId: 'r', agentName: 'skip-agent', scorerName: 's', evaluate: () => Promise.resolve(++ran) });
    expect(out).toEqual({ kind: 'skipped', exhausted: { rule: 0, window: 'day', resource: 'requests', fallback: 'skip' } });
    expect(ran).toBe(0);
    expect(await meter.sum('tracejudge.judge.budget.exhausted', { 'gen_ai.agent.name': 'skip-agent', fallback: 'skip' })).toBe(before + 1);
  });
});

describe('accounting over the stub judge', () => {
  let stub: StubJudge;
  let client: JudgeClient;
  let meter: TestTelemetry;
  const scopes = new JudgeScopes();
  beforeAll(async () => {
    stub = await startStubJudge({ script: claimsScript });
    meter = createTestTelemetry();
    client = stubClient(stub, { settings: meter.settings, scopes });
  });
  afterEach(() => stub.reset());
  afterAll(async () => {
    client.close();
    await stub.close();
    await meter.shutdown();
  });

  it('tokens, requests and cost per agent and scorer; cache hits counted as outcome=cached', async () => {
    const economics = createJudgeEconomics(economicsSection.parse({ prices: { 'gpt-4o-mini': { inputPerMTokens: 0.15, outputPerMTokens: 0.6 } } }), { telemetry: meter.telemetry, scopes });
    const model = economics.wrap(client.port());
    const h = createHallucinationScorer({ model, options: { context: ['Paris is the capital of France.'] } });
    for (const runId of ['t1', 't2']) {
      await runBudgeted({ economics, runId, agentName: 'support-agent', scorerName: 'hallucination', evaluate: () => h.run({ runId, ...agentRun('Capital?', 'Lyon is the capital of France.') }) });
    }
    const at = { 'gen_ai.agent.name': 'support-agent', 'gen_ai.evaluation.name': 'hallucination' };
    expect(stub.requests.length).toBe(3); // claims, verdicts, reason; the second run is all cache hits
    expect(await meter.sum('tracejudge.judge.requests', { ...at, outcome: 'success' })).toBe(3);
    expect(await meter.sum('tracejudge.judge.requests', { ...at, outcome: 'cached' })).toBe(3);
    expect(await meter.sum('tracejudge.judge.tokens', { ...at, 'gen_ai.token.type': 'input' })).toBe(300);
    expect(await meter.sum('tracejudge.judge.tokens', { ...at, 'gen_ai.token.type': 'output' })).toBe(30);
    expect(await meter.sum('tracejudge.judge.cost', at)).toBeCloseTo((300 * 0.15 + 30 * 0.6) / 1e6, 12);
  });
});
