/**
 * Issue 7 end to end: `tracejudge serve` (child process) with emit.otlp pointed at a collector-shaped OTLP receiver
 * started by the test. A real AI SDK trace goes in over OTLP/protobuf; the evaluation carrier spans and
 * gen_ai.evaluation.result log records come out in the evaluated trace. A replay of the same spans to a fresh serve
 * (this time emitting over gRPC) yields the same carrier span ids.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carrierSpanIdFor, evaluationIdFor } from '../../src/emit/evaluation-id.js';
import { startStubJudge, type StubJudge } from '../../src/testing/stub-judge/index.js';
import { OtlpReceiver, type Received, type ReceivedLog, type ReceivedSpan } from '../emit/otlp-receiver.js';
import { replaySpans, runWeatherAgent, type WeatherRun } from './aisdk-agent.js';
import { expectedHallucinationScore, scriptHallucination } from './judge-script.js';
import { childEnv, removeDir, ServeProcess, tempDir, until } from './serve-process.js';

const API_KEY = 'sk-e2e-otlp-0123456789abcdef';
const CLAIMS = ['It is 30°C in Paris right now.', 'It is sunny in Paris.'];
const VERDICTS = ['yes', 'yes'];
const REASON = 'The score is 1 because both claims contradict the tool result (18°C, light rain).';
const SCORERS = ['hallucination', 'similarity'];

function serveYaml(endpoint: string, protocol: 'http/protobuf' | 'http/json' | 'grpc'): string {
  return [
    'sources:',
    '  otlp:',
    '    http: { port: 0 }',
    '    grpc: { enabled: false }',
    'assembly: { decisionWaitMs: 200, tickMs: 50 }',
    'judge: { timeoutMs: 10000, maxRetries: 0 }',
    'scorers:',
    '  hallucination: { type: hallucination, threshold: 0.5 }',
    '  similarity: { type: content-similarity }',
    'sampling:',
    '  default: { rate: 1 }',
    'emit:',
    '  stdout: { enabled: true }',
    `  otlp: { endpoint: ${JSON.stringify(endpoint)}, protocol: ${protocol}, timeoutMs: 5000 }`,
    '  prometheus: { enabled: false }',
    '  retry: { initialBackoffMs: 100, maxAttempts: 3 }',
    'telemetry: { shutdownTimeoutMs: 8000 }',
    '',
  ].join('\n');
}

let stub: StubJudge;
let dir: string;
const receiver = new OtlpReceiver();
const first = new ServeProcess();
const replay = new ServeProcess();
let run: WeatherRun;
let env: NodeJS.ProcessEnv;

type Span = ReceivedSpan & Received;
type Log = ReceivedLog & Received;
const carriers = (transport: Received['transport']): Span[] => receiver.spans.filter((s) => s.transport === transport && s.name.startsWith('evaluation '));
const evalLogs = (transport: Received['transport']): Log[] => receiver.logs.filter((l) => l.transport === transport);

beforeAll(async () => {
  stub = await startStubJudge();
  scriptHallucination(stub, { claims: CLAIMS, verdicts: VERDICTS, reason: REASON });
  await receiver.start();
  dir = await tempDir('otlp');
  env = childEnv({ OPENAI_BASE_URL: stub.baseURL, OPENAI_API_KEY: API_KEY });
  await first.start(dir, 'first.yaml', serveYaml(receiver.httpUrl, 'http/protobuf'), env);
  run = await runWeatherAgent({ otlpUrl: first.otlpHttpUrl, seed: 'e2e-otlp-emit', answer: 'It is 30°C and sunny in Paris right now.' });
  await until('two carrier spans and two log records over http/protobuf', 30_000, () =>
    carriers('http/protobuf').length >= 2 && evalLogs('http/protobuf').length >= 2 ? true : undefined,
  );
}, 90_000);

afterAll(async () => {
  await Promise.allSettled([first.stop(), replay.stop()]);
  first.kill();
  replay.kill();
  await receiver.stop();
  await stub?.close();
  await removeDir(dir);
});

describe('serve emits evaluations into the evaluated trace over OTLP', () => {
  it('one carrier span per score record: child of and linked to the agent run span, id derived from evaluationId', () => {
    const spans = carriers('http/protobuf');
    expect(spans.map((s) => s.name).sort()).toEqual(SCORERS.map((s) => `evaluation ${s}`));
    const agentSpan = run.spans.find((s) => s.spanContext().spanId === run.agentSpanId);
    const agentEndNs = BigInt(agentSpan?.endTime[0] ?? 0) * 1_000_000_000n + BigInt(agentSpan?.endTime[1] ?? 0);
    const records = first.stdoutRecords();
    for (const scorer of SCORERS) {
      const span = spans.find((s) => s.name === `evaluation ${scorer}`);
      const record = records.find((r) => r.scorer === scorer);
      const evaluationId = evaluationIdFor(run.traceId, run.agentSpanId, scorer, String(record?.scorerVersion));
      expect(record?.evaluationId).toBe(evaluationId);
      expect(span?.traceId).toBe(run.traceId);
      expect(span?.parentSpanId).toBe(run.agentSpanId);
      expect(span?.links).toEqual([{ traceId: run.traceId, spanId: run.agentSpanId }]);
      expect(span?.spanId).toBe(carrierSpanIdFor(evaluationId));
      // No collision with any span of the application's trace.
      expect(run.spans.map((s) => s.spanContext().spanId)).not.toContain(span?.spanId);
      expect(span?.kind).toBe(1); // INTERNAL
      expect(span?.attributes['openinference.span.kind']).toEqual({ type: 'string', value: 'EVALUATOR' });
      expect(span?.attributes['gen_ai.evaluation.name']).toEqual({ type: 'string', value: scorer });
      expect(span?.attributes['gen_ai.agent.name']).toEqual({ type: 'string', value: 'weather-agent' });
      // The span covers the evaluation itself, which started after the agent run ended.
      const start = BigInt(span?.startTimeUnixNano ?? '0');
      const end = BigInt(span?.endTimeUnixNano ?? '0');
      expect(start >= agentEndNs).toBe(true);
      expect(end >= start).toBe(true);
      expect(Number(end - start) / 1e6).toBeCloseTo(Number(record?.durationMs), -1);
    }
  });

  it('the hallucination carrier span carries the gen_ai.evaluation.result event with the judged score', () => {
    const span = carriers('http/protobuf').find((s) => s.name === 'evaluation hallucination');
    expect(span?.events).toHaveLength(1);
    expect(span?.events[0]?.name).toBe('gen_ai.evaluation.result');
    const version = first.stdoutRecords().find((r) => r.scorer === 'hallucination')?.scorerVersion;
    expect(version).toMatch(/^[0-9a-f]{12}$/);
    expect(span?.attributes['tracejudge.scorer.version']).toEqual({ type: 'string', value: version });
    expect(span?.events[0]?.attributes).toEqual({
      'gen_ai.evaluation.name': { type: 'string', value: 'hallucination' },
      'tracejudge.scorer.version': { type: 'string', value: version },
      'gen_ai.evaluation.score.value': { type: 'double', value: expectedHallucinationScore(VERDICTS) },
      'gen_ai.evaluation.score.label': { type: 'string', value: 'fail' },
      'gen_ai.evaluation.explanation': { type: 'string', value: REASON },
    });
    const similarity = carriers('http/protobuf').find((s) => s.name === 'evaluation similarity');
    const record = first.stdoutRecords().find((r) => r.scorer === 'similarity');
    expect(similarity?.events[0]?.attributes['gen_ai.evaluation.score.value']).toEqual({ type: 'double', value: record?.score });
    expect(similarity?.events[0]?.attributes['error.type']).toBeUndefined();
  });

  it('one gen_ai.evaluation.result log record per evaluation, with the evaluated agent span trace and span ids', () => {
    const logs = evalLogs('http/protobuf');
    expect(logs).toHaveLength(2);
    for (const log of logs) {
      expect(log.eventName).toBe('gen_ai.evaluation.result');
      expect(log.traceId).toBe(run.traceId);
      expect(log.spanId).toBe(run.agentSpanId);
    }
    const h = logs.find((l) => l.attributes['gen_ai.evaluation.name']?.value === 'hallucination');
    expect(h?.attributes['gen_ai.evaluation.score.value']).toEqual({ type: 'double', value: 1 });
    expect(h?.attributes['gen_ai.evaluation.score.label']).toEqual({ type: 'string', value: 'fail' });
    expect(h?.attributes['gen_ai.evaluation.explanation']).toEqual({ type: 'string', value: REASON });
  });

  it('replaying the same spans to a fresh serve (emitting over gRPC) yields the same carrier span ids', async () => {
    await replay.start(dir, 'replay.yaml', serveYaml(receiver.grpcUrl, 'grpc'), env);
    await replaySpans(replay.otlpHttpUrl, run.spans);
    await until('two carrier spans over gRPC', 30_000, () => (carriers('grpc').length >= 2 ? true : undefined));
    const ids = (spans: Span[]): string[] => spans.map((s) => `${s.name} ${s.traceId}/${s.parentSpanId}/${s.spanId}`).sort();
    expect(ids(carriers('grpc'))).toEqual(ids(carriers('http/protobuf')));
    // The integral score 1 stays a double over gRPC too, on the span event and on the log record.
    const h = carriers('grpc').find((s) => s.name === 'evaluation hallucination');
    expect(h?.events[0]?.attributes['gen_ai.evaluation.score.value']).toEqual({ type: 'double', value: 1 });
    await until('two log records over gRPC', 30_000, () => (evalLogs('grpc').length >= 2 ? true : undefined));
    const log = evalLogs('grpc').find((l) => l.attributes['gen_ai.evaluation.name']?.value === 'hallucination');
    expect(log?.attributes['gen_ai.evaluation.score.value']).toEqual({ type: 'double', value: 1 });
    const replayed = replay.stdoutRecords().map((r) => r.evaluationId).sort();
    expect(replayed).toEqual(first.stdoutRecords().map((r) => r.evaluationId).sort());
    expect(replayed).toHaveLength(2);
  });

  it('both serves shut down cleanly (exit 0) after flushing', async () => {
    expect(await first.stop()).toBe(0);
    expect(await replay.stop()).toBe(0);
  });
});
