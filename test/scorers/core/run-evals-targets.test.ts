/**
 * runEvals with Agent and Workflow targets. `@mastra/core` is not a dependency, so the targets are fakes written
 * to Mastra's documented shapes: an Agent whose `generate(input, options)` resolves to `{ text, scoringData:
 * { input: ScorerRunInputForAgent, output: MastraDBMessage[] } }` (what Mastra's agent returns with
 * `returnScorerData: true`), and a Workflow whose `createRun()` / `createRunAsync()` run's `start({ inputData })`
 * resolves to `{ status, result, steps: { [stepId]: { status, payload, output } } }`.
 */
import { describe, expect, it } from 'vitest';
import { createContentSimilarityScorer } from '../../../src/scorers/code/content-similarity/index.js';
import { createScorer } from '../../../src/scorers/core/scorer.js';
import { runEvals } from '../../../src/scorers/core/run-evals.js';
import { agentInput, assistantMessage, messageText, systemMessage, userMessage } from '../../../src/model/messages.js';
import type { RunMessage } from '../../../src/model/agent-run.js';

/** An echo agent in Mastra's result shape; records what generate() was called with. */
class EchoAgent {
  readonly calls: Array<{ input: unknown; options: Record<string, unknown> | undefined }> = [];
  async generate(input: unknown, options?: Record<string, unknown>) {
    this.calls.push({ input, options });
    const text = `${String(input)}`;
    await Promise.resolve();
    return {
      text,
      finishReason: 'stop',
      traceId: 'trace-1',
      scoringData: {
        input: agentInput({ inputMessages: [userMessage(String(input), { id: 'u1' })], systemMessages: [systemMessage('You echo.')] }),
        output: [assistantMessage(text, [], { id: 'a1' })],
      },
    };
  }
}

const outputText = createScorer({ id: 'output-text', description: 'the answer text' }).generateScore(({ run }) => {
  const out = run.output as RunMessage[];
  return out.length === 1 && messageText(out[0] as RunMessage) !== '' ? 1 : 0;
});

describe('runEvals with an Agent target', () => {
  it('calls generate(input, { returnScorerData: true, … }) and scores scoringData.input / scoringData.output', async () => {
    const agent = new EchoAgent();
    const inputs: unknown[] = [];
    const spy = createScorer({ id: 'spy', description: 'records run.input' }).generateScore(({ run }) => {
      inputs.push(run.input);
      return 1;
    });
    const targetResults: unknown[] = [];
    const r = await runEvals({
      target: agent,
      data: [{ input: 'The quick brown fox', requestContext: { tenant: 'a' } }, { input: 'Hello there' }],
      scorers: [createContentSimilarityScorer(), spy],
      targetOptions: { maxSteps: 3 },
      onItemComplete: ({ targetResult }) => {
        targetResults.push(targetResult);
      },
    });
    // An echo answers with its input: similarity 1 for both items.
    expect(r.scores['content-similarity-scorer']).toBe(1);
    expect(r.summary.totalItems).toBe(2);
    expect(agent.calls[0]).toEqual({ input: 'The quick brown fox', options: { maxSteps: 3, scorers: {}, returnScorerData: true, requestContext: { tenant: 'a' } } });
    expect(agent.calls[1]?.options).toEqual({ maxSteps: 3, scorers: {}, returnScorerData: true });
    // The scorers saw the agent's own scorer input (with its system message), not one rebuilt from the item.
    expect((inputs[0] as { systemMessages: unknown[] }).systemMessages).toEqual([{ role: 'system', content: 'You echo.' }]);
    // onItemComplete gets the generate() result itself.
    expect(targetResults).toHaveLength(2);
    expect(targetResults.map((t) => (t as { text: string }).text).sort()).toEqual(['Hello there', 'The quick brown fox']);
    expect((targetResults[0] as { traceId: string }).traceId).toBe('trace-1');
  });

  it('an agent result without scoringData is scored from the item input and result.text', async () => {
    const agent = { generate: async (input: unknown) => Promise.resolve({ text: `${String(input)}!` }) };
    const r = await runEvals({ target: agent, data: [{ input: 'abc' }], scorers: [createContentSimilarityScorer(), outputText] });
    // Dice over bigrams: 'abc' {ab, bc} vs 'abc!' {ab, bc, c!} → 2·2 / (2 + 3) = 0.8.
    expect(r.scores['content-similarity-scorer']).toBe(0.8);
    expect(r.scores['output-text']).toBe(1);
  });

  it('an AgentScorerConfig nests results under agent and trajectory', async () => {
    const toolAgent = {
      generate: async () =>
        Promise.resolve({
          text: 'done',
          scoringData: {
            input: agentInput('use the tools'),
            output: [
              assistantMessage('done', [
                { toolCallId: 'c1', toolName: 'search', args: { q: 'x' }, state: 'result', result: { hits: 1 } },
                { toolCallId: 'c2', toolName: 'summarize', args: {}, state: 'result', result: 'ok' },
              ]),
            ],
          },
        }),
    };
    const names: string[][] = [];
    const trajectory = createScorer({ id: 'tools', description: 'tool names', type: 'trajectory' }).generateScore(({ run }) => {
      names.push((run.output as { steps: Array<{ name: string }> }).steps.map((s) => s.name));
      return (run.output as { steps: unknown[] }).steps.length === 2 ? 1 : 0;
    });
    let seen: unknown;
    const r = await runEvals({
      target: toolAgent,
      data: [{ input: 'go' }],
      scorers: { agent: [outputText], trajectory: [trajectory] },
      onItemComplete: ({ scorerResults }) => {
        seen = scorerResults;
      },
    });
    expect(r.scores).toEqual({ agent: { 'output-text': 1 }, trajectory: { tools: 1 } });
    expect(names).toEqual([['search', 'summarize']]);
    expect(Object.keys(seen as object)).toEqual(['agent', 'trajectory']);
  });
});

/** A workflow with three steps; `check` fails. `createRun` is async, as in Mastra 1.x. */
function makeWorkflow(variant: 'createRun' | 'createRunAsync') {
  const starts: Array<Record<string, unknown>> = [];
  const run = {
    start: async (args: Record<string, unknown>) => {
      starts.push(args);
      const data = args.inputData as { query: string };
      await Promise.resolve();
      return {
        status: 'success',
        result: { answer: data.query.toUpperCase() },
        steps: {
          validate: { status: 'success', payload: data, output: { ok: true }, startedAt: 100, endedAt: 110 },
          process: { status: 'success', payload: { ok: true }, output: { answer: data.query.toUpperCase() }, startedAt: 110, endedAt: 150 },
          check: { status: 'failed', payload: {}, error: 'boom', startedAt: 150, endedAt: 151 },
        },
        stepExecutionPath: ['validate', 'process', 'check'],
      };
    },
  };
  const wf = variant === 'createRun' ? { id: 'wf', createRun: async () => Promise.resolve(run) } : { id: 'wf', createRunAsync: async () => Promise.resolve(run) };
  return { wf, starts };
}

describe('runEvals with a Workflow target', () => {
  const answerIsUpper = createScorer({ id: 'upper', description: 'answer is upper case' }).generateScore(({ run }) => {
    const out = run.output as { answer?: string } | undefined;
    return out?.answer !== undefined && out.answer === out.answer.toUpperCase() ? 1 : 0;
  });
  const okStep = createScorer({ id: 'ok', description: 'step ok' }).generateScore(({ run }) => ((run.output as { ok?: boolean }).ok ? 1 : 0));
  const seenPayloads: unknown[] = [];
  const payload = createScorer({ id: 'payload', description: 'records input' }).generateScore(({ run }) => {
    seenPayloads.push(run.input);
    return 0.5;
  });
  let checkRuns = 0;
  const never = createScorer({ id: 'never', description: 'on a failed step' }).generateScore(() => {
    checkRuns++;
    return 1;
  });

  it('runs start({ inputData }) and scores WorkflowScorerConfig workflow / steps / trajectory as Mastra nests them', async () => {
    const { wf, starts } = makeWorkflow('createRun');
    const steps: string[][] = [];
    const trajectory = createScorer({ id: 'path', description: 'step order', type: 'trajectory' }).generateScore(({ run }) => {
      steps.push((run.output as { steps: Array<{ name: string }> }).steps.map((s) => s.name));
      return 1;
    });
    const targetResults: unknown[] = [];
    const results: unknown[] = [];
    const r = await runEvals({
      target: wf,
      data: [{ input: { query: 'a' }, startOptions: { runtimeFlag: true } }, { input: { query: 'b' } }],
      scorers: { workflow: [answerIsUpper], steps: { validate: [okStep, payload], process: [payload], check: [never] }, trajectory: [trajectory] },
      targetOptions: { perStep: true },
      onItemComplete: ({ targetResult, scorerResults }) => {
        targetResults.push(targetResult);
        results.push(scorerResults);
      },
    });
    expect(r.scores).toEqual({
      workflow: { upper: 1 },
      steps: { validate: { ok: 1, payload: 0.5 }, process: { payload: 0.5 } },
      trajectory: { path: 1 },
    });
    expect(r.summary).toEqual({ totalItems: 2 });
    expect(checkRuns).toBe(0); // a failed step is not scored
    expect(starts[0]).toEqual({ perStep: true, runtimeFlag: true, inputData: { query: 'a' } });
    // A step's scorer input is the step's payload.
    expect(seenPayloads).toContainEqual({ query: 'a' });
    expect(seenPayloads).toContainEqual({ ok: true });
    expect(steps[0]).toEqual(['validate', 'process', 'check']);
    expect((targetResults[0] as { status: string }).status).toBe('success');
    const first = results[0] as { workflow: Record<string, { score: number }>; steps: Record<string, Record<string, { score: number }>> };
    expect(first.workflow.upper?.score).toBe(1);
    expect(Object.keys(first.steps)).toEqual(['validate', 'process']);
  });

  it('createRunAsync (Mastra 0.x) works, and a scorer list scores the workflow result', async () => {
    const { wf } = makeWorkflow('createRunAsync');
    const r = await runEvals({ target: wf, data: [{ input: { query: 'x' } }], scorers: [answerIsUpper] });
    expect(r.scores).toEqual({ upper: 1 });
  });

  it('a workflow that did not succeed gives its scorers an undefined output', async () => {
    const wf = { createRun: () => ({ start: async () => Promise.resolve({ status: 'failed', error: 'nope', steps: {} }) }) };
    const r = await runEvals({ target: wf, data: [{ input: {} }], scorers: [answerIsUpper] });
    expect(r.scores).toEqual({ upper: 0 });
  });
});
