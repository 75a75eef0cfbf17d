import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load.js';
import { createClassifierScorer } from '../../../src/scorers/llm/classifier/index.js';
import { createGoalScorer, GOAL_SCORE_WAITING } from '../../../src/scorers/llm/goal/index.js';
import { ConfigError } from '../../../src/errors.js';
import { createScorerRegistry } from '../../../src/scorers/registry.js';
import { agentRun, scriptedPort } from './helpers.js';

const run = agentRun('Refund order 42 please.', 'I have refunded order 42.');

describe('goal scorer (docs/scorers.md)', () => {
  it.each([
    ['done', 1],
    ['waiting', GOAL_SCORE_WAITING],
    ['continue', 0],
  ] as const)('%s → %s, and the reason is the judge’s', async (decision, score) => {
    const port = scriptedPort({ analyze: { decision, reason: `because ${decision}` } });
    const r = await createGoalScorer({ judgeModel: port }).run(run);
    expect(r.score).toBe(score);
    expect(r.reason).toBe(`because ${decision}`);
    expect(port.calls).toHaveLength(1); // the reason step is a function: no second judge call
  });

  it('puts the goal (default: the first user message) and the latest messages in fenced blocks', async () => {
    const port = scriptedPort({ analyze: { decision: 'done', reason: 'r' } });
    await createGoalScorer({ judgeModel: port }).run(run);
    const prompt = port.calls[0]?.prompt ?? '';
    expect(prompt).toMatch(/^Goal: /);
    expect(prompt).toContain('Refund order 42 please.');
    expect(prompt).toContain('I have refunded order 42.');
    await createGoalScorer({ judgeModel: port, options: { goal: 'Close the ticket' } }).run(run);
    expect(port.calls[1]?.prompt).toContain('Close the ticket');
  });
});

describe('classifier scorer (docs/scorers.md)', () => {
  it('choice answers map through the scores table, with the reference reason text', async () => {
    const port = scriptedPort({ analyze: { choice: 'partly' } });
    const r = await createClassifierScorer({
      model: port,
      options: { question: 'Did the agent resolve the request?', answer: { type: 'choice', scores: { yes: 1, partly: 0.5, no: 0 } } },
    }).run(run);
    expect(r.score).toBe(0.5);
    expect(r.reason).toBe("Classifier question 'Did the agent resolve the request?' selected 'partly' (score: 0.5).");
  });

  it('score answers map to level / (levels − 1); probability answers as is', async () => {
    const levels = await createClassifierScorer({ model: scriptedPort({ analyze: { score: 3 } }), options: { question: 'q', answer: { type: 'score', levels: 5 } } }).run(run);
    expect(levels.score).toBe(0.75);
    const p = await createClassifierScorer({ model: scriptedPort({ analyze: { probability: 0.2 } }), options: { question: 'q', answer: { type: 'probability' } } }).run(run);
    expect(p.score).toBe(0.2);
  });

  it('rejects an answer outside the declared choices (schema), so the judge is re-asked upstream', async () => {
    const scorer = createClassifierScorer({ model: scriptedPort({ analyze: { choice: 'maybe' } }), options: { question: 'q', answer: { type: 'choice', scores: { yes: 1, no: 0 } } } });
    await expect(scorer.run(run)).rejects.toThrow(/Scorer Run Failed/);
  });

  it('is configurable as type classifier / goal, with option errors at their key path', () => {
    expect(() =>
      parseConfig({ scorers: { resolved: { type: 'classifier', question: 'Resolved?', answer: { type: 'choice', scores: { yes: 1, no: 0 } } }, goal: { type: 'goal' } } }, 'c.yaml', {}, { scorers: createScorerRegistry() }),
    ).not.toThrow();
    try {
      parseConfig({ scorers: { resolved: { type: 'classifier', question: 'Resolved?', answer: { type: 'score', levels: 1 } } } }, 'c.yaml', {}, { scorers: createScorerRegistry() });
      expect.unreachable('a bad level count must be rejected');
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).issues.map((i) => i.path)).toContain('scorers.resolved.answer.levels');
    }
  });
});
