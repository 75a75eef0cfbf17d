import { describe, expect, it } from 'vitest';
import { labelOf } from '../../../src/scorers/descriptor.js';
import { createScorerRegistry } from '../../../src/scorers/registry.js';
import { LIVE_RUN_KEY } from '../../../src/scorers/llm/shared.js';
import { agentRun, scriptedPort } from './helpers.js';

const registry = createScorerRegistry();

describe('LLM scorer types in the registry', () => {
  it('registers every type as a judge scorer', () => {
    for (const t of ['hallucination', 'faithfulness', 'answer-relevancy', 'context-precision', 'context-relevance', 'context-position', 'context-recall', 'toxicity', 'bias', 'prompt-alignment', 'tool-call-accuracy', 'answer-similarity', 'noise-sensitivity', 'summarization', 'rubric', 'multi-turn-judge', 'trajectory-accuracy']) {
      expect(registry.get(t)?.kind, t).toBe('judge');
    }
    expect(registry.get('context-recall')?.needsGroundTruth).toBe(true);
    expect(registry.get('hallucination')?.direction).toBe('lower');
  });

  it('hallucination from config judges against tool results + retrieved documents + static context', async () => {
    const port = scriptedPort({ preprocess: { claims: ['a', 'b'] }, analyze: { verdicts: [{ statement: 'a', verdict: 'yes', reason: '' }, { statement: 'b', verdict: 'no', reason: '' }] } });
    const configured = await registry.build('halluc', { type: 'hallucination', threshold: 0.4, context: ['policy: refunds take 5 days'] }, { judgeModel: port });
    const run = agentRun('Where is my order?', 'It shipped. Refund in 2 days.', {
      toolInvocations: [{ toolCallId: '1', toolName: 'orders', args: {}, state: 'result', result: { status: 'shipped' } }],
    });
    const r = await configured.scorer.run({ ...run, requestContext: { [LIVE_RUN_KEY]: { context: ['retrieved doc'] } } });
    expect(r.score).toBe(0.5);
    expect(labelOf(configured, r.score ?? 0)).toBe('fail');
    const analyze = port.calls.find((c) => c.stepName === 'analyze')?.prompt ?? '';
    const order = ['{"tool":"orders","result":{"status":"shipped"}}', 'retrieved doc', 'policy: refunds take 5 days'].map((s) => analyze.indexOf(s));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('reports bad options with their key path and a missing judge clearly', async () => {
    await expect(registry.build('t', { type: 'toxicity', scael: 2 }, { judgeModel: scriptedPort({}) })).rejects.toThrow(/scorers\.t\.scael/);
    await expect(registry.build('t', { type: 'toxicity' })).rejects.toThrow(/needs the LLM judge/);
  });
});
