/**
 * A judge that fails (HTTP 500, no retries) while a code scorer succeeds, end to end through `tracejudge serve`:
 * the failed evaluation is an error record (no score), its carrier span has ERROR status and `error.type` on the
 * evaluation event, its log event has `error.type`, ingestion goes on, and the code scorer's record is unaffected.
 * A later run, once the judge answers again, is scored normally.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carrierSpanIdFor, evaluationIdFor } from '../../src/emit/evaluation-id.js';
import { reply, startStubJudge, type StubJudge } from '../../src/testing/stub-judge/index.js';
import { OtlpReceiver } from '../emit/otlp-receiver.js';
import { runWeatherAgent, type WeatherRun } from './aisdk-agent.js';
import { scriptHallucination } from './judge-script.js';
import { childEnv, removeDir, ServeProcess, tempDir, until } from './serve-process.js';

const API_KEY = 'sk-e2e-failure-0123456789abcdef';

let stub: StubJudge;
let dir: string;
const receiver = new OtlpReceiver();
const serve = new ServeProcess();
let failed: WeatherRun;
let recovered: WeatherRun;

const recordOf = (run: WeatherRun, scorer: string): Record<string, unknown> | undefined =>
  serve.stdoutRecords().find((r) => r.traceId === run.traceId && r.scorer === scorer);

beforeAll(async () => {
  stub = await startStubJudge({ script: () => reply.serverError(500) });
  await receiver.start();
  dir = await tempDir('failure');
  const yaml = [
    'sources:',
    '  otlp:',
    '    http: { port: 0 }',
    '    grpc: { port: 0 }',
    'assembly: { decisionWaitMs: 200, tickMs: 50 }',
    'judge: { timeoutMs: 5000, maxRetries: 0 }',
    'scorers:',
    '  hallucination: { type: hallucination, threshold: 0.5 }',
    '  similarity: { type: content-similarity }',
    'sampling:',
    '  default: { rate: 1 }',
    'emit:',
    '  stdout: { enabled: true }',
    `  otlp: { endpoint: ${JSON.stringify(receiver.httpUrl)}, protocol: http/protobuf, timeoutMs: 5000 }`,
    '  prometheus: { port: 0 }',
    'telemetry: { shutdownTimeoutMs: 8000 }',
    '',
  ].join('\n');
  await serve.start(dir, 'serve.yaml', yaml, childEnv({ OPENAI_BASE_URL: stub.baseURL, OPENAI_API_KEY: API_KEY }));
  failed = await runWeatherAgent({ otlpUrl: serve.otlpHttpUrl, seed: 'e2e-failure-1', answer: 'It is 30°C in Paris right now.' });
  await until('both records of the first run', 30_000, () => (recordOf(failed, 'hallucination') && recordOf(failed, 'similarity') ? true : undefined));
  scriptHallucination(stub, { claims: ['It is 30°C in Paris right now.'], verdicts: ['yes'], reason: 'Contradicts the tool (18°C).' });
  // The second run arrives over OTLP/gRPC (the real gRPC trace exporter).
  recovered = await runWeatherAgent({
    otlpUrl: serve.otlpHttpUrl,
    grpcUrl: `http://127.0.0.1:${serve.ports.grpc}`,
    seed: 'e2e-failure-2',
    answer: 'It is 30°C in Paris right now.',
  });
  await until('both records of the second run', 30_000, () => (recordOf(recovered, 'hallucination') && recordOf(recovered, 'similarity') ? true : undefined));
  await until('four carrier spans and four log records', 30_000, () =>
    receiver.spans.filter((s) => s.name.startsWith('evaluation ')).length >= 4 && receiver.logs.length >= 4 ? true : undefined,
  );
}, 90_000);

afterAll(async () => {
  await serve.stop().catch(() => serve.kill());
  serve.kill();
  await receiver.stop();
  await stub?.close();
  await removeDir(dir);
});

describe('a failing judge, end to end', () => {
  it('yields an error record without a score, and the code scorer of the same run still scores', () => {
    const h = recordOf(failed, 'hallucination');
    expect(h?.score).toBeUndefined();
    expect(h?.label).toBeUndefined();
    // error.type is the judge failure kind (judge_http for a 500), a low-cardinality value.
    expect(h?.error).toMatchObject({ type: 'judge_http' });
    expect(String((h?.error as { message?: unknown } | undefined)?.message)).not.toContain(API_KEY);
    expect(h?.evaluationId).toBe(evaluationIdFor(failed.traceId, failed.agentSpanId, 'hallucination', String(h?.scorerVersion)));
    expect(typeof recordOf(failed, 'similarity')?.score).toBe('number');
  });

  it('puts error.type on the carrier span (status ERROR), its event and the log event', () => {
    const h = recordOf(failed, 'hallucination');
    const errorType = (h?.error as { type: string }).type;
    const span = receiver.spans.find((s) => s.spanId === carrierSpanIdFor(String(h?.evaluationId)));
    expect(span).toMatchObject({ traceId: failed.traceId, parentSpanId: failed.agentSpanId, statusCode: 2 });
    expect(span?.events[0]?.attributes['error.type']).toEqual({ type: 'string', value: errorType });
    expect(span?.events[0]?.attributes['gen_ai.evaluation.score.value']).toBeUndefined();
    const log = receiver.logs.find((l) => l.traceId === failed.traceId && l.attributes['gen_ai.evaluation.name']?.value === 'hallucination');
    expect(log?.attributes['error.type']).toEqual({ type: 'string', value: errorType });
    expect(log?.spanId).toBe(failed.agentSpanId);
  });

  it('counts the failure as outcome="error" on /metrics, and scores the next run once the judge answers', async () => {
    const text = await (await fetch(`http://127.0.0.1:${serve.ports.metrics}/metrics`)).text();
    expect(text).toMatch(/tracejudge_evaluations_total\{[^}]*gen_ai_evaluation_name="hallucination"[^}]*outcome="error"[^}]*\} 1/);
    expect(text).toMatch(/tracejudge_evaluations_total\{[^}]*gen_ai_evaluation_name="hallucination"[^}]*outcome="fail"[^}]*\} 1/);
    // The judge request itself is counted with an outcome the shipped TracejudgeJudgeErrorRateHigh alert selects.
    expect(text).toMatch(/tracejudge_judge_requests_total\{[^}]*outcome="error"[^}]*\} [1-9]/);
    expect(text).toMatch(/tracejudge_judge_requests_total\{[^}]*outcome="success"[^}]*\} [1-9]/);
    expect(recordOf(recovered, 'hallucination')).toMatchObject({ score: 1, label: 'fail', reason: 'Contradicts the tool (18°C).' });
    expect(serve.stderr).not.toContain(API_KEY);
  });
});
