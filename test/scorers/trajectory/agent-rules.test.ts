import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { extractAgentRunContexts } from '../../../src/api/extract.js';
import { decodeTraceRequestJson } from '../../../src/ingest/otlp/decode.js';
import { agentTrajectoriesSchema, checkRequires } from '../../../src/scorers/trajectory/agent-expectations.js';
import { createAgentTrajectoryScorer } from '../../../src/scorers/trajectory/agent-trajectory-scorer.js';
import { trajectoryFromRun } from '../../../src/scorers/trajectory/from-trace.js';
import type { Trajectory, TrajectoryStep } from '../../../src/scorers/utils/trajectory-types.js';

const tool = (name: string, extra: Partial<Extract<TrajectoryStep, { stepType: 'tool_call' }>> = {}): TrajectoryStep => ({ stepType: 'tool_call', name, success: true, ...extra });
const gen = (tokens = 10): TrajectoryStep => ({ stepType: 'model_generation', name: 'gpt', modelId: 'gpt', promptTokens: tokens, completionTokens: tokens });
const traj = (...steps: TrajectoryStep[]): Trajectory => ({ steps });

// "support-agent must call `orders` before answering, never `refund` without `orders`"
const agents = agentTrajectoriesSchema.parse(
  parse(`
support-agent:
  steps: [{ name: orders, stepType: tool_call }]
  requires: { refund: [orders] }
  blacklistedTools: [deleteAccount]
  maxSteps: 4
"billing-*":
  blacklistedSequences: [[charge, charge]]
"token-agent":
  view: all
  maxTotalTokens: 50
`),
);
const scorer = createAgentTrajectoryScorer({ agents });
const runFor = (agentName: string, output: Trajectory) => scorer.run({ output, targetMetadata: { agentName } });

describe('per-agent trajectory rules', () => {
  it('orders then refund passes; model generations do not count as steps in the tools view', async () => {
    const r = await runFor('support-agent', traj(gen(), tool('orders'), gen(), tool('refund'), gen()));
    expect(r.score).toBe(1);
    expect(r.reason).toBe('Score: 1\nAccuracy (1): 1/1 expected steps matched. extra: refund.\nEfficiency (1): all budgets met, no redundant calls.');
  });

  it('refund without orders scores 0 and says why', async () => {
    const r = await runFor('support-agent', traj(gen(), tool('refund'), tool('orders')));
    expect(r.score).toBe(0);
    expect(r.reason).toBe('Score: 0\nRequired predecessor missing: refund called before orders.');
  });

  it('not calling orders at all lowers accuracy', async () => {
    const r = await runFor('support-agent', traj(gen(), tool('lookup'), gen()));
    // accuracy 0 (w 0.4), efficiency 1 (w 0.3), blacklist 1 (w 0.1) → 0.4 / 0.8
    expect(r.score).toBe(0.5);
  });

  it('a blacklisted tool scores 0', async () => {
    const r = await runFor('support-agent', traj(tool('orders'), tool('deleteAccount')));
    expect(r.score).toBe(0);
    expect(r.reason).toBe('Score: 0\nBlacklist violation: forbidden tools used: deleteAccount.');
  });

  it('globs pick the rules; sequences see consecutive tool calls', async () => {
    expect((await runFor('billing-eu', traj(tool('charge'), gen(), tool('charge')))).score).toBe(0);
    expect((await runFor('billing-eu', traj(tool('charge'), tool('refund')))).score).toBe(1);
  });

  it('token budgets use view: all', async () => {
    expect((await runFor('token-agent', traj(gen(10), tool('a'), gen(10)))).score).toBe(1);
    // 80 tokens over a 50 budget → tokens 0.4, redundancy 1 → efficiency 0.7
    expect((await runFor('token-agent', traj(gen(20), tool('a'), gen(20)))).score).toBe(0.7);
    expect(() => agentTrajectoriesSchema.parse({ x: { maxTotalTokens: 5 } })).toThrow(/view: all/);
  });

  it('an agent without rules, or a run without an agent name, is not scorable', async () => {
    const r = await runFor('other-agent', traj(tool('a')));
    expect(r.notScorable).toEqual({ step: 'preprocess', reason: 'no trajectory rules for agent other-agent' });
    expect('score' in r).toBe(false);
    const anon = await scorer.run({ output: traj(tool('a')) });
    expect(anon.notScorable?.step).toBe('preprocess');
  });

  it('reads the agent name from the live run facts too', async () => {
    const r = await scorer.run({ output: traj(tool('refund')), requestContext: { 'tracejudge.run': { agentName: 'support-agent' } } });
    expect(r.score).toBe(0);
  });

  it('checkRequires reports each tool once, with every missing predecessor', () => {
    expect(checkRequires(traj(tool('refund'), tool('refund'), tool('x')), { refund: ['orders', 'auth'] })).toEqual([{ tool: 'refund', missing: ['orders', 'auth'] }]);
    expect(checkRequires(traj(tool('auth'), tool('orders'), tool('refund')), { refund: ['orders', 'auth'] })).toEqual([]);
  });

  it('end to end on a real trace: AI SDK 6 two tools', async () => {
    const text = readFileSync(fileURLToPath(new URL('../../fixtures/traces/aisdk6-two-tools.json', import.meta.url)), 'utf8');
    const ctx = extractAgentRunContexts(text)[0];
    if (!ctx) throw new Error('fixture has no run');
    const t = trajectoryFromRun(ctx, decodeTraceRequestJson(text).spans);
    const rules = agentTrajectoriesSchema.parse({
      'support-agent': { steps: [{ name: 'getWeather' }, { name: 'convertTemperature' }], ordering: 'strict', requires: { convertTemperature: ['getWeather'] } },
    });
    const r = await createAgentTrajectoryScorer({ agents: rules }).run({ output: t, targetMetadata: { agentName: ctx.run.agentName } });
    expect(r.score).toBe(1);
    const reversed = agentTrajectoriesSchema.parse({ 'support-agent': { requires: { getWeather: ['convertTemperature'] } } });
    expect((await createAgentTrajectoryScorer({ agents: reversed }).run({ output: t, targetMetadata: { agentName: 'support-agent' } })).score).toBe(0);
  });
});
