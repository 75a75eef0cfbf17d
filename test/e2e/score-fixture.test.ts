/**
 * Issue 4 "Done when": `tracejudge score` on the committed AI SDK 6 fixture trace, with a config of several code
 * and judge scorers and the judge reached through OPENAI_BASE_URL (the stub), prints one correct record per
 * configured scorer. Expected values come from the reference libraries and the formulas in docs/scorers.md.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluationIdFor } from '../../src/emit/evaluation-id.js';
import { byMarker, reply, startStubJudge, type StubJudge } from '../../src/testing/stub-judge/index.js';
import { CLAIMS_MARKER, expectedHallucinationScore, VERDICTS_MARKER } from './judge-script.js';
import { contentSimilarity, keywordCoverage, lcsRatio, toneAgainst } from './oracles.js';
import { childEnv, removeDir, ROOT, runCli, tempDir, type CliResult } from './serve-process.js';

const FIXTURE = join(ROOT, 'test/fixtures/traces/aisdk6-two-tools.json');
const EXPECTED_RUNS = join(ROOT, 'test/fixtures/expected/aisdk6-two-tools.json');
const API_KEY = 'sk-e2e-score-0123456789abcdef';
const JUDGE_MODEL = 'stub-judge-offline';
const REFERENCE_TONE = 'The weather is nice today.';

const CLAIMS = ['It is 18°C in Paris.', 'It is 64.4°F in Paris.', 'There is light rain in Paris right now.'];
const HALLUCINATION_VERDICTS = ['no', 'no', 'yes'];
const FAITHFULNESS_VERDICTS = ['yes', 'yes', 'unsure'];
const STATEMENTS = ['It is 18°C (64.4°F) in Paris.', 'There is light rain in Paris right now.'];
const RELEVANCY_RESULTS = ['yes', 'unsure'];

interface Run {
  traceId: string;
  spanId: string;
  agentName: string;
  input: { inputMessages: { content: { content: string } }[] };
  output: { content: { content: string } }[];
}

let stub: StubJudge;
let dir: string;
let run: Run;
let result: CliResult;
let records: Record<string, unknown>[];
const byScorer = (name: string): Record<string, unknown> | undefined => records.find((r) => r.scorer === name);

beforeAll(async () => {
  const expected = JSON.parse(await readFile(EXPECTED_RUNS, 'utf8')) as { runs: Run[] };
  if (expected.runs.length !== 1 || !expected.runs[0]) throw new Error('the two-tools fixture should hold exactly one agent run');
  run = expected.runs[0];
  stub = await startStubJudge({
    script: byMarker([
      [CLAIMS_MARKER, reply.json({ claims: CLAIMS })],
      [VERDICTS_MARKER, reply.json({ verdicts: CLAIMS.map((statement, i) => ({ statement, verdict: HALLUCINATION_VERDICTS[i], reason: 'r' })) })],
      ['Judge every claim against the context', reply.json({ verdicts: FAITHFULNESS_VERDICTS.map((verdict) => ({ verdict, reason: 'r' })) })],
      ['Break the agent output below into meaningful statements', reply.json({ statements: STATEMENTS })],
      ['Rate how each statement relates', reply.json({ results: RELEVANCY_RESULTS.map((result) => ({ result, reason: 'r' })) })],
      [/^Explain an? ([a-z-]+ )+score/m, (req) => reply.text(`stub reason for: ${req.user.split('\n')[0] ?? ''}`)],
    ]),
  });
  dir = await tempDir('score');
  const config = [
    'judge: { timeoutMs: 10000, maxRetries: 0 }',
    'sampling:',
    '  default: { rate: 1 }',
    'scorers:',
    '  hallucination: { type: hallucination, threshold: 0.5, reason: always }',
    '  faithfulness: { type: faithfulness, threshold: 0.7 }',
    '  relevancy: { type: answer-relevancy, threshold: 0.7, reason: never }',
    '  similarity: { type: content-similarity }',
    '  keywords: { type: keyword-coverage, threshold: 0.5 }',
    '  difference: { type: textual-difference }',
    `  tone: { type: tone, referenceTone: ${JSON.stringify(REFERENCE_TONE)} }`,
    '  tools: { type: tool-call-accuracy-code, expectedToolOrder: [getWeather, convertTemperature] }',
    '',
  ].join('\n');
  await writeFile(join(dir, 'score.yaml'), config);
  result = await runCli(
    ['score', '-c', join(dir, 'score.yaml'), FIXTURE],
    childEnv({ OPENAI_BASE_URL: stub.baseURL, OPENAI_API_KEY: API_KEY, TRACEJUDGE_JUDGE_MODEL: JUDGE_MODEL }, 'warn'),
  );
  records = result.stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}, 90_000);

afterAll(async () => {
  await stub?.close();
  await removeDir(dir);
});

describe('tracejudge score on the AI SDK 6 two-tools fixture', () => {
  it('exits 0 and prints exactly one record per configured scorer, all for the fixture run', () => {
    expect(result.code, result.stderr).toBe(0);
    expect(records.map((r) => r.scorer).sort()).toEqual(['difference', 'faithfulness', 'hallucination', 'keywords', 'relevancy', 'similarity', 'tone', 'tools']);
    for (const r of records) {
      expect(r).toMatchObject({ traceId: run.traceId, spanId: run.spanId, agentName: 'support-agent', source: 'file', samplingRate: 1 });
      expect(r.error, JSON.stringify(r)).toBeUndefined();
      expect(r.evaluationId).toBe(evaluationIdFor(run.traceId, run.spanId, String(r.scorer), String(r.scorerVersion)));
    }
    expect(result.stdout + result.stderr).not.toContain(API_KEY);
  });

  it('judge scorers follow the stub verdicts by the documented formulas (docs/scorers.md), with labels by direction and threshold', () => {
    const h = expectedHallucinationScore(HALLUCINATION_VERDICTS);
    expect(h).toBe(0.33);
    expect(byScorer('hallucination')).toMatchObject({ score: h, label: 'pass', threshold: 0.5, judgeModel: JUDGE_MODEL });
    expect(byScorer('hallucination')?.reason).toMatch(/^stub reason for: Explain a hallucination score/); // reason: always
    // Faithfulness: round2(yes / n) = 2/3 → 0.67 < 0.7 → fail, and the reason (on-fail) was asked for.
    expect(byScorer('faithfulness')).toMatchObject({ score: 0.67, label: 'fail', threshold: 0.7, judgeModel: JUDGE_MODEL });
    expect(byScorer('faithfulness')?.reason).toMatch(/^stub reason for: /);
    // Answer relevancy: (1 + 0.3) / 2 = 0.65 < 0.7 → fail; reason: never.
    expect(byScorer('relevancy')).toMatchObject({ score: 0.65, label: 'fail', threshold: 0.7, judgeModel: JUDGE_MODEL });
    expect(byScorer('relevancy')?.reason).toBeUndefined();
    // Claims are extracted once and shared by hallucination and faithfulness (economics.sharedPreprocessing).
    expect(stub.requests.filter((r) => `${r.system}\n${r.user}`.includes(CLAIMS_MARKER))).toHaveLength(1);
    // Faithfulness and hallucination context: the two tool results.
    const analyze = stub.requests.find((r) => r.user.includes(VERDICTS_MARKER));
    expect(analyze?.user).toContain('"temperatureC":18');
    expect(analyze?.user).toContain('"fahrenheit":64.4');
  });

  it('code scorers equal the reference libraries on the run input and output', () => {
    const input = run.input.inputMessages.map((m) => m.content.content).join(', ');
    const output = run.output.map((m) => m.content.content).join(', ');
    expect(byScorer('similarity')?.score).toBe(contentSimilarity(input, output));
    expect(byScorer('keywords')?.score).toBe(keywordCoverage(input, output));
    expect(byScorer('difference')?.score).toBe(lcsRatio(input, output));
    expect(byScorer('tone')?.score).toBe(toneAgainst(output, REFERENCE_TONE));
    expect(byScorer('tools')?.score).toBe(1);
    for (const name of ['similarity', 'keywords', 'difference', 'tone', 'tools']) expect(byScorer(name)?.judgeModel).toBeUndefined();
    // keywords has a threshold; higher is better.
    const kw = byScorer('keywords');
    expect(kw?.label).toBe(Number(kw?.score) < 0.5 ? 'fail' : 'pass');
  });
});
