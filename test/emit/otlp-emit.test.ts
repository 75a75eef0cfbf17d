import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { createEmitters } from '../../src/emit/create-emitters.js';
import { carrierSpanIdFor } from '../../src/emit/evaluation-id.js';
import { FanoutEmitter } from '../../src/emit/fanout.js';
import { emitSettings, withoutMetrics } from './emit-settings.js';
import { AGENT_SPAN_ID, TRACE_ID, errorRecord, scoreRecord } from './records.js';
import { OtlpReceiver } from './otlp-receiver.js';

const receiver = new OtlpReceiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

const PROTOCOLS = ['http/protobuf', 'http/json', 'grpc'] as const;

function emitConfig(protocol: (typeof PROTOCOLS)[number]) {
  const endpoint = protocol === 'grpc' ? receiver.grpcUrl : receiver.httpUrl;
  return configSchema.parse({ emit: { stdout: { enabled: false }, otlp: { endpoint, protocol, timeoutMs: 5000 }, retry: { initialBackoffMs: 50, maxAttempts: 3 } } });
}

async function emitOnce(protocol: (typeof PROTOCOLS)[number], records: ReturnType<typeof scoreRecord>[]) {
  const emitters = new FanoutEmitter(withoutMetrics(createEmitters(emitConfig(protocol), { settings: emitSettings({}) })));
  expect(emitters.emitters.map((e) => e.name)).toEqual(['otlp-traces', 'otlp-logs']);
  await emitters.start();
  const result = await emitters.emit(records);
  await emitters.shutdown(Date.now() + 5000);
  return result;
}

describe.each(PROTOCOLS)('OTLP emit over %s', (protocol) => {
  const hallucination = scoreRecord();
  const failed = errorRecord();

  it('sends one carrier span per record, child of and linked to the agent run span, with the evaluation event', async () => {
    const result = await emitOnce(protocol, [hallucination, failed]);
    expect(result).toEqual({ code: 'success' });
    const spans = receiver.spans.filter((s) => s.transport === protocol);
    expect(spans).toHaveLength(2);
    const carrier = spans.find((s) => s.name === 'evaluation hallucination');
    expect(carrier).toBeDefined();
    if (!carrier) return;
    expect(carrier.traceId).toBe(TRACE_ID);
    expect(carrier.parentSpanId).toBe(AGENT_SPAN_ID);
    expect(carrier.spanId).toBe(carrierSpanIdFor(hallucination.evaluationId));
    expect(carrier.spanId).not.toBe('0000000000000000');
    expect(carrier.links).toEqual([{ traceId: TRACE_ID, spanId: AGENT_SPAN_ID }]);
    expect(carrier.kind).toBe(1); // SPAN_KIND_INTERNAL
    expect(carrier.serviceName).toBe('tracejudge');
    expect(carrier.attributes['openinference.span.kind']).toEqual({ type: 'string', value: 'EVALUATOR' });
    expect(carrier.attributes['gen_ai.evaluation.name']).toEqual({ type: 'string', value: 'hallucination' });
    expect(carrier.attributes['gen_ai.agent.name']).toEqual({ type: 'string', value: 'support-agent' });
    expect(carrier.attributes['tracejudge.scorer.version']).toEqual({ type: 'string', value: hallucination.scorerVersion });
    // The span covers the evaluation itself: 10:00:00.100 → 10:00:00.912.
    expect(BigInt(carrier.startTimeUnixNano)).toBe(BigInt(Date.parse(hallucination.startTime ?? '')) * 1_000_000n);
    expect(BigInt(carrier.endTimeUnixNano) - BigInt(carrier.startTimeUnixNano)).toBe(812_000_000n);
    expect(carrier.events).toHaveLength(1);
    const event = carrier.events[0];
    expect(event?.name).toBe('gen_ai.evaluation.result');
    expect(event?.attributes).toEqual({
      'gen_ai.evaluation.name': { type: 'string', value: 'hallucination' },
      'tracejudge.scorer.version': { type: 'string', value: hallucination.scorerVersion },
      'gen_ai.evaluation.score.value': { type: 'double', value: 0.75 },
      'gen_ai.evaluation.score.label': { type: 'string', value: 'fail' },
      'gen_ai.evaluation.explanation': { type: 'string', value: hallucination.reason },
    });

    const errored = spans.find((s) => s.name === 'evaluation relevancy');
    expect(errored?.statusCode).toBe(2); // STATUS_CODE_ERROR
    expect(errored?.events[0]?.attributes['error.type']).toEqual({ type: 'string', value: 'TJ_JUDGE_TIMEOUT' });
    expect(errored?.events[0]?.attributes['gen_ai.evaluation.score.value']).toBeUndefined();
  });

  it('sends a gen_ai.evaluation.result log event parented to the evaluated agent span', () => {
    const logs = receiver.logs.filter((l) => l.transport === protocol);
    expect(logs).toHaveLength(2);
    for (const log of logs) {
      expect(log.eventName).toBe('gen_ai.evaluation.result');
      expect(log.traceId).toBe(TRACE_ID);
      expect(log.spanId).toBe(AGENT_SPAN_ID);
    }
    const fail = logs.find((l) => l.attributes['gen_ai.evaluation.name']?.value === 'hallucination');
    expect(fail?.attributes['gen_ai.evaluation.score.value']).toEqual({ type: 'double', value: 0.75 });
    expect(fail?.attributes['gen_ai.evaluation.score.label']).toEqual({ type: 'string', value: 'fail' });
    expect(fail?.attributes['tracejudge.scorer.version']).toEqual({ type: 'string', value: '3f2a9c1e5b7d' });
    const err = logs.find((l) => l.attributes['gen_ai.evaluation.name']?.value === 'relevancy');
    expect(err?.attributes['error.type']).toEqual({ type: 'string', value: 'TJ_JUDGE_TIMEOUT' });
  });

  it('yields the same span ids when the same evaluations are replayed', async () => {
    const before = receiver.spans.filter((s) => s.transport === protocol).map((s) => s.spanId).sort();
    await emitOnce(protocol, [scoreRecord(), errorRecord()]);
    const all = receiver.spans.filter((s) => s.transport === protocol);
    expect(all).toHaveLength(4);
    const after = all.slice(2).map((s) => s.spanId).sort();
    expect(after).toEqual(before);
  });
});

describe('integral scores', () => {
  it('arrive with their value; the official JS serializer sends integral numbers as intValue (documented limitation)', async () => {
    await emitOnce('http/protobuf', [scoreRecord({ scorer: 'integral', score: 0, label: 'pass' })]);
    const event = receiver.spans.find((s) => s.name === 'evaluation integral')?.events[0];
    expect(event?.attributes['gen_ai.evaluation.score.value']?.value).toBe(0);
    expect(['int', 'double']).toContain(event?.attributes['gen_ai.evaluation.score.value']?.type);
  });
});

describe('OTLP emit failures', () => {
  it('classifies a 400 as permanent and a 503 as retryable', async () => {
    receiver.failWith = 400;
    try {
      const config = configSchema.parse({
        emit: { stdout: { enabled: false }, otlp: { endpoint: receiver.httpUrl, logs: false, timeoutMs: 2000 }, retry: { initialBackoffMs: 10, maxAttempts: 2 } },
      });
      const emitters = new FanoutEmitter(withoutMetrics(createEmitters(config, { settings: emitSettings({}) })));
      await emitters.start();
      const permanent = await emitters.emit([scoreRecord()]);
      expect(permanent.code).toBe('permanent');
      receiver.failWith = 503;
      const retryable = await emitters.emit([scoreRecord()]);
      expect(retryable.code).toBe('retryable');
      await emitters.shutdown(Date.now() + 2000);
    } finally {
      receiver.failWith = undefined;
    }
  });

  it('classifies an unreachable gRPC endpoint (UNAVAILABLE) as retryable', async () => {
    const config = configSchema.parse({
      emit: { stdout: { enabled: false }, otlp: { endpoint: 'http://127.0.0.1:1', protocol: 'grpc', logs: false, timeoutMs: 2000 }, retry: { initialBackoffMs: 10, maxAttempts: 2 } },
    });
    const emitters = new FanoutEmitter(withoutMetrics(createEmitters(config, { settings: emitSettings({}) })));
    await emitters.start();
    const result = await emitters.emit([scoreRecord()]);
    expect(result.code).toBe('retryable');
    expect(result.code === 'retryable' && result.error.message).toContain('gRPC status 14');
    await emitters.shutdown(Date.now() + 2000);
  });

  it('is turned on by OTEL_EXPORTER_OTLP_ENDPOINT when emit.otlp is not set', async () => {
    const config = configSchema.parse({ emit: { stdout: { enabled: false } } });
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.httpUrl, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' };
    const emitters = new FanoutEmitter(withoutMetrics(createEmitters(config, { settings: emitSettings(env) })));
    expect(emitters.emitters.map((e) => e.name)).toEqual(['otlp-traces', 'otlp-logs']);
    expect(withoutMetrics(createEmitters(config, { settings: emitSettings({}) }))).toHaveLength(0);
    const record = scoreRecord({ scorer: 'env-check' });
    // The official exporters read OTEL_EXPORTER_OTLP_* from process.env, so set them for this call only.
    const saved = { ...process.env };
    Object.assign(process.env, env);
    try {
      const fromEnv = new FanoutEmitter(withoutMetrics(createEmitters(config, { settings: emitSettings(process.env) })));
      await fromEnv.start();
      expect(await fromEnv.emit([record])).toEqual({ code: 'success' });
      await fromEnv.shutdown(Date.now() + 5000);
    } finally {
      for (const k of Object.keys(env)) if (!(k in saved)) delete process.env[k];
    }
    const got = receiver.spans.find((s) => s.name === 'evaluation env-check');
    expect(got?.transport).toBe('http/json');
    await emitters.shutdown(Date.now() + 1000);
  });
});
