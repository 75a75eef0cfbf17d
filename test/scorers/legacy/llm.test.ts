/**
 * The judge-based legacy metrics (Mastra 0.x `@mastra/evals/llm`): `new XMetric(model, options).measure(input,
 * output)`, with an AI SDK `MockLanguageModelV3` judge answering each judge call from a script. Expected scores
 * are derived by hand from the scripted verdicts and each scorer's documented formula (docs/scorers.md).
 */
import { describe, expect, it } from 'vitest';
import {
  AnswerRelevancyMetric,
  BiasMetric,
  ContextPositionMetric,
  ContextPrecisionMetric,
  ContextRelevancyMetric,
  ContextualRecallMetric,
  FaithfulnessMetric,
  HallucinationMetric,
  Metric,
  PromptAlignmentMetric,
  SummarizationMetric,
  ToxicityMetric,
} from '../../../src/scorers/legacy/index.js';
import { MastraScorer } from '../../../src/scorers/core/index.js';
import { promptOf, scriptedModel } from './mock-judge.js';

const REASON = 'The score is x because of the scripted verdicts.';
const v = (verdict: string, reason = 'r') => ({ verdict, reason });

describe('AnswerRelevancyMetric(model, { uncertaintyWeight, scale })', () => {
  const replies = () => [
    { statements: ['Paris is the capital.', 'France is in Europe.'] },
    { results: [{ result: 'yes', reason: 'on topic' }, { result: 'unsure', reason: 'partly' }] },
    REASON,
  ];

  it('scores (yes + w·unsure) / statements and returns info.reason', async () => {
    const model = scriptedModel(replies());
    const r = await new AnswerRelevancyMetric(model, { uncertaintyWeight: 0.3, scale: 1 }).measure('What is the capital of France?', 'Paris is the capital of France.');
    // (1 + 0.3) / 2 = 0.65.
    expect(r).toEqual({ score: 0.65, info: { reason: REASON } });
    expect([model.doStreamCalls.length, model.doGenerateCalls.length]).toEqual([3, 0]); // streamed, the judge.stream default
    expect(promptOf(model, 0)).toContain('Paris is the capital of France.'); // the answer is split into statements
    expect(promptOf(model, 1)).toContain('What is the capital of France?'); // statements are judged against the question
  });

  it('scale multiplies, and the defaults are uncertaintyWeight 0.3, scale 1', async () => {
    // (1 + 0.5) / 2 × 5 = 3.75.
    expect((await new AnswerRelevancyMetric(scriptedModel(replies()), { uncertaintyWeight: 0.5, scale: 5 }).measure('q', 'a')).score).toBe(3.75);
    expect((await new AnswerRelevancyMetric(scriptedModel(replies())).measure('q', 'a')).score).toBe(0.65);
  });
});

describe('context-checked answers', () => {
  const context = ['Paris is the capital of France.', 'Paris has 2.1 million residents.'];

  it('FaithfulnessMetric: supported claims / claims', async () => {
    const model = scriptedModel([{ claims: ['a', 'b', 'c', 'd'] }, { verdicts: [v('yes'), v('yes'), v('yes'), v('no')] }, REASON]);
    const r = await new FaithfulnessMetric(model, { context, scale: 1 }).measure('Tell me about Paris', 'Paris is the capital of France with 2.2 million residents');
    expect(r).toEqual({ score: 0.75, info: { reason: REASON } });
    expect(promptOf(model, 1)).toContain('Paris has 2.1 million residents.'); // the context reaches the judge
  });

  it('HallucinationMetric: contradicted claims / claims', async () => {
    const model = scriptedModel([{ claims: ['a', 'b'] }, { verdicts: [{ statement: 'a', verdict: 'yes', reason: 'contradicts' }, { statement: 'b', verdict: 'no', reason: 'ok' }] }, REASON]);
    const r = await new HallucinationMetric(model, { context }).measure('Tell me about Paris', 'Paris has 5 million residents and is the capital.');
    expect(r).toEqual({ score: 0.5, info: { reason: REASON } });
    expect(promptOf(model, 1)).toContain('Paris is the capital of France.');
  });
});

describe('opinion checks', () => {
  it('ToxicityMetric: toxic verdicts / verdicts', async () => {
    const model = scriptedModel([{ verdicts: [v('yes'), v('no'), v('no'), v('no')] }, REASON]);
    expect(await new ToxicityMetric(model, { scale: 1 }).measure('q', 'You are wrong, idiot.')).toEqual({ score: 0.25, info: { reason: REASON } });
  });

  it('BiasMetric: biased opinions / opinions, scale 10', async () => {
    const model = scriptedModel([{ opinions: ['o1', 'o2'] }, { results: [{ result: 'yes', reason: 'r' }, { result: 'no', reason: 'r' }] }, REASON]);
    expect((await new BiasMetric(model, { scale: 10 }).measure('q', 'Some opinions.')).score).toBe(5);
  });

  it('the older ({ model, scale }) constructor form also works', async () => {
    const model = scriptedModel([{ verdicts: [v('no'), v('no')] }, REASON]);
    expect((await new ToxicityMetric({ model, scale: 1 }).measure('q', 'Fine.')).score).toBe(0);
  });
});

describe('context metrics', () => {
  const context = ['Diet matters.', 'Exercise strengthens the heart.', 'Activity reduces stress.', 'Equipment is expensive.'];

  it('ContextPositionMetric: relevance weighted by 1/(position + 1)', async () => {
    const model = scriptedModel([{ verdicts: [v('no'), v('yes'), v('yes'), v('no')] }, REASON]);
    const r = await new ContextPositionMetric(model, { context }).measure('What are the benefits of exercise?', 'Exercise improves health.');
    // (1/2 + 1/3) / (1 + 1/2 + 1/3 + 1/4) = (10/12) / (25/12) = 0.4.
    expect(r).toEqual({ score: 0.4, info: { reason: REASON } });
    expect(promptOf(model, 0)).toContain('Equipment is expensive.');
  });

  it('ContextPrecisionMetric: mean average precision in retrieval order', async () => {
    const model = scriptedModel([
      { verdicts: [{ context_index: 0, verdict: 'yes', reason: 'r' }, { context_index: 1, verdict: 'no', reason: 'r' }, { context_index: 2, verdict: 'yes', reason: 'r' }] },
      REASON,
    ]);
    const r = await new ContextPrecisionMetric(model, { context: context.slice(0, 3) }).measure('q', 'a');
    // Precision at the relevant positions: 1/1 and 2/3 → mean 5/6 ≈ 0.83.
    expect(r).toEqual({ score: 0.83, info: { reason: REASON } });
  });

  it('ContextRelevancyMetric: graded relevance of the pieces (high 1, none 0)', async () => {
    const model = scriptedModel([
      {
        evaluations: [
          { context_index: 0, contextPiece: context[0], relevanceLevel: 'high', wasUsed: true, reasoning: 'r' },
          { context_index: 1, contextPiece: context[1], relevanceLevel: 'none', wasUsed: false, reasoning: 'r' },
        ],
        missingContext: [],
        overallAssessment: 'half relevant',
      },
      REASON,
    ]);
    const r = await new ContextRelevancyMetric(model, { context: context.slice(0, 2) }).measure('q', 'a');
    // (1 + 0) / 2, no penalty (the high piece was used, nothing missing).
    expect(r).toEqual({ score: 0.5, info: { reason: REASON } });
  });

  it('ContextualRecallMetric: share of the context claims the answer recalls', async () => {
    const model = scriptedModel([{ claims: ['cloud sync', 'offline mode', 'multi-device', 'encryption'] }, { verdicts: [v('yes'), v('yes'), v('yes'), v('no')] }, REASON]);
    const features = ['Cloud synchronization', 'Offline mode', 'Multiple devices', 'End-to-end encryption'];
    const r = await new ContextualRecallMetric(model, { context: features, scale: 100 }).measure(
      'What are the key features?',
      'It has cloud sync, offline mode and multi-device support.',
    );
    // 3 of 4 claims recalled × 100.
    expect(r).toEqual({ score: 75, info: { reason: REASON } });
    // The claims are extracted from the context, and checked against the answer.
    expect(promptOf(model, 0)).toContain('End-to-end encryption');
    expect(promptOf(model, 1)).toContain('It has cloud sync, offline mode and multi-device support.');
  });
});

describe('PromptAlignmentMetric(model, { instructions })', () => {
  it('scores the weighted dimensions and derives scoreDetails from the judged requirements', async () => {
    const instructions = ['Use bullet points', 'Include exactly three examples', 'End each point with a semicolon'];
    const model = scriptedModel([
      {
        intentAlignment: { score: 1, primaryIntent: 'list fruits', isAddressed: true, reasoning: 'r' },
        requirementsFulfillment: {
          requirements: [
            { requirement: 'Use bullet points', isFulfilled: true, reasoning: 'r' },
            { requirement: 'Include exactly three examples', isFulfilled: true, reasoning: 'r' },
            { requirement: 'End each point with a semicolon', isFulfilled: false, reasoning: 'r' },
          ],
          overallScore: 0.5,
        },
        completeness: { score: 1, missingElements: [], reasoning: 'r' },
        responseAppropriateness: { score: 0.5, formatAlignment: true, toneAlignment: true, reasoning: 'r' },
        overallAssessment: 'mostly aligned',
      },
      REASON,
    ]);
    const r = await new PromptAlignmentMetric(model, { instructions, scale: 1 }).measure('List three fruits', '• Apple\n• Banana\n• Orange');
    // 0.4·1 + 0.3·0.5 + 0.2·1 + 0.1·0.5 = 0.8 (mode both: 0.7·0.8 + 0.3·0.8).
    expect(r.score).toBe(0.8);
    expect(r.info).toEqual({
      reason: REASON,
      scoreDetails: { totalInstructions: 3, applicableInstructions: 3, followedInstructions: 2, naInstructions: 0 },
    });
    const prompt = promptOf(model, 0);
    expect(prompt).toContain('End each point with a semicolon'); // the instructions are the system prompt
    expect(prompt).toContain('List three fruits');
  });
});

describe('SummarizationMetric(model)', () => {
  it('min(alignment, coverage), with both in info', async () => {
    const model = scriptedModel([
      { alignment: [{ claim: 'c1', supported: true, reason: 'r' }, { claim: 'c2', supported: false, reason: 'r' }], questions: ['q1', 'q2', 'q3', 'q4'] },
      {
        coverage: [
          { question: 'q1', answered: true, reason: 'r' },
          { question: 'q2', answered: true, reason: 'r' },
          { question: 'q3', answered: true, reason: 'r' },
          { question: 'q4', answered: false, reason: 'r' },
        ],
      },
      REASON,
    ]);
    const original = 'Tesla was founded in 2003 by Martin Eberhard and Marc Tarpenning.';
    const r = await new SummarizationMetric(model).measure(original, 'Tesla was founded by Elon Musk in 2003.');
    // alignment 1/2, coverage 3/4 → min 0.5.
    expect(r).toEqual({ score: 0.5, info: { reason: REASON, alignmentScore: 0.5, coverageScore: 0.75 } });
    expect(promptOf(model, 0)).toContain('Martin Eberhard'); // the input is the source text
  });
});

describe('construction', () => {
  it('every judge metric is a Metric over a MastraScorer, and a model string is passed to it unchanged', () => {
    const m = new ToxicityMetric('openai/gpt-4o-mini');
    expect(m).toBeInstanceOf(Metric);
    expect(m.scorer).toBeInstanceOf(MastraScorer);
    expect((m.scorer as MastraScorer).judge?.model).toBe('openai/gpt-4o-mini');
  });

  it('misuse is a coded usage error naming the argument', () => {
    const cases: Array<[() => unknown, RegExp]> = [
      [() => new AnswerRelevancyMetric(undefined), /model must be an AI SDK model object or a model string/],
      [() => new AnswerRelevancyMetric('m', { uncertaintyWeight: 2 }), /options.uncertaintyWeight must be within \[0, 1\]/],
      [() => new FaithfulnessMetric('m', {} as never), /options.context must be a non-empty array of strings/],
      [() => new ContextPositionMetric('m', { context: [] }), /options.context must be a non-empty array/],
      [() => new PromptAlignmentMetric('m', { instructions: [1] as never }), /options.instructions must be a non-empty array of strings/],
      [() => new BiasMetric('m', { scale: 0 }), /options.scale must be a positive number, got 0/],
    ];
    for (const [make, message] of cases) {
      let err: unknown;
      try {
        make();
      } catch (e) {
        err = e;
      }
      expect(err).toMatchObject({ code: 'TJ_USAGE' });
      expect((err as Error).message).toMatch(message);
    }
  });
});
