/**
 * Issue 4 end to end: a real AI SDK run (mock model, telemetry on) whose answer contradicts its tool result is
 * sent over OTLP/protobuf to a `tracejudge serve` child process; the judge is the stub OpenAI-compatible server,
 * reached only through OPENAI_BASE_URL / OPENAI_API_KEY; records land in a JSONL file.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import stringSimilarity from 'string-similarity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluationIdFor } from '../../src/emit/evaluation-id.js';
import { startStubJudge, type StubJudge } from '../../src/testing/stub-judge/index.js';
import { runWeatherAgent, type WeatherRun } from './aisdk-agent.js';
import { CLAIMS_MARKER, expectedHallucinationScore, REASON_MARKER, scriptHallucination, VERDICTS_MARKER } from './judge-script.js';
import { childEnv, removeDir, ServeProcess, tempDir, until } from './serve-process.js';

const API_KEY = 'sk-e2e-scoring-0123456789abcdef';
const JUDGE_MODEL = 'stub-judge-e2e';
const CLAIMS = ['It is 30°C in Paris right now.', 'It is raining lightly in Paris.'];
const VERDICTS = ['yes', 'no'];
const REASON = 'The score is 0.5 because the answer says 30°C while the tool reported 18°C.';
const THRESHOLD = 0.4;

let stub: StubJudge;
let dir: string;
const serve = new ServeProcess();
let run: WeatherRun;
let records: Record<string, unknown>[] = [];

beforeAll(async () => {
  stub = await startStubJudge();
  scriptHallucination(stub, { claims: CLAIMS, verdicts: VERDICTS, reason: REASON });
  dir = await tempDir('scoring');
  const yaml = [
    'sources:',
    '  otlp:',
    '    http: { port: 0 }',
    '    grpc: { enabled: false }',
    'assembly: { decisionWaitMs: 200, tickMs: 50 }',
    'judge: { timeoutMs: 10000, maxRetries: 0 }',
    'scorers:',
    `  hallucination: { type: hallucination, threshold: ${THRESHOLD}, reason: on-fail }`,
    '  similarity: { type: content-similarity }',
    'sampling:',
    '  default: { rate: 1 }',
    'emit:',
    '  stdout: { enabled: false }',
    `  jsonl: { path: ${JSON.stringify(join(dir, 'scores.jsonl'))} }`,
    '  prometheus: { enabled: false }',
    'telemetry: { shutdownTimeoutMs: 8000 }',
    '',
  ].join('\n');
  await serve.start(dir, 'serve.yaml', yaml, childEnv({ OPENAI_BASE_URL: stub.baseURL, OPENAI_API_KEY: API_KEY, TRACEJUDGE_JUDGE_MODEL: JUDGE_MODEL }));
  run = await runWeatherAgent({
    otlpUrl: serve.otlpHttpUrl,
    seed: 'e2e-serve-scoring',
    toolTemperatureC: 18,
    answer: 'It is 30°C in Paris right now, with light rain.',
  });
  const file = join(dir, 'scores.jsonl');
  records = await until('two score records in the JSONL file', 30_000, async () => {
    const text = await readFile(file, 'utf8').catch(() => '');
    const lines = text.split('\n').filter((l) => l !== '');
    return lines.length >= 2 ? lines.map((l) => JSON.parse(l) as Record<string, unknown>) : undefined;
  });
}, 90_000);

afterAll(async () => {
  await serve.stop().catch(() => serve.kill());
  serve.kill();
  await stub?.close();
  await removeDir(dir);
});

describe('tracejudge serve scores a real AI SDK trace received over OTLP', () => {
  it('the hallucination record follows the stub verdicts by the documented formula (docs/scorers.md)', () => {
    const h = records.find((r) => r.scorer === 'hallucination');
    expect(h, JSON.stringify(records)).toBeDefined();
    const expected = expectedHallucinationScore(VERDICTS);
    expect(expected).toBe(0.5);
    expect(h).toMatchObject({
      traceId: run.traceId,
      spanId: run.agentSpanId,
      agentName: 'weather-agent',
      scorer: 'hallucination',
      score: expected,
      label: 'fail', // lower is better: 0.5 > threshold 0.4
      threshold: THRESHOLD,
      reason: REASON,
      samplingRate: 1,
      judgeModel: JUDGE_MODEL,
      source: 'otlp',
    });
    expect(h?.error).toBeUndefined();
    expect(h?.evaluationId).toBe(evaluationIdFor(run.traceId, run.agentSpanId, 'hallucination', String(h?.scorerVersion)));
    expect(typeof h?.durationMs).toBe('number');
    expect(Number.isNaN(Date.parse(String(h?.timestamp)))).toBe(false);
  });

  it('the judge saw the tool result as context, the answer as output, and the claims it returned', () => {
    const claims = stub.requests.find((r) => r.user.includes(CLAIMS_MARKER) || r.system.includes(CLAIMS_MARKER));
    expect(claims?.user).toContain(run.answer);
    const analyze = stub.requests.find((r) => r.user.includes(VERDICTS_MARKER));
    expect(analyze).toBeDefined();
    // Default live context: JSON.stringify({ tool, result }) of each tool result.
    expect(analyze?.user).toContain('"temperatureC":18');
    expect(analyze?.user).toContain('getWeather');
    for (const claim of CLAIMS) expect(analyze?.user).toContain(claim);
    expect(analyze?.user).toContain(`There are ${CLAIMS.length} claims and 1 context pieces`);
    // reason: on-fail, and the evaluation failed, so the reason step ran.
    expect(stub.requests.some((r) => r.user.includes(REASON_MARKER) || r.system.includes(REASON_MARKER))).toBe(true);
    for (const r of stub.requests) {
      expect(r.model).toBe(JUDGE_MODEL);
      expect(r.headers.authorization).toBe(`Bearer ${API_KEY}`);
    }
  });

  it('the content-similarity record is the string-similarity score of question and answer', () => {
    const s = records.find((r) => r.scorer === 'similarity');
    expect(s, JSON.stringify(records)).toBeDefined();
    const norm = (t: string): string => t.toLowerCase().replace(/\s+/g, ' ').trim();
    expect(s).toMatchObject({ traceId: run.traceId, spanId: run.agentSpanId, agentName: 'weather-agent', scorer: 'similarity', source: 'otlp' });
    expect(typeof s?.score).toBe('number');
    expect(s?.score).toBe(stringSimilarity.compareTwoStrings(norm(run.question), norm(run.answer)));
    expect(s?.judgeModel).toBeUndefined();
    expect(s?.evaluationId).toBe(evaluationIdFor(run.traceId, run.agentSpanId, 'similarity', String(s?.scorerVersion)));
  });

  it('records nothing else, and the API key appears in no record or log line', () => {
    expect(records.map((r) => r.scorer).sort()).toEqual(['hallucination', 'similarity']);
    expect(JSON.stringify(records)).not.toContain(API_KEY);
    expect(serve.stderr).not.toContain(API_KEY);
  });
});
