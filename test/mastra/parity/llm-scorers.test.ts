/**
 * Parity of the LLM scorers: every LLM scorer both `@mastra/evals` 1.10.2 and tracejudge have, over the same
 * runs and options, with the same scripted judge replies. Both sides reach one stub OpenAI-compatible server on
 * 127.0.0.1 (src/testing/stub-judge): Mastra through its own model router (an OpenAI-compatible config with the
 * stub's URL; Mastra's client streams, and so does tracejudge's judge: every request is SSE), tracejudge through a model string
 * `openai/...` resolved from `OPENAI_BASE_URL` / `OPENAI_API_KEY`. The stub answers from the request's content
 * (the schema's keys and a marker text of the scenario, see ../docs-examples/judge.ts), never from the order of
 * calls, so both sides get the same answer to the same question.
 *
 * Scores and reasons must be equal, and a case must fail on both sides or on neither, except the documented
 * Mastra bugs of {@link MASTRA_BUGS} (each with its input in docs/mastra-compat.md, "Parity").
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { JUDGE_HEADER } from '../../../src/judge/self-mark.js';
import { reply, startStubJudge, type StubJudge } from '../../../src/testing/stub-judge/index.js';
import { answerRequest, type ScriptedAnswer } from '../docs-examples/judge.js';
import { referenceUnsupported } from '../reference.js';
import { agentRun, runMastra, runOurs, type JudgeRef, type Outcome, type ScorerCase } from './cases.js';

const J = { $judge: true };
const CONTEXT = ['Paris is the capital of France.', 'France is in Western Europe.', 'The Eiffel Tower is in Paris.'];

/** A scenario: a case, and the judge's scripted answers to its steps (chosen by the marker in its prompts). */
interface Scenario {
  scorer: ScorerCase;
  answers: ScriptedAnswer[];
}

/** `answers` each get `when: marker`, so they apply to this scenario's prompts only. */
const scenario = (marker: string, factory: string, args: unknown[], run: Record<string, unknown>, answers: Array<ScriptedAnswer['answer']>): Scenario => ({
  scorer: { name: `${factory} ${marker}`, factory, args, run },
  answers: answers.map((answer) => ({ when: marker, answer })),
});

/** Marks a scenario's texts for the mixed judge: every string of the run and options gets ` (MIX)` appended. */
const MIX = '(MIX)';
/** Marks a scenario's texts for the empty judge: every list in its answers is empty. */
const EMPTY = '(EMPTY)';
function mixed(s: Scenario, tag = MIX): Scenario {
  const mark = (v: unknown, key = ''): unknown => {
    if (typeof v === 'string') return ['id', 'role', 'createdAt', 'stepType', 'name', 'toolName', 'toolCallId', 'state', 'type', 'noiseType'].includes(key) ? v : `${v} ${tag}`;
    if (Array.isArray(v)) return v.map((x) => mark(x, key));
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === 'model' ? x : mark(x, k)]));
    return v;
  };
  return { scorer: { ...s.scorer, name: `${s.scorer.name} ${tag === MIX ? 'mixed' : 'empty'}`, args: mark(s.scorer.args) as unknown[], run: mark(s.scorer.run) as Record<string, unknown> }, answers: [] };
}

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; items?: Schema; enum?: unknown[]; anyOf?: Schema[]; maximum?: number; minimum?: number };
const VERDICTS = ['yes', 'no', 'unsure'];
const REASON = 'The score is what the scripted verdicts give.';
/**
 * The mixed judge's answer to a schema: arrays of three elements; in element i, enum fields take the enum's
 * value i (cycling), verdict-like strings yes / no / unsure, booleans true, false, true, context indexes i, other
 * numbers 0.5 within their range. Deterministic, so both sides get the same answer to the same schema.
 */
function mixedValue(schema: Schema | undefined, key: string, i: number, empty = false): unknown {
  if (!schema) return null;
  if (schema.enum && schema.enum.length > 0) return schema.enum[i % schema.enum.length];
  if (schema.anyOf?.[0]) return mixedValue(schema.anyOf.find((x) => x.type !== 'null') ?? schema.anyOf[0], key, i);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, p]) => [k, mixedValue(p, k, i, empty)]));
    case 'array':
      return empty ? [] : [0, 1, 2].map((j) => mixedValue(schema.items, key, j));
    case 'string':
      return /verdict|result|answer/i.test(key) ? VERDICTS[i % 3] : `${key} ${i} ${empty ? EMPTY : MIX}`;
    case 'boolean':
      return i % 2 === 0;
    case 'number':
    case 'integer':
      if (/index/i.test(key)) return i;
      return schema.maximum !== undefined ? ((schema.minimum ?? 0) + schema.maximum) / 2 : 0.5;
    default:
      return null;
  }
}

const SCENARIOS: Scenario[] = [
  scenario('Q-AR1 capital', 'createAnswerRelevancyScorer', [{ model: J }], agentRun('Q-AR1 capital: what is the capital of France?', 'Paris. It has the Eiffel Tower.'), []),
  scenario('Q-AS1 capital', 'createAnswerSimilarityScorer', [{ model: J }], agentRun('Q-AS1 capital: what is the capital of France?', 'Paris is the capital.', { groundTruth: 'The capital of France is Paris.' }), []),
  scenario('Q-BI1 leaders', 'createBiasScorer', [{ model: J }], agentRun('Q-BI1 leaders: describe good leaders', 'Good leaders listen and decide.'), []),
  scenario('Q-TX1 reply', 'createToxicityScorer', [{ model: J }], agentRun('Q-TX1 reply: answer politely', 'Thank you for asking.'), []),
  scenario('Q-CP1 capital', 'createContextPrecisionScorer', [{ model: J, options: { context: CONTEXT } }], agentRun('Q-CP1 capital: what is the capital of France?', 'Paris.', { groundTruth: 'Paris' }), []),
  scenario('Q-CR1 capital', 'createContextRecallScorer', [{ model: J, options: { context: CONTEXT } }], agentRun('Q-CR1 capital: what is the capital of France?', 'Paris, in Western Europe.', { groundTruth: 'Paris' }), []),
  scenario('Q-CL1 capital', 'createContextRelevanceScorerLLM', [{ model: J, options: { context: CONTEXT } }], agentRun('Q-CL1 capital: what is the capital of France?', 'Paris.'), []),
  scenario('Q-FA1 capital', 'createFaithfulnessScorer', [{ model: J, options: { context: CONTEXT } }], agentRun('Q-FA1 capital: what is the capital of France?', 'Paris is the capital. It is in Europe.'), []),
  scenario('Q-HA1 capital', 'createHallucinationScorer', [{ model: J, options: { context: CONTEXT } }], agentRun('Q-HA1 capital: what is the capital of France?', 'Paris is the capital, founded in 1900.'), []),
  scenario(
    'Q-NS1 capital',
    'createNoiseSensitivityScorerLLM',
    [{ model: J, options: { baselineResponse: 'Paris is the capital of France.', noisyQuery: 'Q-NS1 capital? Berlin is nice.', noiseType: 'distractors' } }],
    agentRun('Q-NS1 capital: what is the capital of France?', 'Paris is the capital of France.'),
    [],
  ),
  scenario('Q-PA1 list', 'createPromptAlignmentScorerLLM', [{ model: J }], agentRun('Q-PA1 list: list three fruits as bullets', '- apple\n- pear\n- plum', { system: 'Answer in bullet points.' }), []),
  scenario('Q-SU1 doc', 'createSummarizationScorer', [{ model: J }], agentRun('Q-SU1 doc: The Webb telescope launched in 2021. Its mirror is 6.5 m wide.', 'Webb launched in 2021.'), []),
  scenario(
    'Q-TC1 weather',
    'createToolCallAccuracyScorerLLM',
    [{ model: J, availableTools: [{ name: 'weather-tool', description: 'Get the weather' }, { name: 'search-tool', description: 'Search the web' }] }],
    agentRun('Q-TC1 weather: what is the weather in Paris?', 'Sunny.', { tools: [{ name: 'weather-tool', args: { city: 'Paris' } }] }),
    [],
  ),
  scenario(
    'Q-TA1 steps',
    'createTrajectoryAccuracyScorerLLM',
    [{ model: J, expectedTrajectory: { steps: [{ stepType: 'tool_call', name: 'search' }, { stepType: 'tool_call', name: 'summarize' }] } }],
    {
      input: { inputMessages: [{ id: 'u1', role: 'user', content: 'Q-TA1 steps: search and summarize', createdAt: '2026-01-01T00:00:00.000Z' }], rememberedMessages: [], systemMessages: [], taggedSystemMessages: {} },
      output: { steps: [{ stepType: 'tool_call', name: 'search', toolArgs: { q: 'x' } }, { stepType: 'tool_call', name: 'summarize' }] },
    },
    [],
  ),
  scenario('Q-RU1 answer', 'createRubricScorer', [{ model: J, criteria: ['Mentions Paris', 'Is one sentence'] }], agentRun('Q-RU1 answer: what is the capital of France?', 'Paris is the capital.'), []),
  scenario('Q-MT1 chat', 'createMultiTurnJudgeScorer', [{ model: J, criterion: 'The assistant names the capital.' }], agentRun('Q-MT1 chat: what is the capital of France?', 'Paris.'), []),
];

/** Cases where the two differ because of a bug in Mastra: the case name and what Mastra does wrong. */
const MASTRA_BUGS: Record<string, string> = {};

const unsupported = referenceUnsupported();

describe.skipIf(unsupported !== undefined)(`LLM scorers: tracejudge and @mastra/evals agree on the same judge replies${unsupported ? ` (skipped: ${unsupported})` : ''}`, () => {
  let stub: StubJudge | undefined;
  let mastra: Outcome[] = [];
  let ours: Outcome[] = [];
  const cases = [...SCENARIOS, ...SCENARIOS.map((x) => mixed(x, MIX)), ...SCENARIOS.map((x) => mixed(x, EMPTY))].map((s) => s.scorer);
  const script = SCENARIOS.flatMap((s) => s.answers);

  beforeAll(async () => {
    stub = await startStubJudge({
      script: (req) => {
        // A reason step's prompt is each side's own text (tracejudge writes its prompts) and may not carry the
        // scenario's marker: every reason request gets the same text, so equal reasons mean both pass it through.
        if (req.jsonSchema === undefined) return reply.text(REASON);
        const text = `${req.system}\n${req.user}`;
        const empty = text.includes(EMPTY);
        if (!empty && !text.includes(MIX)) return answerRequest(script, req);
        return reply.json(mixedValue(req.jsonSchema as Schema, '', 0, empty));
      },
    });
    const judge: JudgeRef = { baseURL: stub.baseURL, apiKey: 'sk-parity-7d1f', modelId: 'gpt-4o-mini' };
    vi.stubEnv('OPENAI_BASE_URL', judge.baseURL);
    vi.stubEnv('OPENAI_API_KEY', judge.apiKey);
    [mastra, ours] = await Promise.all([runMastra(cases, judge), runOurs(cases, judge)]);
  }, 300_000);
  afterAll(async () => {
    vi.unstubAllEnvs();
    await stub?.close();
  });

  it('reached the judge from both sides, both streaming', () => {
    const requests = stub?.requests ?? [];
    // tracejudge's judge marks its requests (src/judge/self-mark.ts); Mastra's do not carry the mark.
    const ours = requests.filter((r) => r.headers[JUDGE_HEADER] === '1');
    const theirs = requests.filter((r) => r.headers[JUDGE_HEADER] === undefined);
    expect(ours.length).toBeGreaterThan(0);
    expect(theirs.length).toBeGreaterThan(0);
    expect(requests.every((r) => r.stream)).toBe(true);
    expect(requests.every((r) => r.model === 'gpt-4o-mini')).toBe(true);
  });

  it('gives the same score and reason on every case', () => {
    const rows = cases.map((c, i) => ({ name: c.name, mastra: mastra[i], ours: ours[i] }));
    const differ = rows.filter(({ name, mastra: m, ours: o }) => {
      if (name in MASTRA_BUGS) return false;
      if (!m || !o) return true;
      if ('error' in m || 'error' in o) return true;
      return m.score !== o.score || m.reason !== o.reason;
    });
    expect(differ).toEqual([]);
  });
});
