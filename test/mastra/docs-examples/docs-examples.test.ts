/**
 * Every stored docs example (./examples, see harness.ts) as a test:
 *
 * - "imports only": the stored example is the doc's code block with only its import lines changed (the doc's
 *   text is rebuilt from the stored file and compared with the block in the pinned docs, and each import differs
 *   from the doc's only in its module specifier);
 * - "runs": the example runs against the scripted judge (judge.ts), an OpenAI-compatible server on 127.0.0.1
 *   reached through the environment, as a model string `openai/...` or the `openai(...)` provider object reaches
 *   OpenAI, and what it computes has the shape the doc documents (see {@link SPECS}).
 *
 * Examples that cannot run for a documented reason are in {@link LISTED}, each with the reason and the failure
 * that must happen (for a docs bug, the failure Mastra has too), so a listed example that starts to pass, or fails differently,
 * fails the suite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relative } from 'node:path';
import { docBlock, EXAMPLES_DIR, exampleFiles, importChanges, loadExample, originalOf, runExample, type ExampleRun, type LoadedExample } from './harness.js';
import { ensureReference } from '../reference.js';
import { JUDGE_KEY, startDocsJudge, unstreamedRequests } from './judge.js';

// Started before anything imports `@ai-sdk/openai` (see startDocsJudge): examples resolve tracejudge on demand.
// The AI SDK warns on stderr that reasoning models ignore `temperature`; the examples use such model names.
const sdkGlobals = globalThis as { AI_SDK_LOG_WARNINGS?: boolean };
const warnings = sdkGlobals.AI_SDK_LOG_WARNINGS;
sdkGlobals.AI_SDK_LOG_WARNINGS = false;
const judge = await startDocsJudge();
afterAll(async () => {
  sdkGlobals.AI_SDK_LOG_WARNINGS = warnings;
  await judge.close();
});
const { MastraScorer } = await import('../../../src/index.js');
// The current docs are read from the pinned packages in bench/reference, which a clean clone installs on first
// use (another test file may be installing them at the same time: ensureReference waits for it).
beforeAll(() => ensureReference(), 600_000);

type Bindings = Record<string, unknown>;
type Obj = Record<string, unknown>;

/** What one example must produce. */
interface Spec {
  /** Bindings that must be MastraScorer instances. */
  scorers?: string[];
  /** Bindings that must be scorer results: a score in [0, max] (default 1), and a reason string when documented. */
  results?: Record<string, { reason?: boolean; max?: number; score?: number }>;
  /** Bindings that must be runEvals results: `summary.totalItems`, and the keys of `scores` (per group for configs). */
  evals?: Record<string, { items: number; scores: string[] | Record<string, string[]> }>;
  /** Bindings that must be legacy metric results `{ score, info }`; `reason` when `info.reason` is documented. */
  metrics?: Record<string, { reason?: boolean; max?: number }>;
  /** Whether the example reaches the judge (at least one request) or not (none). */
  judge: boolean;
  /** Further documented facts. */
  check?: (b: Bindings, run: ExampleRun) => void;
}

const inRange = (v: unknown, max = 1): void => {
  expect(typeof v).toBe('number');
  expect(v as number).toBeGreaterThanOrEqual(0);
  expect(v as number).toBeLessThanOrEqual(max);
};
const obj = (v: unknown): Obj => {
  expect(v).toBeTypeOf('object');
  expect(v).not.toBeNull();
  return v as Obj;
};
const asError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));
const idsOf = (...scorers: unknown[]): string[] => scorers.map((s) => (s as { id: string }).id);

const R = { reason: true } as const;
const scorerOnly = (...names: string[]): Spec => ({ scorers: names, judge: false });
/** A runEvals example over one scorer binding `scorer` with `items` data items, reaching the judge or not. */
const evalsOfScorer = (items: number, judgeCalls: boolean): Spec => ({
  scorers: ['scorer'],
  judge: judgeCalls,
  check: (b) => {
    const r = obj(b.result);
    expect(obj(r.summary).totalItems).toBe(items);
    expect(Object.keys(obj(r.scores))).toEqual(idsOf(b.scorer));
    inRange(obj(r.scores)[idsOf(b.scorer)[0] ?? '']);
  },
});
const legacyLlm = (...names: string[]): Spec => ({ metrics: Object.fromEntries(names.map((n) => [n, R])), judge: true });
const legacyCode = (...names: string[]): Spec => ({ metrics: Object.fromEntries(names.map((n) => [n, {}])), judge: false });

const SPECS: Record<string, Spec> = {
  'core/create-scorer.block-3.md': scorerOnly('agentScorer'),
  'core/create-scorer.block-4.md': scorerOnly('customScorer'),
  'core/custom-scorers.block-12.md': scorerOnly('customScorer'),
  'core/custom-scorers.block-13.md': scorerOnly('refundJudge'),
  'core/custom-scorers.block-14.md': scorerOnly('glutenCheckerScorer'),
  'core/custom-scorers.block-2.md': {
    scorers: ['quoteSourcesScorer'],
    results: { result: { score: 1 } },
    judge: true,
    check: (b) => expect(obj(obj(b.result).analyzeStepResult).hasSources).toBe(true),
  },
  'core/mastra-scorer.block-1.md': scorerOnly('scorer'),
  // The scorer succeeds, so the `try` path runs: one log, the score.
  'core/mastra-scorer.block-5.md': { judge: true, check: (_b, run) => inRange(run.logs[0]?.args[0]) },
  'core/mastra-scorer.block-6.md': {
    scorers: ['scorer'],
    // The doc's comments say 1.0 and "12 words", but its output has 8 words (not > 10): the score is 0.
    results: { result: { score: 0, reason: true } },
    judge: false,
    check: (b) => expect(obj(b.result).reason).toBe('Score: 0. Response has 8 words.'),
  },
  'core/not-scorable.block-1.md': scorerOnly('refundJudge'),
  'core/run-evals.block-1.md': {
    evals: { result: { items: 3, scores: ['my-scorer-1', 'my-scorer-2'] } },
    judge: false,
    check: (_b, run) => {
      // onItemComplete ran once per item (two logs each), then the two summary lines.
      expect(run.logs.filter((l) => String(l.args[0]).startsWith('Completed: '))).toHaveLength(3);
      expect(run.logs.at(-1)?.args[0]).toBe('Processed 3 items');
    },
  },
  'core/run-evals.block-10.md': { evals: { result: { items: 2, scores: ['output-quality'] } }, judge: false },
  'core/run-evals.block-5.md': { scorers: ['myScorer'], evals: { result: { items: 2, scores: ['answer-relevancy-scorer'] } }, judge: true },
  'core/run-evals.block-6.md': { scorers: ['trajectoryScorer'], evals: { result: { items: 1, scores: { trajectory: ['code-trajectory-accuracy-scorer'] } } }, judge: false },
  'core/run-evals.block-7.md': { evals: { result: { items: 2, scores: ['answer-relevancy-scorer'] } }, judge: true },
  'core/run-evals.block-9.md': {
    evals: { workflowResult: { items: 1, scores: { workflow: ['output-quality'], trajectory: ['code-trajectory-accuracy-scorer'] } } },
    judge: false,
    check: (b) => expect(Object.keys(obj(obj(obj(b.workflowResult).scores).steps))).toEqual(['validate']),
  },
  'evals/answer-relevancy.block-1.md': evalsOfScorer(3, true),
  'evals/answer-similarity.block-1.md': evalsOfScorer(3, true),
  'evals/bias.block-1.md': evalsOfScorer(3, true),
  'evals/checks.block-1.md': {
    evals: { result: { items: 1, scores: ['check-includes', 'check-called-tool', 'check-tool-order', 'check-no-tool-errors'] } },
    judge: false,
    // The stand-in answers "It is sunny ..." after get_weather then summarize: every check holds.
    check: (b) => expect(Object.values(obj(obj(b.result).scores))).toEqual([1, 1, 1, 1]),
  },
  'evals/checks.block-13.md': { evals: { result: { items: 1, scores: ['check-includes', 'check-called-tool', 'check-no-tool-errors', 'answer-relevancy-scorer'] } }, judge: true },
  'evals/completeness.block-2.md': evalsOfScorer(3, false),
  'evals/content-similarity.block-1.md': evalsOfScorer(2, false),
  'evals/context-recall.block-4.md': evalsOfScorer(2, true),
  'evals/context-relevance.block-10.md': { scorers: ['scorer'], judge: false, check: (b) => expect(b.evaluateRAG).toBeTypeOf('function') },
  'evals/context-relevance.block-2.md': { scorers: ['strictScorer', 'lenientScorer'], results: { strictResult: R, lenientResult: R }, judge: true },
  'evals/context-relevance.block-6.md': { scorers: ['scorer'], results: { result: R }, judge: true },
  'evals/context-relevance.block-7.md': { scorers: ['scorer', 'customScorer'], results: { result: R, customResult: R }, judge: true },
  'evals/context-relevance.block-8.md': { scorers: ['scorer'], results: { result: R }, judge: true },
  'evals/context-relevance.block-9.md': scorerOnly('scorer'),
  'evals/faithfulness.block-1.md': evalsOfScorer(2, true),
  'evals/hallucination.block-1.md': scorerOnly('scorer'),
  'evals/hallucination.block-2.md': scorerOnly('scorer'),
  'evals/hallucination.block-3.md': {
    scorers: ['hallucinationScorer'],
    judge: false,
    check: (b) => expect((b.agent as { listScorers(): unknown[] }).listScorers()).toContain(b.hallucinationScorer),
  },
  'evals/hallucination.block-4.md': evalsOfScorer(2, true),
  'evals/keyword-coverage.block-2.md': evalsOfScorer(3, false),
  // Its own vitest suite (registered by the example, see below): it runs one scorer and asserts on the score.
  'evals/noise-sensitivity.block-1.md': { judge: false },
  'evals/noise-sensitivity.block-3.md': { judge: false },
  'evals/noise-sensitivity.block-10.md': { scorers: ['scorer'], results: { result: R }, judge: true },
  'evals/noise-sensitivity.block-4.md': { scorers: ['scorer'], results: { result: R }, judge: true },
  'evals/noise-sensitivity.block-5.md': { scorers: ['scorer'], results: { result: R }, judge: true },
  'evals/noise-sensitivity.block-6.md': { scorers: ['scorer'], results: { result: R }, judge: true },
  'evals/noise-sensitivity.block-7.md': scorerOnly('lenientScorer', 'strictScorer'),
  'evals/noise-sensitivity.block-8.md': { judge: false, check: (b) => expect(b.evaluateNoiseResistance).toBeTypeOf('function') },
  'evals/noise-sensitivity.block-9.md': { judge: false, check: (b) => expect(b.compareModelRobustness).toBeTypeOf('function') },
  'evals/overview.block-5.md': { judge: false, check: (b) => expect((b.evaluatedAgent as { listScorers(): unknown[] }).listScorers().every((s) => s instanceof MastraScorer)).toBe(true) },
  'evals/quick-checks.block-1.md': {
    judge: false,
    // The doc's comment: { 'check-includes': 1, 'check-called-tool': 1, 'check-no-tool-errors': 1 }.
    check: (b) => expect(obj(b.result).scores).toEqual({ 'check-includes': 1, 'check-called-tool': 1, 'check-no-tool-errors': 1 }),
  },
  'evals/quick-checks.block-2.md': {
    evals: { result: { items: 1, scores: ['check-includes', 'check-called-tool', 'check-excludes', 'check-no-tool-errors', 'faithfulness-scorer'] } },
    judge: true,
  },
  'evals/quick-checks.block-3.md': { judge: false, check: (b) => expect((b.weatherAgent as { listScorers(): unknown[] }).listScorers().length).toBeGreaterThan(0) },
  'evals/scorer-utils.block-1.md': { judge: false },
  'evals/scorer-utils.block-13.md': {
    judge: false,
    check: (b) => {
      const user = obj(b.userMessage);
      expect(user.role).toBe('user');
      expect(obj(user.content).format).toBe(2);
      const inv = obj(obj(b.assistantMessage).content).toolInvocations as Obj[];
      expect(inv.map((i) => i.toolName)).toEqual(['weatherTool']);
    },
  },
  'evals/scorer-utils.block-14.md': { results: { result: { score: 1 } }, judge: false },
  'evals/scorer-utils.block-15.md': {
    judge: false,
    check: (b) => expect((obj(b.trajectory).steps as Obj[]).map((s) => [s.stepType, s.name])).toEqual([['tool_call', 'search'], ['tool_call', 'summarize']]),
  },
  'evals/scorer-utils.block-16.md': {
    judge: false,
    check: (b) => {
      expect((obj(b.trajectory).steps as Obj[]).map((s) => [s.stepType, s.name])).toEqual([['workflow_step', 'validate'], ['workflow_step', 'process']]);
      expect(obj(b.trajectory).totalDurationMs).toBe(30);
    },
  },
  'evals/scorer-utils.block-18.md': {
    judge: false,
    check: (b) => {
      const r = obj(b.result);
      expect(r.score).toBe(1);
      expect([r.missingSteps, r.extraSteps, r.outOfOrderSteps]).toEqual([[], [], []]);
    },
  },
  // The doc passes `steps` where createTrajectoryTestRun takes `trajectory` (Mastra's too), so the run's output is
  // undefined: no steps, score 0 (Mastra's scorer throws a TypeError reading `steps` of undefined instead).
  'evals/scorer-utils.block-19.md': {
    results: { result: { score: 0 } },
    judge: false,
    check: (b) => expect(obj(b.run).output).toBeUndefined(),
  },
  // An import block only: running it shows the names are tracejudge exports; they must be functions too.
  'evals/scorer-utils.block-2.md': {
    judge: false,
    check: ((api: Record<string, unknown>) => () => {
      for (const name of ['extractTrajectory', 'extractWorkflowTrajectory', 'extractTrajectoryFromTrace']) expect(api[name], name).toBeTypeOf('function');
    })(await import('../../../src/index.js')),
  },
  'evals/scorer-utils.block-20.md': {
    judge: false,
    check: (b) => expect(b.result).toMatchObject({ score: 1, totalSteps: 3, totalTokens: 300, overStepBudget: false, overTokenBudget: false, overDurationBudget: false, redundantCalls: [] }),
  },
  'evals/scorer-utils.block-21.md': { judge: false, check: (b) => expect(b.result).toEqual({ score: 1, violatedTools: [], violatedSequences: [] }) },
  'evals/scorer-utils.block-22.md': { judge: false, check: (b) => expect(b.result).toMatchObject({ score: 1, patterns: [] }) },
  'evals/scorer-utils.block-23.md': scorerOnly('comprehensiveScorer'),
  'evals/scorer-utils.block-7.md': scorerOnly('reasoningQualityScorer'),
  'evals/summarization.block-1.md': { scorers: ['scorer'], results: { result: R }, judge: true, check: (_b, run) => expect(run.logs.map((l) => typeof l.args[0])).toEqual(['number', 'string']) },
  'evals/summarization.block-4.md': scorerOnly('scorer'),
  'evals/summarization.block-5.md': evalsOfScorer(1, true),
  'evals/textual-difference.block-2.md': evalsOfScorer(2, false),
  'evals/tone-consistency.block-2.md': evalsOfScorer(2, false),
  'evals/tool-call-accuracy.block-12.md': {
    scorers: ['codeScorer', 'llmScorer'],
    // The doc: "0 - wrong tool" for the code scorer (search-tool was called, weather-tool expected).
    results: { codeResult: { score: 0 }, llmResult: R },
    judge: true,
  },
  'evals/tool-call-accuracy.block-3.md': {
    scorers: ['scorer'],
    results: { result: { score: 1 } },
    judge: false,
    check: (b) => expect(obj(obj(b.result).preprocessStepResult).correctToolCalled).toBe(true),
  },
  'evals/tool-call-accuracy.block-9.md': { scorers: ['llmScorer'], results: { result: R }, judge: true },
  'evals/toxicity.block-2.md': evalsOfScorer(3, true),
  'evals/trajectory-accuracy.block-14.md': { scorers: ['scorer'], evals: { result: { items: 2, scores: { trajectory: ['code-trajectory-scorer'] } } }, judge: false },
  'evals/trajectory-accuracy.block-15.md': scorerOnly('scorer'),
  'evals/trajectory-accuracy.block-16.md': {
    evals: { result: { items: 1, scores: { agent: ['quality'], trajectory: ['code-trajectory-accuracy-scorer'] } } },
    judge: false,
    // The stand-in agent answers "Find and format" with search then format: the expected trajectory exactly.
    check: (b) => expect(obj(obj(obj(b.result).scores).trajectory)['code-trajectory-accuracy-scorer']).toBe(1),
  },
  'evals/trajectory-accuracy.block-17.md': {
    evals: { result: { items: 1, scores: { workflow: ['output-quality'], trajectory: ['code-trajectory-accuracy-scorer'] } } },
    judge: false,
    // `{ userId }` runs validate, process, notify: the expected steps.
    check: (b) => expect(obj(obj(obj(b.result).scores).trajectory)['code-trajectory-accuracy-scorer']).toBe(1),
  },
  'evals/trajectory-accuracy.block-7.md': {
    evals: { result: { items: 1, scores: { trajectory: ['code-trajectory-accuracy-scorer'] } } },
    judge: false,
    // The doc's comment: 1.0 (auth-tool then fetch-tool, in order). The doc logs the key 'trajectory-accuracy',
    // but the scorer's id is 'code-trajectory-accuracy-scorer' (in Mastra too), so its log line is undefined.
    check: (b, run) => {
      expect(obj(obj(obj(b.result).scores).trajectory)['code-trajectory-accuracy-scorer']).toBe(1);
      expect(run.logs[0]?.args[0]).toBeUndefined();
    },
  },
  'evals/trajectory-accuracy.block-9.md': {
    evals: { result: { items: 1, scores: { trajectory: ['code-trajectory-accuracy-scorer'] } } },
    judge: false,
    // `{ data }` runs validate-input, process-data, save-result: the expected steps. The logged key is the doc's
    // wrong one (see block 7).
    check: (b, run) => {
      expect(obj(obj(obj(b.result).scores).trajectory)['code-trajectory-accuracy-scorer']).toBe(1);
      expect(run.logs[0]?.args[0]).toBeUndefined();
    },
  },
  'legacy/answer-relevancy.block-1.md': legacyLlm('result'),
  'legacy/answer-relevancy.block-2.md': { metrics: { result: { reason: true, max: 5 } }, judge: true },
  'legacy/bias.block-1.md': legacyLlm('result'),
  'legacy/bias.block-2.md': {
    judge: true,
    check: (b) => {
      expect(Array.isArray(b.results)).toBe(true);
      for (const r of b.results as unknown[]) inRange(obj(r).score);
    },
  },
  'legacy/completeness.block-1.md': legacyCode('result'),
  'legacy/completeness.block-2.md': legacyCode('result'),
  'legacy/content-similarity.block-1.md': { metrics: { result: {} }, judge: false, check: (b) => inRange(obj(obj(b.result).info).similarity) },
  'legacy/content-similarity.block-2.md': legacyCode('result1', 'result2'),
  'legacy/context-position.block-1.md': legacyLlm('result'),
  'legacy/context-position.block-2.md': legacyLlm('result'),
  'legacy/context-precision.block-1.md': legacyLlm('result'),
  'legacy/context-precision.block-2.md': legacyLlm('result'),
  'legacy/context-relevancy.block-1.md': legacyLlm('result'),
  'legacy/context-relevancy.block-2.md': { metrics: { result: { reason: true, max: 100 } }, judge: true },
  'legacy/contextual-recall.block-1.md': legacyLlm('result'),
  'legacy/contextual-recall.block-2.md': { metrics: { result: { reason: true, max: 100 } }, judge: true },
  'legacy/faithfulness.block-1.md': legacyLlm('result'),
  'legacy/faithfulness.block-2.md': legacyLlm('result'),
  'legacy/hallucination.block-1.md': legacyLlm('result'),
  'legacy/keyword-coverage.block-1.md': legacyCode('result'),
  'legacy/keyword-coverage.block-2.md': legacyCode('result1', 'result2', 'result3'),
  'legacy/prompt-alignment.block-1.md': legacyLlm('result'),
  'legacy/readme.block-2.md': legacyLlm('toxicityResult'),
  'legacy/readme.block-3.md': legacyLlm('result'),
  'legacy/summarization.block-1.md': legacyLlm('result'),
  'legacy/summarization.block-2.md': legacyLlm('result'),
  'legacy/textual-difference.block-1.md': legacyCode('result'),
  'legacy/textual-difference.block-2.md': legacyCode('result'),
  'legacy/tone-consistency.block-1.md': legacyCode('result1', 'result2'),
  'legacy/tone-consistency.block-2.md': legacyCode('consistencyResult', 'stabilityResult'),
  'legacy/toxicity.block-1.md': legacyLlm('result'),
  'legacy/toxicity.block-2.md': { metrics: { result: { reason: true, max: 10 } }, judge: true },
};

/**
 * Examples that cannot run as written, with the reason and the failure that must happen. Each fails the same way
 * under Mastra (checked against the pinned sources; see docs/mastra-compat.md, "Docs examples").
 */
const LISTED: Record<string, { reason: string; fails: RegExp }> = {
  'core/run-evals.block-8.md': {
    reason: "docs bug: onItemComplete reads item.inputData.query, but a data item has `input` (Mastra passes the item unchanged, so it throws the same TypeError)",
    fails: /onItemComplete failed on data\[0\]: Cannot read properties of undefined \(reading 'query'\)/,
  },
  'evals/context-precision.block-4.md': {
    reason: "docs bug: the contextExtractor reads output.metadata.retrievedContext, but an agent's scorer output is a message array with no metadata, so the context is empty (Mastra throws \"No context available for evaluation\" too)",
    fails: /No context available for evaluation/,
  },
  'evals/prompt-alignment.block-13.md': {
    reason: 'docs bug: `input` is a bare message array and `output` a `{ text }` object, not a scorer run; Mastra finds no user or system prompt in it and throws as well',
    fails: /user or system prompt is required/,
  },
  'evals/prompt-alignment.block-16.md': { reason: 'docs bug: as prompt-alignment block 13 (bare message array input)', fails: /user or system prompt is required/ },
  'evals/prompt-alignment.block-18.md': { reason: 'docs bug: as prompt-alignment block 13 (bare message array input)', fails: /user or system prompt is required/ },
  'evals/prompt-alignment.block-20.md': { reason: 'docs bug: as prompt-alignment block 13 (bare message array input)', fails: /user or system prompt is required/ },
  'legacy/hallucination.block-2.md': {
    reason: 'docs bug (Mastra 0.x docs): measure() is called with one `{ input, output }` object; the documented signature is measure(input, output)',
    fails: /HallucinationMetric\.measure\(input, output\): input must be a string/,
  },
  'legacy/prompt-alignment.block-2.md': {
    reason: 'docs bug (Mastra 0.x docs): the example does not parse (multi-line text in single-quoted strings)',
    fails: /does not parse: Unterminated string literal/,
  },
};

/** Examples whose body registers its own vitest suite: run while this file's suites are collected. */
const SUITE_EXAMPLES = new Set(['evals/noise-sensitivity.block-1.md', 'evals/noise-sensitivity.block-3.md']);

const FOLDERS = ['core', 'evals', 'legacy'] as const;
const examples: LoadedExample[] = FOLDERS.flatMap((f) => exampleFiles(f)).map((f) => loadExample(f));
const keyOf = (e: LoadedExample): string => relative(EXAMPLES_DIR, e.file);

function checkSpec(spec: Spec, run: ExampleRun): void {
  const b = run.bindings;
  for (const name of spec.scorers ?? []) expect(b[name], name).toBeInstanceOf(MastraScorer);
  for (const [name, want] of Object.entries(spec.results ?? {})) {
    const r = obj(b[name]);
    inRange(r.score, want.max);
    if (want.score !== undefined) expect(r.score, `${name}.score`).toBe(want.score);
    if (want.reason) expect(r.reason, `${name}.reason`).toBeTypeOf('string');
  }
  for (const [name, want] of Object.entries(spec.evals ?? {})) {
    const r = obj(b[name]);
    expect(obj(r.summary).totalItems, `${name}.summary.totalItems`).toBe(want.items);
    const scores = obj(r.scores);
    const groups: Record<string, string[]> = Array.isArray(want.scores) ? { '': want.scores } : want.scores;
    for (const [group, ids] of Object.entries(groups)) {
      const at = group === '' ? scores : obj(scores[group]);
      expect(Object.keys(at).sort(), `${name}.scores${group ? `.${group}` : ''}`).toEqual([...ids].sort());
      for (const id of ids) inRange(at[id]);
    }
  }
  for (const [name, want] of Object.entries(spec.metrics ?? {})) {
    const r = obj(b[name]);
    inRange(r.score, want.max);
    const info = obj(r.info);
    if (want.reason) expect(info.reason, `${name}.info.reason`).toBeTypeOf('string');
  }
  spec.check?.(b, run);
}

describe('Mastra docs examples', () => {
  it('every stored example has a spec or a listed reason, not both', () => {
    const keys = examples.map(keyOf);
    expect(keys.filter((k) => (k in SPECS) === (k in LISTED))).toEqual([]);
    expect([...Object.keys(SPECS), ...Object.keys(LISTED)].filter((k) => !keys.includes(k))).toEqual([]);
  });

  for (const example of examples) {
    const key = keyOf(example);
    describe(key, () => {
      it('changes only the import lines of the doc', () => {
        expect(importChanges(example)).toEqual([]);
        const block = docBlock(example);
        expect(block, `${example.doc} block ${example.block}`).toBeDefined();
        expect(originalOf(example).trim()).toBe(block?.text.trim());
      });

      if (SUITE_EXAMPLES.has(key)) {
        // The body calls describe/it itself; its own assertions are the documented result.
        return runExample(example).then((run) => {
          if (run.error !== undefined) throw asError(run.error);
        });
      }

      const listed = LISTED[key];
      if (listed) {
        it(`cannot run as written (${listed.reason})`, async () => {
          const run: ExampleRun = await runExample(example).catch((error: unknown) => ({ error, bindings: {}, logs: [] }));
          expect(run.error).toBeDefined();
          expect(String((run.error as Error).message)).toMatch(listed.fails);
        });
        return;
      }

      it('runs against the scripted judge and returns the documented shape', async () => {
        const spec = SPECS[key];
        if (!spec) throw new Error(`${key}: no spec`);
        const before = judge.stub.requests.length;
        const run = await runExample(example);
        if (run.error !== undefined) throw asError(run.error);
        checkSpec(spec, run);
        const requests = judge.stub.requests.slice(before);
        if (spec.judge) {
          expect(requests.length).toBeGreaterThan(0);
          for (const r of requests) {
            // A model string's provider prefix is not sent; the key is the environment's.
            expect(r.model ?? '').not.toMatch(/^openai\//);
            expect(r.headers.authorization).toBe(`Bearer ${JUDGE_KEY}`);
          }
          // Streamed as Mastra's client streams: `stream: true` asked for, the answer whole as server-sent events.
          expect(unstreamedRequests(requests)).toEqual([]);
        } else expect(requests).toEqual([]);
      });
    });
  }
});
