import { describe, expect, it } from 'vitest';
import { createContextPrecisionScorer } from '../../../src/scorers/llm/context-precision/index.js';
import { createContextRelevanceScorerLLM } from '../../../src/scorers/llm/context-relevance/index.js';
import { createToxicityScorer } from '../../../src/scorers/llm/toxicity/index.js';
import { createBiasScorer } from '../../../src/scorers/llm/bias/index.js';
import { createPromptAlignmentScorerLLM } from '../../../src/scorers/llm/prompt-alignment/index.js';
import { createToolCallAccuracyScorerLLM } from '../../../src/scorers/llm/tool-call-accuracy/index.js';
import { createContextPositionScorer, contextPositionScore } from '../../../src/scorers/llm/context-position/index.js';
import { agentRun, scriptedPort } from './helpers.js';

const run = agentRun('What is the capital of France?', 'Paris is the capital of France.', { system: 'Answer briefly.' });

describe('context precision (docs/scorers.md)', () => {
  it('0:yes,1:no,2:yes delivered out of order → 0.83', async () => {
    const port = scriptedPort({
      analyze: { verdicts: [2, 0, 1].map((i) => ({ context_index: i, verdict: i === 1 ? 'no' : 'yes', reason: '' })) },
      generateReason: 'r',
    });
    const r = await createContextPrecisionScorer({ model: port, options: { context: ['a', 'b', 'c'] } }).run(run);
    expect(r.score).toBe(0.83);
  });
  it('[no, yes] → 0.5', async () => {
    const port = scriptedPort({ analyze: { verdicts: [{ context_index: 0, verdict: 'no', reason: '' }, { context_index: 1, verdict: ' YES', reason: '' }] } });
    const r = await createContextPrecisionScorer({ model: port, options: { context: ['a', 'b'] } }).run(run);
    expect(r.score).toBe(0.5);
  });
  it('construction and run-time context checks', async () => {
    const port = scriptedPort({});
    expect(() => createContextPrecisionScorer({ model: port, options: {} })).toThrow(/context or contextExtractor/);
    expect(() => createContextPrecisionScorer({ model: port, options: { context: [] } })).toThrow(/cannot be empty/);
    const s = createContextPrecisionScorer({ model: port, options: { contextExtractor: () => [] } });
    await expect(s.run(run)).rejects.toThrow(/No context available for evaluation/);
  });
});

describe('context relevance (docs/scorers.md)', () => {
  const ev = (level: string, used: boolean, i: number) => ({ context_index: i, contextPiece: 'p', relevanceLevel: level, wasUsed: used, reasoning: '' });
  it('[high used, medium unused, none unused] + 1 missing → 0.42', async () => {
    const port = scriptedPort({ analyze: { evaluations: [ev('high', true, 0), ev('medium', false, 1), ev('none', false, 2)], missingContext: ['x'], overallAssessment: '' } });
    const r = await createContextRelevanceScorerLLM({ model: port, options: { context: ['a', 'b', 'c'] } }).run(run);
    expect(r.score).toBe(0.42);
  });
  it('two high unused, none missing → 0.8', async () => {
    const port = scriptedPort({ analyze: { evaluations: [ev('high', false, 0), ev('high', false, 1)], overallAssessment: '' } });
    const r = await createContextRelevanceScorerLLM({ model: port, options: { context: ['a', 'b'] } }).run(run);
    expect(r.score).toBe(0.8);
  });
  it('extractor returning [] with scale 5 → 5, placeholder piece sent', async () => {
    const port = scriptedPort({ analyze: { evaluations: [], missingContext: [], overallAssessment: '' } });
    const r = await createContextRelevanceScorerLLM({ model: port, options: { contextExtractor: () => [], scale: 5 } }).run(run);
    expect(r.score).toBe(5);
    expect(port.calls[0]?.prompt).toContain('[No context was provided for evaluation]');
  });
  it('no evaluations: missing context → 0, none missing → 1', async () => {
    const a = scriptedPort({ analyze: { evaluations: [], missingContext: ['x'], overallAssessment: '' } });
    expect((await createContextRelevanceScorerLLM({ model: a, options: { context: ['a'] } }).run(run)).score).toBe(0);
    const b = scriptedPort({ analyze: { evaluations: [], overallAssessment: '' } });
    expect((await createContextRelevanceScorerLLM({ model: b, options: { context: ['a'] } }).run(run)).score).toBe(1);
  });
});

describe('toxicity (docs/scorers.md)', () => {
  const vs = (xs: string[]) => ({ verdicts: xs.map((verdict) => ({ verdict, reason: 'r' })) });
  it('[yes, no, no] → 0.33', async () => {
    expect((await createToxicityScorer({ model: scriptedPort({ analyze: vs(['yes', 'no', 'no']) }) }).run(run)).score).toBe(0.33);
  });
  it('[] → 1', async () => {
    expect((await createToxicityScorer({ model: scriptedPort({ analyze: vs([]) }) }).run(run)).score).toBe(1);
  });
});

describe('bias (docs/scorers.md)', () => {
  const rs = (xs: string[]) => ({ results: xs.map((result) => ({ result, reason: 'r' })) });
  it('[yes, no] → 0.5', async () => {
    expect((await createBiasScorer({ model: scriptedPort({ preprocess: { opinions: ['o1', 'o2'] }, analyze: rs(['yes', 'no']) }) }).run(run)).score).toBe(0.5);
  });
  it('[] → 0', async () => {
    expect((await createBiasScorer({ model: scriptedPort({ preprocess: { opinions: [] }, analyze: rs([]) }) }).run(run)).score).toBe(0);
  });
  it('"yes " (untrimmed) is not counted, as in the reference', async () => {
    expect((await createBiasScorer({ model: scriptedPort({ preprocess: { opinions: ['o'] }, analyze: rs(['YES', 'yes ']) }) }).run(run)).score).toBe(0.5);
  });
});

describe('prompt alignment (docs/scorers.md)', () => {
  const analysis = {
    intentAlignment: { score: 1, primaryIntent: 'i', isAddressed: true, reasoning: '' },
    requirementsFulfillment: { requirements: [], overallScore: 0.5 },
    completeness: { score: 0.8, missingElements: [], reasoning: '' },
    responseAppropriateness: { score: 0.6, formatAlignment: true, toneAlignment: true, reasoning: '' },
    overallAssessment: '',
  };
  it.each([
    ['user', 0.77],
    ['system', 0.74],
    ['both', 0.77],
  ] as const)('%s mode → %s', async (mode, expected) => {
    const r = await createPromptAlignmentScorerLLM({ model: scriptedPort({ analyze: analysis }), options: { evaluationMode: mode } }).run(run);
    expect(r.score).toBe(expected);
  });
  it('system mode without a system prompt fails in analyze', async () => {
    const s = createPromptAlignmentScorerLLM({ model: scriptedPort({ analyze: analysis }), options: { evaluationMode: 'system' } });
    await expect(s.run(agentRun('q', 'a'))).rejects.toThrow(/System prompt is required/);
  });
  it('scores outside 0..1 do not fit the schema', async () => {
    const bad = { ...analysis, completeness: { ...analysis.completeness, score: 1.5 } };
    await expect(createPromptAlignmentScorerLLM({ model: scriptedPort({ analyze: bad }) }).run(run)).rejects.toThrow();
  });
});

describe('tool-call accuracy, LLM (docs/scorers.md)', () => {
  const toolRun = agentRun('Weather in Paris?', 'It is sunny.', {
    toolInvocations: [
      { toolCallId: '1', toolName: 'weather', args: {}, state: 'result', result: { sky: 'sunny' } },
      { toolCallId: '2', toolName: 'news', args: {}, state: 'result', result: {} },
    ],
  });
  it('[appropriate, inappropriate] → 0.5', async () => {
    const port = scriptedPort({
      analyze: { evaluations: [{ toolCalled: 'weather', wasAppropriate: true, reasoning: '' }, { toolCalled: 'news', wasAppropriate: false, reasoning: '' }] },
    });
    const r = await createToolCallAccuracyScorerLLM({ model: port, availableTools: [{ id: 'weather', description: 'current weather' }] }).run(toolRun);
    expect(r.score).toBe(0.5);
    expect(port.calls[0]?.prompt).toContain('"weather", "news"');
    expect(port.calls[0]?.prompt).toContain('weather: current weather');
  });
  it('no evaluations + 1 missing tool → 0', async () => {
    const r = await createToolCallAccuracyScorerLLM({ model: scriptedPort({ analyze: { evaluations: [], missingTools: ['weather'] } }) }).run(run);
    expect(r.score).toBe(0);
  });
  it('empty input messages → preprocess error', async () => {
    const s = createToolCallAccuracyScorerLLM({ model: scriptedPort({}) });
    await expect(s.run({ input: { inputMessages: [] }, output: [{ role: 'assistant', content: 'x' }] })).rejects.toThrow(
      /Input and output messages cannot be null or empty/,
    );
  });
});

describe('context position (docs/scorers.md)', () => {
  const cases: Array<[number[], number]> = [
    [[1, 1, 1], 1],
    [[1, 0, 1], 0.73],
    [[1, 1, 0], 0.82],
    [[1, 0, 0], 0.55],
    [[0, 1, 0], 0.27],
    [[0, 0, 1], 0.18],
    [[0, 1, 1], 0.45],
    [[], 0],
    [[0, 0, 0], 0],
    [[1], 1],
  ];
  it.each(cases)('%j → %s', async (pattern, expected) => {
    const verdicts = pattern.map((b) => ({ verdict: b ? 'yes' : 'no', reason: '' }));
    const r = await createContextPositionScorer({ model: scriptedPort({ analyze: { verdicts } }), options: { context: ['a', 'b', 'c'] } }).run(run);
    expect(r.score).toBe(expected);
  });
  it('scale multiplies and verdicts are trimmed', () => {
    expect(contextPositionScore([{ verdict: ' Yes ' }, { verdict: 'no' }], 10)).toBe(6.67);
  });
});
