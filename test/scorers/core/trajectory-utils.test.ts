import { describe, expect, it } from 'vitest';
import { analyzeToolFailures } from '../../../src/scorers/utils/tool-failures.js';
import { checkTrajectoryBlacklist } from '../../../src/scorers/utils/trajectory-blacklist.js';
import { compareTrajectories } from '../../../src/scorers/utils/trajectory-compare.js';
import { checkTrajectoryEfficiency } from '../../../src/scorers/utils/trajectory-efficiency.js';
import type { ExpectedStep, TrajectoryStep } from '../../../src/scorers/utils/trajectory-types.js';

const tool = (name: string, extra: Record<string, unknown> = {}): TrajectoryStep => ({ name, stepType: 'tool_call', ...extra });
const traj = (...names: string[]) => ({ steps: names.map((n) => tool(n)) });
const expected: ExpectedStep[] = [
  { name: 'search', stepType: 'tool_call' },
  { name: 'summarize', stepType: 'tool_call' },
];

describe('compareTrajectories', () => {
  it('relaxed: extra steps do not cost', () => {
    const r = compareTrajectories(traj('search', 'validate', 'summarize'), expected);
    expect(r).toMatchObject({ score: 1, extraSteps: ['validate'], matchedSteps: 2, totalActualSteps: 3, totalExpectedSteps: 2 });
  });
  it('relaxed: out of order', () => {
    const r = compareTrajectories(traj('summarize', 'search'), expected);
    expect(r).toMatchObject({ score: 0.5, outOfOrderSteps: ['summarize'], missingSteps: ['summarize'] });
  });
  it('repeats', () => {
    expect(compareTrajectories(traj('search', 'search', 'summarize'), expected)).toMatchObject({ score: 1, repeatedSteps: ['search'] });
    expect(compareTrajectories(traj('search', 'search', 'summarize'), expected, { allowRepeatedSteps: false }).score).toBe(0.9);
  });
  it('strict', () => {
    expect(compareTrajectories(traj('search', 'summarize'), expected, { ordering: 'strict' }).score).toBe(1);
    expect(compareTrajectories(traj('summarize', 'search'), expected, { ordering: 'strict' })).toMatchObject({
      score: 0,
      outOfOrderSteps: ['summarize', 'search'],
    });
    expect(compareTrajectories(traj('search'), expected, { ordering: 'strict' }).score).toBe(0.5);
    expect(compareTrajectories(traj('search', 'summarize', 'x', 'y'), expected, { ordering: 'strict' }).score).toBe(0.5);
  });
  it('unordered', () => {
    expect(compareTrajectories(traj('summarize', 'search'), expected, { ordering: 'unordered' }).score).toBe(1);
  });
  it('empty cases and data mismatch', () => {
    expect(compareTrajectories(traj(), expected).score).toBe(0);
    expect(compareTrajectories(traj(), []).score).toBe(1);
    expect(compareTrajectories(traj('a'), { steps: [] }).score).toBe(0);
    const r = compareTrajectories({ steps: [tool('search', { toolArgs: { query: 'different' } })] }, [
      { name: 'search', stepType: 'tool_call', toolArgs: { query: 'test' } },
    ]);
    expect(r.score).toBe(0);
    expect(compareTrajectories({ steps: [tool('search', { toolArgs: { query: 'test' } })] }, [{ name: 'search', toolArgs: { query: 'x' } }]).score).toBe(1);
  });
});

describe('checkTrajectoryEfficiency', () => {
  it('vector: [a,b,c] maxSteps 2 → 0.75', () => {
    expect(checkTrajectoryEfficiency(traj('a', 'b', 'c'), { maxSteps: 2 }).score).toBe(0.75);
  });
  it('redundant calls and budgets', () => {
    const t = { steps: [tool('search', { toolArgs: { q: 'test' } }), tool('search', { toolArgs: { q: 'test' } })] };
    const r = checkTrajectoryEfficiency(t);
    expect(r.score).toBe(0.8);
    expect(r.redundantCalls).toEqual([{ name: 'search', index: 1 }]);
    expect(checkTrajectoryEfficiency(t, { noRedundantCalls: false }).score).toBe(1);
    const g = (p: number, c: number): TrajectoryStep => ({ name: 'llm', stepType: 'model_generation', promptTokens: p, completionTokens: c });
    const withTokens = { steps: [g(100, 50), { name: 'agent', stepType: 'agent_run', children: [g(100, 50)] } as TrajectoryStep] };
    const tr = checkTrajectoryEfficiency(withTokens, { maxTotalTokens: 200 });
    expect(tr.totalTokens).toBe(300);
    expect(tr.score).toBe(0.75); // mean(0.5 tokens, 1 redundancy)
    expect(checkTrajectoryEfficiency({ steps: [tool('a', { durationMs: 300 })] }, { maxTotalDurationMs: 100, noRedundantCalls: false }).score).toBe(0);
    expect(checkTrajectoryEfficiency({ steps: [], totalDurationMs: 50 }, { maxTotalDurationMs: 100 }).score).toBe(1);
  });
  it('throws on bad budgets and missing measurements', () => {
    expect(() => checkTrajectoryEfficiency(traj('a'), { maxSteps: -1 })).toThrow(RangeError);
    expect(() => checkTrajectoryEfficiency(traj('a'), { maxSteps: Number.NaN })).toThrow(RangeError);
    expect(() => checkTrajectoryEfficiency(traj('a'), { maxTotalTokens: 10 })).toThrow(/no model generations/);
    expect(() => checkTrajectoryEfficiency({ steps: [{ name: 'l', stepType: 'model_generation' }] }, { maxTotalTokens: 10 })).toThrow(/token counts/);
    expect(() => checkTrajectoryEfficiency(traj('a'), { maxTotalDurationMs: 10 })).toThrow(/duration/);
  });
});

describe('checkTrajectoryBlacklist', () => {
  it('tools and sequences', () => {
    expect(checkTrajectoryBlacklist(traj('search', 'deleteAll'), { blacklistedTools: ['deleteAll'] })).toEqual({
      score: 0,
      violatedTools: ['deleteAll'],
      violatedSequences: [],
    });
    const t = traj('orders', 'refund', 'answer', 'refund', 'answer');
    expect(checkTrajectoryBlacklist(t, { blacklistedSequences: [['refund', 'answer'], [], ['answer', 'orders']] })).toEqual({
      score: 0,
      violatedTools: [],
      violatedSequences: [['refund', 'answer']],
    });
    expect(checkTrajectoryBlacklist(t, {}).score).toBe(1);
  });
});

describe('analyzeToolFailures', () => {
  const call = (name: string, success: boolean) => tool(name, { success });
  it('no tool calls → 1', () => {
    expect(analyzeToolFailures({ steps: [{ name: 'llm', stepType: 'model_generation' }] }).score).toBe(1);
  });
  it('retries within budget, then excess', () => {
    const ok = analyzeToolFailures({ steps: [call('api', false), call('api', false), call('api', true)] });
    expect(ok.score).toBe(1);
    expect(ok.patterns).toEqual([{ toolName: 'api', retryCount: 2, fellBackToAlternative: false, eventuallySucceeded: true }]);
    const over = analyzeToolFailures({ steps: [call('api', false), call('api', false), call('api', false), call('api', false), call('api', true)] });
    expect(over.score).toBe(0.6);
    expect(over.excessiveRetryTools).toEqual(['api']);
    expect(analyzeToolFailures({ steps: [call('api', false), call('api', false), call('api', true)] }, { maxRetriesPerTool: 0 }).score).toBe(0.6);
  });
  it('fallback to an alternative tool', () => {
    const r = analyzeToolFailures({ steps: [call('a', false), call('a', false), call('b', true)] });
    expect(r.patterns).toEqual([{ toolName: 'a', retryCount: 1, fellBackToAlternative: true, alternativeTool: 'b', eventuallySucceeded: false }]);
    expect(r.totalRetries).toBe(1);
  });
});
