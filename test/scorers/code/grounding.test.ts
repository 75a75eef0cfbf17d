import { describe, expect, it } from 'vitest';
import { createGroundingScorer } from '../../../src/scorers/code/grounding/index.js';
import { msg } from './helpers.js';

const withTool = (answer: string, result: unknown) => ({
  input: { inputMessages: [msg('user', 'q')] },
  output: [msg('assistant', answer, [{ toolCallId: 'c1', toolName: 'orders', args: {}, state: 'result', result }])],
});

describe('grounding scorer', () => {
  it('counts numbers and entities found in tool results', async () => {
    const r = await createGroundingScorer().run(withTool('Order 1,250 ships to Paris on day 3.', { id: 1250, city: 'Paris', eta: 5 }));
    // items: 1250, 3, paris → 1250 and paris grounded, 3 not
    expect(r.preprocessStepResult).toMatchObject({ numbers: ['1250', '3'], entities: ['paris'], ungrounded: ['3'] });
    expect(r.score).toBe(2 / 3);
    expect(r.reason).toContain('Not found in tool results or context: 3.');
  });
  it('fully grounded, nothing to ground, no sources', async () => {
    expect((await createGroundingScorer().run(withTool('It costs 42.', { price: 42 }))).score).toBe(1);
    expect((await createGroundingScorer().run(withTool('Happy to help!', {}))).score).toBe(1);
    const none = await createGroundingScorer().run({ output: [msg('assistant', 'It costs 42.')] });
    expect(none.notScorable).toEqual({ step: 'preprocess', reason: 'no tool results or context to ground against' });
    expect((await createGroundingScorer({ context: ['price: 42'] }).run({ output: [msg('assistant', 'It costs 42.')] })).score).toBe(1);
    expect((await createGroundingScorer({ getContext: () => ['price 41'] }).run(withTool('It costs 42.', { price: 42 }))).score).toBe(0);
  });
});
