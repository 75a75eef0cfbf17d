import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createScorer,
  isNotScorable,
  notScorable,
  ScorerDefinitionError,
  ScorerRunError,
  type JudgeCallArgs,
  type JudgeModelPort,
} from '../../../src/scorers/core/index.js';
import type { JudgePorts } from '../../../src/scorers/core/scorer.js';

/** A scripted judge: answers from a queue, records every call. */
function scriptedPort(answers: unknown[]): JudgeModelPort & { calls: Array<JudgeCallArgs & { schema?: unknown }> } {
  const calls: Array<JudgeCallArgs & { schema?: unknown }> = [];
  return {
    calls,
    generateObject(args) {
      calls.push(args);
      const next = answers.shift();
      if (next instanceof Error) return Promise.reject(next);
      return Promise.resolve({ object: args.schema.parse(next), usage: { inputTokens: 10, outputTokens: 2 }, durationMs: 5, modelId: 'scripted-1' });
    },
    generateText(args) {
      calls.push(args);
      return Promise.resolve({ text: String(answers.shift()), usage: { inputTokens: 7 }, durationMs: 3, modelId: 'scripted-1', provider: 'test' });
    },
  };
}

describe('createScorer', () => {
  it('throws a coded error without an id', () => {
    expect(() => createScorer({ description: 'd' } as never)).toThrow(ScorerDefinitionError);
    try {
      createScorer({ id: '', description: 'd' });
    } catch (e) {
      expect((e as ScorerDefinitionError).referenceId).toBe('MASTR_SCORER_FAILED_TO_CREATE_MISSING_ID');
      expect((e as ScorerDefinitionError).code).toBe('TJ_SCORER_FAILED');
    }
  });

  it('name defaults to id; builder is immutable and ordered', () => {
    const base = createScorer({ id: 's', description: 'd' });
    expect(base.name).toBe('s');
    expect(createScorer({ id: 's', name: 'S', description: 'd' }).name).toBe('S');
    const a = base.preprocess(() => 1);
    const b = a.generateScore(() => 0.5);
    expect(base.getSteps()).toEqual([]);
    expect(a.getSteps()).toEqual([{ name: 'preprocess', type: 'function' }]);
    expect(b.getSteps().map((s) => s.name)).toEqual(['preprocess', 'generateScore']);
    expect(() => a.preprocess(() => 2)).toThrow(/already added/);
  });

  it('runs function steps (sync and async), accumulates results, passes score to reason', async () => {
    const seen: unknown[] = [];
    const scorer = createScorer<string, string>({ id: 'len', description: 'd' })
      .preprocess(({ run }) => ({ n: run.output.length }))
      .analyze(async ({ results }) => {
        seen.push(results);
        await Promise.resolve();
        return results.preprocessStepResult.n * 2;
      })
      .generateScore(({ results }) => results.analyzeStepResult / 10)
      .generateReason(({ score, results }) => `score ${score} from ${results.preprocessStepResult.n}`);
    const r = await scorer.run({ input: 'q', output: 'hello', runId: 'r1' });
    expect(r.score).toBe(1);
    expect(r.reason).toBe('score 1 from 5');
    expect(r.preprocessStepResult).toEqual({ n: 5 });
    expect(r.analyzeStepResult).toBe(10);
    expect(r.runId).toBe('r1');
    expect(r.input).toBe('q');
    expect(seen[0]).toMatchObject({ preprocessStepResult: { n: 5 } });
    for (const k of ['score', 'generateScorePrompt', 'reason', 'generateReasonPrompt', 'preprocessStepResult', 'preprocessPrompt', 'analyzeStepResult', 'analyzePrompt']) {
      expect(k in r).toBe(true);
    }
    expect('judge' in r).toBe(false);
  });

  it('generates a UUID runId when absent and applies prepareRun first', async () => {
    const scorer = createScorer<unknown, string>({
      id: 'p',
      description: 'd',
      prepareRun: (run) => ({ ...run, output: run.output.toUpperCase() }),
    }).generateScore(({ run }) => (run.output === 'ABC' ? 1 : 0));
    const r = await scorer.run({ output: 'abc' });
    expect(r.score).toBe(1);
    expect(r.runId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('rejects run() without generateScore', async () => {
    await expect(createScorer({ id: 'x', description: 'd' }).preprocess(() => 1).run({ output: 1 })).rejects.toMatchObject({
      referenceId: 'MASTR_SCORER_FAILED_TO_RUN_MISSING_GENERATE_SCORE',
    });
  });

  it('notScorable stops the pipeline: no score key, later steps not run', async () => {
    let later = 0;
    const scorer = createScorer({ id: 'ns', description: 'd' })
      .preprocess(() => 'ok')
      .analyze(() => notScorable('no ground truth'))
      .generateScore(() => {
        later++;
        return 1;
      });
    const r = await scorer.run({ output: 'x' });
    expect('score' in r).toBe(false);
    expect(r.notScorable).toEqual({ step: 'analyze', reason: 'no ground truth' });
    expect(r.preprocessStepResult).toBe('ok');
    expect(later).toBe(0);
    expect(isNotScorable(notScorable())).toBe(true);
    expect(isNotScorable({ reason: 'x' })).toBe(false);
    expect(isNotScorable({ [Symbol.for('mastra.evals.notScorable')]: true })).toBe(true);
  });

  it('wraps a failing step in ScorerRunError naming the step', async () => {
    const scorer = createScorer({ id: 'f', description: 'd' })
      .preprocess(() => 1)
      .analyze(() => {
        throw new Error('Input and output messages cannot be null or empty');
      })
      .generateScore(() => 1);
    const err = await scorer.run({ output: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ScorerRunError);
    const e = err as ScorerRunError;
    expect(e.message).toBe('Scorer Run Failed: Input and output messages cannot be null or empty');
    expect(e.failedStep).toBe('analyze');
    expect(e.completedSteps).toEqual(['preprocess']);
    expect(e.result).toEqual({ preprocessStepResult: 1 });
  });

  it('rejects a NaN or non-number score', async () => {
    await expect(createScorer({ id: 'n', description: 'd' }).generateScore(() => NaN).run({ output: 1 })).rejects.toThrow(/NaN/);
    await expect(
      createScorer({ id: 'n', description: 'd' })
        .generateScore(() => 'high' as unknown as number)
        .run({ output: 1 }),
    ).rejects.toThrow(/string, not a number/);
  });

  it('runs prompt-object steps through the judge port, with prompts and executions recorded', async () => {
    const port = scriptedPort([{ claims: ['a', 'b'] }, { score: 0.42 }, 'The score is 0.42 because.']);
    const scorer = createScorer<string, string>({ id: 'j', description: 'd', judge: { model: port, instructions: 'SYS' } })
      .preprocess({
        description: 'Extract claims',
        outputSchema: z.object({ claims: z.array(z.string()) }),
        createPrompt: ({ run }) => `claims of ${run.output}`,
      })
      .generateScore({ description: 'score', createPrompt: ({ results }) => `n=${results.preprocessStepResult.claims.length}` })
      .generateReason({ description: 'why', createPrompt: ({ score }) => `explain ${score}` });
    expect(scorer.getSteps()).toEqual([
      { name: 'preprocess', type: 'prompt', description: 'Extract claims' },
      { name: 'generateScore', type: 'prompt', description: 'score' },
      { name: 'generateReason', type: 'prompt', description: 'why' },
    ]);
    expect(scorer.hasJudge).toBe(true);
    const r = await scorer.run({ output: 'out' });
    expect(r.preprocessStepResult).toEqual({ claims: ['a', 'b'] });
    expect(r.preprocessPrompt).toBe('claims of out');
    expect(r.score).toBe(0.42);
    expect(r.generateScorePrompt).toBe('n=2');
    expect(r.reason).toBe('The score is 0.42 because.');
    expect(r.generateReasonPrompt).toBe('explain 0.42');
    expect(port.calls.map((c) => [c.stepName, c.instructions, c.scorerId])).toEqual([
      ['preprocess', 'SYS', 'j'],
      ['generateScore', 'SYS', 'j'],
      ['generateReason', 'SYS', 'j'],
    ]);
    expect(r.judge?.preprocess?.executions[0]).toMatchObject({
      status: 'success',
      output: { claims: ['a', 'b'] },
      judgeModelId: 'scripted-1',
      usage: { inputTokens: 10, outputTokens: 2 },
      attemptCount: 1,
      modelCallCount: 1,
    });
    expect(r.judge?.generateReason?.executions[0]).toMatchObject({ status: 'success', judgeProvider: 'test' });
  });

  it('step-level judge overrides the scorer judge', async () => {
    const scorerPort = scriptedPort([]);
    const stepPort = scriptedPort([{ score: 1 }]);
    const scorer = createScorer({ id: 'o', description: 'd', judge: { model: scorerPort, instructions: 'A' } }).generateScore({
      description: 's',
      createPrompt: () => 'p',
      judge: { model: stepPort, instructions: 'B' },
    });
    expect((await scorer.run({ output: 1 })).score).toBe(1);
    expect(scorerPort.calls).toHaveLength(0);
    expect(stepPort.calls[0]?.instructions).toBe('B');
  });

  it('fails a prompt step with no model, and records failed judge executions', async () => {
    const noJudge = createScorer({ id: 'nj', description: 'd' }).generateScore({ description: 's', createPrompt: () => 'p' });
    await expect(noJudge.run({ output: 1 })).rejects.toMatchObject({ failedStep: 'generateScore' });

    const port = scriptedPort([new Error('judge timed out')]);
    const scorer = createScorer({ id: 'jf', description: 'd', judge: { model: port, instructions: 'S' } })
      .analyze({ description: 'a', outputSchema: z.object({ ok: z.boolean() }), createPrompt: () => 'p' })
      .generateScore(() => 1);
    const e = (await scorer.run({ output: 1 }).catch((x: unknown) => x)) as ScorerRunError;
    expect(e.message).toBe('Scorer Run Failed: judge timed out');
    expect(e.failedStep).toBe('analyze');
    expect(e.result.analyzePrompt).toBe('p');
    expect(e.result.judge).toMatchObject({ analyze: { executions: [{ status: 'failed', error: { message: 'judge timed out' } }] } });
  });

  it('resolves non-port models through the judge resolver given to run', async () => {
    const port = scriptedPort([{ score: 0.3 }]);
    const judges: JudgePorts = { resolve: (m) => (m === 'gpt-test' ? port : undefined) };
    const scorer = createScorer({ id: 'r', description: 'd', judge: { model: 'gpt-test', instructions: 'S' } }).generateScore({
      description: 's',
      createPrompt: () => 'p',
    });
    expect((await scorer.run({ output: 1 }, { judges })).score).toBe(0.3);
    await expect(
      createScorer({ id: 'r2', description: 'd', judge: { model: 'other', instructions: 'S' } })
        .generateScore({ description: 's', createPrompt: () => 'p' })
        .run({ output: 1 }, { judges }),
    ).rejects.toThrow(/no judge can serve model other/);
  });

  it('rejects malformed steps at build time', () => {
    const s = createScorer({ id: 'm', description: 'd' });
    expect(() => s.preprocess({ description: 'x', createPrompt: () => 'p' } as never)).toThrow(/outputSchema/);
    expect(() => s.analyze(42 as never)).toThrow(/must be a function or a prompt object/);
  });
});
