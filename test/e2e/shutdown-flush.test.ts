/**
 * SIGTERM while a trace is still held by the assembler (long decision wait): serve decides it, judges it, and
 * flushes every emitter (OTLP spans and logs, JSONL) before it exits 0.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedCarrierSpanId } from '../emit/carrier-ids.js';
import { byMarker, reply, startStubJudge, type StubJudge } from '../../src/testing/stub-judge/index.js';
import { OtlpReceiver } from '../emit/otlp-receiver.js';
import { runWeatherAgent, type WeatherRun } from './aisdk-agent.js';
import { CLAIMS_MARKER, REASON_MARKER, VERDICTS_MARKER } from './judge-script.js';
import { childEnv, removeDir, ServeProcess, tempDir } from './serve-process.js';

let stub: StubJudge;
let dir: string;
const receiver = new OtlpReceiver();
const serve = new ServeProcess();
let run: WeatherRun;
let exitCode: number | null;
let stopMs: number;
let judgedBeforeStop = -1;

beforeAll(async () => {
  stub = await startStubJudge();
  // A slow judge (each answer held back 300 ms), so the shutdown flush has real in-flight work to wait for.
  stub.setScript(
    byMarker([
      [CLAIMS_MARKER, reply.slow(300, reply.json({ claims: ['It is 30°C in Paris.'] }))],
      [VERDICTS_MARKER, reply.slow(300, reply.json({ verdicts: [{ statement: 'It is 30°C in Paris.', verdict: 'yes', reason: 'tool: 18°C' }] }))],
      [REASON_MARKER, reply.slow(300, reply.text('Contradicts 18°C.'))],
    ]),
  );
  dir = await tempDir('shutdown');
  await receiver.start();
  const yaml = [
    'sources:',
    '  otlp:',
    '    http: { port: 0 }',
    '    grpc: { enabled: false }',
    'assembly: { decisionWaitMs: 600000, maxTraceAgeMs: 600000 }',
    'judge: { timeoutMs: 10000, maxRetries: 0 }',
    'scorers:',
    '  hallucination: { type: hallucination, threshold: 0.5 }',
    '  similarity: { type: content-similarity }',
    'sampling:',
    '  default: { rate: 1 }',
    'emit:',
    '  stdout: { enabled: false }',
    `  jsonl: { path: ${JSON.stringify(join(dir, 'scores.jsonl'))} }`,
    `  otlp: { endpoint: ${JSON.stringify(receiver.httpUrl)}, protocol: http/protobuf, timeoutMs: 5000 }`,
    '  prometheus: { enabled: false }',
    'telemetry: { shutdownTimeoutMs: 10000 }',
    '',
  ].join('\n');
  await serve.start(dir, 'serve.yaml', yaml, childEnv({ OPENAI_BASE_URL: stub.baseURL, OPENAI_API_KEY: 'sk-e2e-shutdown-0123456789abcdef' }));
  run = await runWeatherAgent({ otlpUrl: serve.otlpHttpUrl, seed: 'e2e-shutdown', answer: 'It is 30°C in Paris right now.' });
  judgedBeforeStop = stub.requests.length;
  const t0 = Date.now();
  exitCode = await serve.stop(20_000);
  stopMs = Date.now() - t0;
}, 90_000);

afterAll(async () => {
  serve.kill();
  await receiver.stop();
  await stub?.close();
  await removeDir(dir);
});

describe('serve shutdown flushes held traces through the judge and every emitter', () => {
  it('serve exits 0 within shutdownTimeoutMs, after judging (three judge calls)', () => {
    expect(judgedBeforeStop).toBe(0); // the trace was still held when SIGTERM came
    expect(exitCode).toBe(0);
    expect(stub.requests).toHaveLength(3);
    expect(stopMs).toBeLessThan(10_000);
    expect(serve.logs().some((l) => l.msg === 'tracejudge stopped')).toBe(true);
  });

  it('the held run was judged and written to the JSONL file', async () => {
    const lines = (await readFile(join(dir, 'scores.jsonl'), 'utf8')).split('\n').filter((l) => l !== '');
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.map((r) => r.scorer).sort()).toEqual(['hallucination', 'similarity']);
    expect(records.find((r) => r.scorer === 'hallucination')).toMatchObject({ traceId: run.traceId, score: 1, label: 'fail', reason: 'Contradicts 18°C.' });
  });

  it('its carrier spans and log events reached the OTLP receiver before exit', () => {
    for (const scorer of ['hallucination', 'similarity']) {
      const id = expectedCarrierSpanId(receiver.spans, run.traceId, run.agentSpanId, scorer);
      expect(receiver.spans.find((s) => s.spanId === id)?.parentSpanId).toBe(run.agentSpanId);
    }
    expect(receiver.logs.filter((l) => l.traceId === run.traceId)).toHaveLength(2);
  });
});
