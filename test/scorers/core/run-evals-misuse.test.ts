/** Every misuse of runEvals is a coded TracejudgeError naming the field, never a raw TypeError. */
import { describe, expect, it } from 'vitest';
import { TracejudgeError } from '../../../src/errors.js';
import * as api from '../../../src/index.js';
import { RunEvalsError } from '../../../src/scorers/core/errors.js';
import { createScorer } from '../../../src/scorers/core/scorer.js';
import { runEvals, runExperiment, type RunEvalsOptions } from '../../../src/scorers/core/run-evals.js';
import { agentRun } from '../code/helpers.js';

const one = createScorer({ id: 'one', description: 'always 1' }).generateScore(() => 1);
const item = agentRun('a', 'b');
const workflow = { createRun: () => ({ start: async () => Promise.resolve({ status: 'success', result: 1, steps: {} }) }) };

async function failure(options: unknown): Promise<{ code: string; field: string; message: string; error: unknown }> {
  const error = await runEvals(options as RunEvalsOptions).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TracejudgeError);
  expect(error).toBeInstanceOf(RunEvalsError);
  expect(error).toBeInstanceOf(api.RunEvalsError);
  expect(error).not.toBeInstanceOf(TypeError);
  const e = error as { code: string; field: string; message: string };
  return { code: e.code, field: e.field, message: e.message, error };
}

describe('runEvals misuse', () => {
  const usage: Array<[string, unknown, string, RegExp]> = [
    ['options not an object', undefined, 'options', /must be an object/],
    ['data not an array', { data: 'x', scorers: [one] }, 'data', /must be an array/],
    ['empty data', { data: [], scorers: [one] }, 'data', /no data/],
    ['an item that is not an object', { data: [item, 7], scorers: [one] }, 'data[1]', /must be an object/],
    ['an item without output and no target', { data: [item, item, item, { input: 'x' }], scorers: [one] }, 'data[3].output', /no target/],
    ['an item without input for a target', { data: [item, item, item, { groundTruth: 'g' }], scorers: [one], target: () => 'x' }, 'data[3].input', /missing/],
    ['scorers missing', { data: [item] }, 'scorers', /must be an array of scorers, a WorkflowScorerConfig/],
    ['scorers a string', { data: [item], scorers: 'one' }, 'scorers', /WorkflowScorerConfig/],
    ['scorers a single scorer', { data: [item], scorers: one }, 'scorers', /scorers: \[scorer\]/],
    ['no scorers', { data: [item], scorers: [] }, 'scorers', /no scorers/],
    ['a scorer entry without run()', { data: [item], scorers: [one, { id: 'x', description: 'd' }] }, 'scorers[1]', /no run\(\)/],
    ['a scorer entry that is null', { data: [item], scorers: [null] }, 'scorers[0]', /must be a scorer/],
    ['a threshold entry without a scorer', { data: [item], scorers: [{ scorer: {}, threshold: 0.5 }] }, 'scorers[0].scorer', /no run\(\)/],
    ['a threshold out of range', { data: [item], scorers: [{ scorer: one, threshold: 2 }] }, 'scorers[0].threshold', /\[0, 1\]/],
    ['a threshold min > max', { data: [item], scorers: [{ scorer: one, threshold: { min: 0.8, max: 0.2 } }] }, 'scorers[0].threshold', /greater than max/],
    ['an empty threshold object', { data: [item], scorers: [{ scorer: one, threshold: {} }] }, 'scorers[0].threshold', /min or max/],
    ['a WorkflowScorerConfig without a Workflow target', { data: [item], scorers: { workflow: [one] } }, 'scorers', /needs a Workflow target/],
    ['an AgentScorerConfig with a Workflow target', { data: [{ input: {} }], target: workflow, scorers: { agent: [one] } }, 'scorers', /cannot score a Workflow/],
    ['an unknown config key', { data: [{ input: {} }], target: workflow, scorers: { workflows: [one] } }, 'scorers.workflows', /unknown key/],
    ['scorers.steps[id] not an array', { data: [{ input: {} }], target: workflow, scorers: { steps: { check: one } } }, 'scorers.steps["check"]', /must be an array/],
    ['a scorer in steps without run()', { data: [{ input: {} }], target: workflow, scorers: { steps: { check: [{}] } } }, 'scorers.steps["check"][0]', /no run\(\)/],
    ['a threshold inside a config', { data: [{ input: {} }], target: workflow, scorers: { workflow: [{ scorer: one, threshold: 0.5 }] } }, 'scorers.workflow[0]', /only supported in a scorers array/],
    ['an empty config', { data: [{ input: {} }], target: workflow, scorers: { workflow: [], steps: {} } }, 'scorers', /no workflow, step or trajectory scorers/],
    ['a target of the wrong type', { data: [item], scorers: [one], target: 42 }, 'target', /must be a function, an Agent/],
    ['an object target with neither generate nor createRun', { data: [item], scorers: [one], target: { run: () => 1 } }, 'target', /must be a function, an Agent/],
    ['concurrency 0', { data: [item], scorers: [one], concurrency: 0 }, 'concurrency', /integer ≥ 1/],
    ['onItemComplete not a function', { data: [item], scorers: [one], onItemComplete: 'x' }, 'onItemComplete', /must be a function/],
    ['targetOptions not an object', { data: [{ input: 'q' }], scorers: [one], target: () => 'x', targetOptions: 3 }, 'targetOptions', /must be an object/],
  ];

  it.each(usage)('%s → TJ_USAGE naming the field', async (_name, options, field, message) => {
    const f = await failure(options);
    expect(f.code).toBe('TJ_USAGE');
    expect(f.field).toBe(field);
    expect(f.message).toContain(`runEvals: ${field}`);
    expect(f.message).toMatch(message);
  });

  it('an Agent whose generate throws → TJ_SCORER_FAILED naming target and the item, with the cause', async () => {
    const cause = new TypeError('model exploded');
    let calls = 0;
    const agent = {
      generate: async (input: unknown) => {
        calls++;
        if (input === 'bad') throw cause;
        return Promise.resolve({ text: 'ok' });
      },
    };
    const f = await failure({ target: agent, data: [{ input: 'good' }, { input: 'bad' }], scorers: [one] });
    expect(f).toMatchObject({ code: 'TJ_SCORER_FAILED', field: 'target' });
    expect(f.message).toBe('runEvals: target.generate() failed on data[1]: model exploded');
    expect((f.error as Error).cause).toBe(cause);
    expect(calls).toBe(2);
  });

  it('an Agent whose generate returns no result object, or one without text and scoringData → TJ_USAGE target', async () => {
    expect(await failure({ target: { generate: () => 'just text' }, data: [{ input: 'q' }], scorers: [one] })).toMatchObject({ code: 'TJ_USAGE', field: 'target' });
    const f = await failure({ target: { generate: () => ({ finishReason: 'stop' }) }, data: [{ input: 'q' }], scorers: [one] });
    expect(f).toMatchObject({ code: 'TJ_USAGE', field: 'target' });
    expect(f.message).toMatch(/neither scoringData.output nor text/);
  });

  it('a Workflow whose createRun() gives no start(), or whose run throws → coded errors naming target', async () => {
    expect(await failure({ target: { createRun: () => ({}) }, data: [{ input: {} }], scorers: [one] })).toMatchObject({ code: 'TJ_USAGE', field: 'target' });
    const thrown = await failure({
      target: { createRun: () => ({ start: () => Promise.reject(new Error('step blew up')) }) },
      data: [{ input: {} }],
      scorers: [one],
    });
    expect(thrown).toMatchObject({ code: 'TJ_SCORER_FAILED', field: 'target', message: 'runEvals: workflow run.start() failed on data[0]: step blew up' });
  });

  it('a throwing target function and a throwing onItemComplete are coded errors', async () => {
    const t = await failure({ target: () => { throw new Error('no'); }, data: [{ input: 'q' }], scorers: [one] });
    expect(t).toMatchObject({ code: 'TJ_SCORER_FAILED', field: 'target', message: 'runEvals: target failed on data[0]: no' });
    const c = await failure({ data: [item], scorers: [one], onItemComplete: () => { throw new TypeError('x is undefined'); } });
    expect(c).toMatchObject({ code: 'TJ_USAGE', field: 'onItemComplete', message: 'runEvals: onItemComplete failed on data[0]: x is undefined' });
  });

  it('a throwing step scorer names its place in the config', async () => {
    const bad = createScorer({ id: 'bad', description: 'd' }).generateScore(() => {
      throw new Error('kaput');
    });
    const wf = { createRun: () => ({ start: async () => Promise.resolve({ status: 'success', result: 1, steps: { s1: { status: 'success', output: 2 } } }) }) };
    const f = await failure({ target: wf, data: [{ input: {} }], scorers: { steps: { s1: [bad] } } });
    expect(f).toMatchObject({ code: 'TJ_SCORER_FAILED', field: 'scorers.steps["s1"][0]' });
    expect(f.message).toBe('runEvals: scorer bad failed on step "s1" of data[0]: Scorer Run Failed: kaput');
  });
});

describe('runExperiment', () => {
  it('is the same function as runEvals, in the module and in the public API', () => {
    expect(runExperiment).toBe(runEvals);
    expect(api.runExperiment).toBe(api.runEvals);
    expect(api.runEvals).toBe(runEvals);
  });
});
