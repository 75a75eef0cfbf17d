/**
 * Parity of the code scorers: every code scorer `@mastra/evals` 1.10.2 has (the five text scorers, the code
 * tool-call and trajectory scorers, and the eleven `checks`), over the same runs and options, through the pinned
 * package (one Node 22 process for all cases) and through tracejudge. Scores (and reasons, where the scorer gives one) must be equal, and a case must fail
 * on both sides or on neither. Differences that are Mastra bugs are in {@link MASTRA_BUGS} (with their inputs in
 * docs/mastra-compat.md, "Parity"); there are none for the code scorers.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { agentRun, runMastra, runOurs, type Outcome, type ScorerCase } from './cases.js';
import { referenceUnsupported } from '../reference.js';

/** (user, answer, ground truth) triples: the texts every text scorer sees. */
const TEXTS: Array<[string, string, string]> = [
  ['What is the capital of France?', 'The capital of France is Paris.', 'Paris is the capital of France.'],
  ['Same text here.', 'Same text here.', 'Same text here.'],
  ['Hello   World', 'hello world', 'HELLO WORLD'],
  ['Tell me a joke', '', 'A joke.'],
  ['Café au lait — très bon!', 'cafe au lait tres bon', 'Café au lait'],
  [
    'Explain machine learning, neural networks and training data.',
    'Machine learning trains neural networks on data. Training data shapes the model, and networks learn patterns.',
    'Machine learning uses training data to fit neural networks.',
  ],
  ['What is 2+2?', '4', 'The answer is 4.'],
  ['How was your day?', 'It was terrible and awful, I hate it. Everything went wrong!', 'It was fine.'],
  ['I love this wonderful product!', 'Great! I am so happy you love it. It is wonderful and amazing.', 'Thanks!'],
  ['List some fruits: apples, bananas, oranges.', 'Bananas and apples.', 'Apples, bananas and oranges.'],
  ['', 'Something to say.', ''],
  ['The quick brown fox jumps over the lazy dog.', 'The quick brown dog jumps over the lazy fox.', 'A fox jumps.'],
  ['Running runners ran; they were running quickly.', 'The runner runs quick runs.', 'Runs.'],
  ['Numbers: 1, 2, 3, 10, 100 and 3.14.', 'The numbers are 3.14, 100 and 1.', '1 2 3'],
];

const textCases: ScorerCase[] = TEXTS.flatMap(([user, answer, truth], i) => {
  const run = agentRun(user, answer, { groundTruth: truth });
  const n = `text ${i}`;
  return [
    { name: `${n} content-similarity`, factory: 'createContentSimilarityScorer', args: [], run },
    { name: `${n} content-similarity case+space`, factory: 'createContentSimilarityScorer', args: [{ ignoreCase: false, ignoreWhitespace: false }], run },
    { name: `${n} content-similarity case`, factory: 'createContentSimilarityScorer', args: [{ ignoreCase: false, ignoreWhitespace: true }], run },
    { name: `${n} keyword-coverage`, factory: 'createKeywordCoverageScorer', args: [], run },
    { name: `${n} textual-difference`, factory: 'createTextualDifferenceScorer', args: [], run },
    { name: `${n} tone`, factory: 'createToneScorer', args: [], run },
    { name: `${n} tone reference`, factory: 'createToneScorer', args: [{ referenceTone: truth }], run },
    { name: `${n} completeness`, factory: 'createCompletenessScorer', args: [], run },
  ];
});

/** Agent runs with tool calls, for the tool-call scorers and the checks. */
const TOOL_RUNS: Record<string, Record<string, unknown>> = {
  none: agentRun('What is the weather?', 'I cannot check the weather.'),
  weather: agentRun('What is the weather in Paris?', 'It is sunny in Paris.', { tools: [{ name: 'weather-tool', args: { city: 'Paris' }, result: { sky: 'sunny' } }] }),
  twoInOrder: agentRun('Search then summarize', 'Here is the summary.', { tools: [{ name: 'search-tool' }, { name: 'summarize-tool' }] }),
  reversed: agentRun('Search then summarize', 'Here is the summary.', { tools: [{ name: 'summarize-tool' }, { name: 'search-tool' }] }),
  repeated: agentRun('Weather twice', 'Sunny, then sunny.', { tools: [{ name: 'weather-tool' }, { name: 'weather-tool' }, { name: 'search-tool' }] }),
  failed: agentRun('Fetch it', 'The fetch failed.', { tools: [{ name: 'fetch-tool', result: { error: 'timeout' }, state: 'call' }] }),
};

const toolCases: ScorerCase[] = Object.entries(TOOL_RUNS).flatMap(([k, run]) => [
  { name: `${k} tool-call-accuracy weather`, factory: 'createToolCallAccuracyScorerCode', args: [{ expectedTool: 'weather-tool' }], run },
  { name: `${k} tool-call-accuracy weather strict`, factory: 'createToolCallAccuracyScorerCode', args: [{ expectedTool: 'weather-tool', strictMode: true }], run },
  { name: `${k} tool-call-accuracy order`, factory: 'createToolCallAccuracyScorerCode', args: [{ expectedToolOrder: ['search-tool', 'summarize-tool'] }], run },
  { name: `${k} tool-call-accuracy order strict`, factory: 'createToolCallAccuracyScorerCode', args: [{ expectedToolOrder: ['search-tool', 'summarize-tool'], strictMode: true }], run },
  { name: `${k} checks.includes`, factory: 'checks.includes', args: ['SUNNY'], run },
  { name: `${k} checks.includes case`, factory: 'checks.includes', args: ['SUNNY', { ignoreCase: false }], run },
  { name: `${k} checks.excludes`, factory: 'checks.excludes', args: ['failed'], run },
  { name: `${k} checks.equals`, factory: 'checks.equals', args: ['It is sunny in Paris.'], run },
  { name: `${k} checks.equals loose`, factory: 'checks.equals', args: ['  it is SUNNY in paris. '], run },
  { name: `${k} checks.matches`, factory: 'checks.matches', args: [{ $regex: ['sunny|summary', 'i'] }], run },
  { name: `${k} checks.similarity`, factory: 'checks.similarity', args: ['It is sunny in Paris today.'], run },
  { name: `${k} checks.similarity threshold`, factory: 'checks.similarity', args: ['It is sunny in Paris today.', { threshold: 0.95 }], run },
  { name: `${k} checks.calledTool`, factory: 'checks.calledTool', args: ['weather-tool'], run },
  { name: `${k} checks.didNotCall`, factory: 'checks.didNotCall', args: ['search-tool'], run },
  { name: `${k} checks.toolOrder`, factory: 'checks.toolOrder', args: [['search-tool', 'summarize-tool']], run },
  { name: `${k} checks.maxToolCalls`, factory: 'checks.maxToolCalls', args: [2], run },
  { name: `${k} checks.usedNoTools`, factory: 'checks.usedNoTools', args: [], run },
  { name: `${k} checks.noToolErrors`, factory: 'checks.noToolErrors', args: [], run },
]);

type Step = Record<string, unknown>;
const tool = (name: string, extra: Step = {}): Step => ({ stepType: 'tool_call', name, ...extra });
/** Trajectory runs: the run's output is the trajectory (Mastra's `type: 'trajectory'` scorers). */
const TRAJECTORIES: Record<string, Step[]> = {
  exact: [tool('search', { toolArgs: { q: 'a' } }), tool('summarize')],
  reversed: [tool('summarize'), tool('search', { toolArgs: { q: 'a' } })],
  extra: [tool('search', { toolArgs: { q: 'a' } }), tool('lookup'), tool('summarize')],
  repeated: [tool('search', { toolArgs: { q: 'a' } }), tool('search', { toolArgs: { q: 'a' } }), tool('summarize')],
  missing: [tool('search')],
  blacklisted: [tool('search'), tool('escalate'), tool('admin-override'), tool('summarize')],
  failing: [tool('fetch', { success: false }), tool('fetch', { success: false }), tool('fetch', { success: false }), tool('fallback'), tool('summarize')],
  tokens: [
    { stepType: 'model_generation', name: 'plan', promptTokens: 800, completionTokens: 400, durationMs: 3000 },
    tool('search', { durationMs: 2500 }),
    { stepType: 'model_generation', name: 'answer', promptTokens: 900, completionTokens: 100, durationMs: 1000 },
  ],
  empty: [],
};
const EXPECTED = { steps: [{ stepType: 'tool_call', name: 'search' }, { stepType: 'tool_call', name: 'summarize' }] };

const trajectoryCases: ScorerCase[] = Object.entries(TRAJECTORIES).flatMap(([k, steps]) => {
  const run = { input: { inputMessages: [], rememberedMessages: [], systemMessages: [], taggedSystemMessages: {} }, output: { steps } };
  const withItem = { ...run, expectedTrajectory: { steps: [{ name: 'search' }, { name: 'summarize' }], maxSteps: 3, blacklistedTools: ['admin-override'] } };
  return [
    { name: `${k} trajectory-accuracy relaxed`, factory: 'createTrajectoryAccuracyScorerCode', args: [{ expectedTrajectory: EXPECTED }], run },
    { name: `${k} trajectory-accuracy strict`, factory: 'createTrajectoryAccuracyScorerCode', args: [{ expectedTrajectory: EXPECTED, comparisonOptions: { ordering: 'strict' } }], run },
    { name: `${k} trajectory-accuracy unordered`, factory: 'createTrajectoryAccuracyScorerCode', args: [{ expectedTrajectory: EXPECTED, comparisonOptions: { ordering: 'unordered', allowRepeatedSteps: false } }], run },
    { name: `${k} trajectory-accuracy item`, factory: 'createTrajectoryAccuracyScorerCode', args: [], run: withItem },
    { name: `${k} trajectory defaults`, factory: 'createTrajectoryScorerCode', args: [{ defaults: { steps: EXPECTED.steps, maxSteps: 4, maxTotalTokens: 2000, maxTotalDurationMs: 5000, blacklistedTools: ['escalate'], blacklistedSequences: [['escalate', 'admin-override']], maxRetriesPerTool: 1 } }], run },
    { name: `${k} trajectory budgets`, factory: 'createTrajectoryScorerCode', args: [{ defaults: { steps: EXPECTED.steps, maxSteps: 3, blacklistedTools: ['admin-override'], maxRetriesPerTool: 1 } }], run },
    { name: `${k} trajectory weights`, factory: 'createTrajectoryScorerCode', args: [{ defaults: { steps: EXPECTED.steps, noRedundantCalls: true }, weights: { accuracy: 0.5, efficiency: 0.3, toolFailures: 0.1, blacklist: 0.1 } }], run },
    { name: `${k} trajectory item`, factory: 'createTrajectoryScorerCode', args: [], run: withItem },
  ];
});

const CASES: ScorerCase[] = [...textCases, ...toolCases, ...trajectoryCases];

/** Cases where the two differ because of a bug in Mastra: the case name and what Mastra does wrong. None. */
const MASTRA_BUGS: Record<string, string> = {};

/**
 * The unified trajectory scorer's reason is tracejudge's own wording (src/scorers/code/trajectory/reason.ts: a
 * step named once in `extra:`, `;` between efficiency issues, `ms` spaced): for it the first line (the score)
 * and the dimensions listed must agree; every other reason must be equal.
 */
export function sameReason(factory: string, a: string | null, b: string | null): boolean {
  if (factory !== 'createTrajectoryScorerCode' || a === null || b === null) return a === b;
  const shape = (r: string): string[] => r.split('\n').map((l, i) => (i === 0 ? l : (/^[A-Za-z ]+\([\d.]+\)/.exec(l)?.[0] ?? l)));
  return JSON.stringify(shape(a)) === JSON.stringify(shape(b));
}

const unsupported = referenceUnsupported();

describe.skipIf(unsupported !== undefined)(`code scorers: tracejudge and @mastra/evals agree${unsupported ? ` (skipped: ${unsupported})` : ''}`, () => {
  let mastra: Outcome[] = [];
  let ours: Outcome[] = [];
  beforeAll(async () => {
    [mastra, ours] = await Promise.all([runMastra(CASES), runOurs(CASES)]);
  }, 300_000);

  it('covers every code scorer of @mastra/evals', () => {
    const factories = new Set(CASES.map((c) => c.factory));
    const expected = [
      'createContentSimilarityScorer', 'createKeywordCoverageScorer', 'createTextualDifferenceScorer', 'createToneScorer', 'createCompletenessScorer',
      'createToolCallAccuracyScorerCode', 'createTrajectoryAccuracyScorerCode', 'createTrajectoryScorerCode',
      ...['includes', 'excludes', 'equals', 'matches', 'similarity', 'calledTool', 'didNotCall', 'toolOrder', 'maxToolCalls', 'usedNoTools', 'noToolErrors'].map((n) => `checks.${n}`),
    ];
    expect(expected.filter((f) => !factories.has(f))).toEqual([]);
    // Mastra scored the cases (not all errors): the comparison is about scores.
    expect(mastra.filter((o) => 'error' in o).length).toBeLessThan(CASES.length / 10);
  });

  it('gives the same score and reason on every case', () => {
    const differ = CASES.map((c, i) => ({ name: c.name, i, mastra: mastra[i], ours: ours[i] })).filter(({ name, i, mastra: m, ours: o }) => {
      if (name in MASTRA_BUGS) return false;
      if (!m || !o) return true;
      if ('error' in m || 'error' in o) return 'error' in m !== 'error' in o;
      return m.score !== o.score || !sameReason(CASES[i]?.factory ?? '', m.reason, o.reason);
    });
    expect(differ).toEqual([]);
  });
});


