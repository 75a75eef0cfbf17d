/**
 * docs/configuration.md, "The embedded default": with no `emit.otlp` in the config, the standard OTEL_EXPORTER_OTLP_ENDPOINT / _PROTOCOL variables turn
 * on OTLP export of results (here http/json), read by the exporters themselves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedCarrierSpanId } from '../emit/carrier-ids.js';
import { OtlpReceiver } from '../emit/otlp-receiver.js';
import { runWeatherAgent, type WeatherRun } from './aisdk-agent.js';
import { childEnv, removeDir, ServeProcess, tempDir, until } from './serve-process.js';

let dir: string;
const receiver = new OtlpReceiver();
const serve = new ServeProcess();
let run: WeatherRun;

beforeAll(async () => {
  await receiver.start();
  dir = await tempDir('otlp-env');
  const yaml = [
    'sources:',
    '  otlp:',
    '    http: { port: 0 }',
    '    grpc: { enabled: false }',
    'assembly: { decisionWaitMs: 200, tickMs: 50 }',
    'scorers:',
    '  similarity: { type: content-similarity }',
    'emit:',
    '  stdout: { enabled: true }',
    '  prometheus: { enabled: false }',
    '',
  ].join('\n');
  await serve.start(dir, 'serve.yaml', yaml, childEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.httpUrl, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }));
  run = await runWeatherAgent({ otlpUrl: serve.otlpHttpUrl, seed: 'e2e-otlp-env', answer: 'It is 18°C with light rain in Paris.' });
  await until('the carrier span and the log record', 30_000, () => (receiver.spans.length >= 1 && receiver.logs.length >= 1 ? true : undefined));
}, 60_000);

afterAll(async () => {
  await serve.stop().catch(() => serve.kill());
  serve.kill();
  await receiver.stop();
  await removeDir(dir);
});

describe('OTLP export configured only by OTEL_EXPORTER_OTLP_* variables', () => {
  it('sends the carrier span and the log event over http/json to OTEL_EXPORTER_OTLP_ENDPOINT', () => {
    const id = expectedCarrierSpanId(receiver.spans, run.traceId, run.agentSpanId, 'similarity');
    const span = receiver.spans.find((s) => s.spanId === id);
    expect(span).toMatchObject({ transport: 'http/json', traceId: run.traceId, parentSpanId: run.agentSpanId, name: 'evaluation similarity' });
    expect(span?.events[0]?.attributes['gen_ai.evaluation.score.value']?.type).toBe('double');
    const log = receiver.logs.find((l) => l.traceId === run.traceId);
    expect(log).toMatchObject({ transport: 'http/json', spanId: run.agentSpanId, eventName: 'gen_ai.evaluation.result' });
    expect(receiver.contentTypes.every((t) => t.includes('json'))).toBe(true);
  });
});
