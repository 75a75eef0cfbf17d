import { describe, expect, it } from 'vitest';
import { createToolCallAccuracyScorerCode } from '../../../src/scorers/code/tool-call-accuracy/index.js';
import { createTrajectoryAccuracyScorerCode } from '../../../src/scorers/code/trajectory-accuracy/index.js';
import { createTrajectoryScorerCode } from '../../../src/scorers/code/trajectory/index.js';
import type { TrajectoryStep } from '../../../src/scorers/utils/trajectory-types.js';
import { msg } from './helpers.js';

function toolRun(tools: string[], state = 'result', inputMessages = [msg('user', 'What is the weather?')]) {
  const invocations = tools.map((toolName, i) => ({ toolCallId: `c${i}`, toolName, args: {}, result: state === 'result' ? { ok: true } : undefined, state }));
  return { input: { inputMessages }, output: [msg('assistant', 'Done', invocations)] };
}

describe('tool-call accuracy, code (§5.6)', () => {
  it.each([
    [{ expectedTool: 'weather-tool' }, ['weather-tool'], 1],
    [{ expectedTool: 'weather-tool' }, ['calculator-tool'], 0],
    [{ expectedTool: 'weather-tool' }, [], 0],
    [{ expectedTool: 'weather-tool' }, ['search-tool', 'weather-tool', 'calendar-tool'], 1],
    [{ expectedTool: 'weather-tool', strictMode: true }, ['search-tool', 'weather-tool', 'calendar-tool'], 0],
    [{ expectedToolOrder: ['search-tool', 'weather-tool'], strictMode: true }, ['search-tool', 'weather-tool'], 1],
    [{ expectedToolOrder: ['search-tool', 'weather-tool'], strictMode: true }, ['weather-tool', 'search-tool'], 0],
    [{ expectedToolOrder: ['search-tool', 'weather-tool'] }, ['search-tool', 'calendar-tool', 'weather-tool'], 1],
    [{ expectedToolOrder: ['search-tool', 'weather-tool'] }, ['weather-tool', 'calendar-tool', 'search-tool'], 0],
  ])('%j with %j → %s', async (options, tools, score) => {
    expect((await createToolCallAccuracyScorerCode(options).run(toolRun(tools))).score).toBe(score);
  });
  it('state call counts', async () => {
    expect((await createToolCallAccuracyScorerCode({ expectedTool: 'weather-tool' }).run(toolRun(['weather-tool'], 'call'))).score).toBe(1);
  });
  it('throws on empty input messages and on construction without expectations', async () => {
    await expect(createToolCallAccuracyScorerCode({ expectedTool: 'x' }).run(toolRun(['x'], 'result', []))).rejects.toThrow(
      'Scorer Run Failed: Input and output messages cannot be null or empty',
    );
    expect(() => createToolCallAccuracyScorerCode({})).toThrow('Either expectedTool or expectedToolOrder must be provided');
  });
  it('reads parts and legacy invocations merged', async () => {
    const output = [
      {
        role: 'assistant',
        content: {
          format: 2,
          parts: [{ type: 'tool-invocation', toolInvocation: { toolCallId: 'b', toolName: 'weather-tool', state: 'result', result: 1 } }],
          toolInvocations: [
            { toolCallId: 'a', toolName: 'search-tool', state: 'result', result: 1 },
            { toolCallId: 'b', toolName: 'weather-tool', state: 'result', result: 1 },
          ],
        },
      },
    ];
    const r = await createToolCallAccuracyScorerCode({ expectedToolOrder: ['search-tool', 'weather-tool'], strictMode: true }).run({
      input: { inputMessages: [msg('user', 'q')] },
      output,
    });
    expect(r.preprocessStepResult?.actualTools).toEqual(['search-tool', 'weather-tool']);
    expect(r.score).toBe(1);
  });
});

const tool = (name: string, extra: Record<string, unknown> = {}): TrajectoryStep => ({ name, stepType: 'tool_call', success: true, ...extra });
const traj = (...names: string[]) => ({ steps: names.map((n) => tool(n)) });
const EXPECTED = [
  { name: 'search', stepType: 'tool_call' as const },
  { name: 'summarize', stepType: 'tool_call' as const },
];

describe('trajectory accuracy, code (§6.1)', () => {
  it.each([
    [['search', 'summarize'], {}, 1],
    [['search', 'validate', 'summarize'], {}, 1],
    [['search'], {}, 0.5],
    [['translate', 'format'], {}, 0],
    [['summarize', 'search'], {}, 0.5],
    [['search', 'search', 'summarize'], {}, 1],
    [['search', 'search', 'summarize'], { allowRepeatedSteps: false }, 0.9],
    [['search', 'summarize'], { ordering: 'strict' }, 1],
    [['summarize', 'search'], { ordering: 'strict' }, 0],
    [['search'], { ordering: 'strict' }, 0.5],
    [['summarize', 'search'], { ordering: 'unordered' }, 1],
    [[], {}, 0],
  ] as const)('%j %j → %s', async (actual, comparisonOptions, score) => {
    const scorer = createTrajectoryAccuracyScorerCode({ expectedTrajectory: EXPECTED, comparisonOptions });
    expect((await scorer.run({ output: traj(...actual) })).score).toBe(score);
  });
  it('data mismatch and missing expectation', async () => {
    const s = createTrajectoryAccuracyScorerCode({ expectedTrajectory: [{ name: 'search', stepType: 'tool_call', toolArgs: { query: 'test' } }] });
    expect((await s.run({ output: { steps: [tool('search', { toolArgs: { query: 'different' } })] } })).score).toBe(0);
    const none = await createTrajectoryAccuracyScorerCode().run({ output: traj('search') });
    expect(none.score).toBe(0);
    expect(none.preprocessStepResult?.error).toBe('No expected trajectory provided (pass via options or dataset item expectedTrajectory)');
  });
  it('per-item expectation and ordering, and agent messages as output', async () => {
    const s = createTrajectoryAccuracyScorerCode();
    const r = await s.run({ output: traj('summarize', 'search'), expectedTrajectory: { steps: EXPECTED, ordering: 'unordered' } });
    expect(r.score).toBe(1);
    const fromMessages = await s.run({ output: toolRun(['search', 'summarize']).output, expectedTrajectory: { steps: EXPECTED } });
    expect(fromMessages.score).toBe(1);
  });
  it('accepts a recorded Trajectory as expectation', async () => {
    const s = createTrajectoryAccuracyScorerCode({ expectedTrajectory: { steps: [tool('search', { durationMs: 4 }), tool('summarize')] } });
    expect((await s.run({ output: traj('search', 'summarize') })).score).toBe(1);
  });
});

describe('unified trajectory scorer (§6.2)', () => {
  it.each([
    [
      { steps: [{ name: 'search' }, { name: 'summarize' }], maxSteps: 5, noRedundantCalls: true },
      traj('search', 'summarize'),
      1,
      'Score: 1\nAccuracy (1): 2/2 expected steps matched.\nEfficiency (1): all budgets met, no redundant calls.',
    ],
    [{ blacklistedTools: ['deleteAll'] }, traj('search', 'deleteAll'), 0, 'Score: 0\nBlacklist violation: forbidden tools used: deleteAll.'],
    [
      { noRedundantCalls: true },
      { steps: [tool('search', { toolArgs: { q: 'test' } }), tool('search', { toolArgs: { q: 'test' } })] },
      0.8,
      'Score: 0.8\nEfficiency (0.8): redundant calls: search.',
    ],
    [{ maxSteps: 2 }, traj('a', 'b', 'c', 'd'), 0.5, 'Score: 0.5\nEfficiency (0.5): over step budget (4 steps).'],
    [{}, traj('search'), 1, 'Score: 1'],
  ])('%j', async (defaults, output, score, reason) => {
    const r = await createTrajectoryScorerCode({ defaults }).run({ output });
    expect(r.score).toBe(score);
    expect(r.reason).toBe(reason);
  });
  it('weights accuracy and efficiency: 0.79', async () => {
    const r = await createTrajectoryScorerCode({ defaults: { steps: [{ name: 'search' }], maxSteps: 1, noRedundantCalls: true } }).run({
      output: traj('search', 'extra'),
    });
    expect(r.score).toBe(0.79);
  });
  it('tool failures count only with patterns; per-item steps replace defaults', async () => {
    const failing = { steps: [tool('api', { success: false }), tool('api', { success: false }), tool('api', { success: false }), tool('api', { success: false }), tool('api')] };
    const r = await createTrajectoryScorerCode().run({ output: failing });
    expect(r.score).toBe(0.6);
    expect(r.reason).toBe('Score: 0.6\nTool failures (0.6): 4 total retries. excessive retries: api.');
    const over = await createTrajectoryScorerCode({ defaults: { steps: [{ name: 'x' }] } }).run({
      output: traj('search'),
      expectedTrajectory: { steps: [{ name: 'search' }] },
    });
    expect(over.score).toBe(1);
  });
  it('nested expectations: 0.7 level + 0.3 nested; missing nested step scores 0; nested blacklist → 0', async () => {
    const agent = (children: TrajectoryStep[]): TrajectoryStep => ({ name: 'sub', stepType: 'agent_run', children });
    const defaults = { steps: [{ name: 'sub', children: { steps: [{ name: 'a' }, { name: 'b' }] } }] };
    const half = await createTrajectoryScorerCode({ defaults }).run({ output: { steps: [agent([tool('a')])] } });
    expect(half.score).toBe(0.85); // 0.7·1 + 0.3·0.5
    expect(half.reason).toContain('Nested scores: sub: 0.5');
    const missing = await createTrajectoryScorerCode({ defaults }).run({ output: traj('other') });
    expect(missing.score).toBe(0); // accuracy 0 at top, nested 0
    const bl = await createTrajectoryScorerCode({
      defaults: { steps: [{ name: 'sub', children: { blacklistedTools: ['rm'] } }] },
    }).run({ output: { steps: [agent([tool('rm')])] } });
    expect(bl.score).toBe(0);
    expect(bl.reason).toBe('Score: 0\nBlacklist violation in sub: forbidden tools used: rm.');
  });
});
