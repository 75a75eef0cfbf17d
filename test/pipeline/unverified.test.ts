/**
 * How "unverified" shows (issue 28, item 1): a claim-grounding evaluation that could check some specifics of
 * the answer neither way carries their count on the record (`unverified`), on the `gen_ai.evaluation.result`
 * attributes (`tracejudge.evaluation.unverified`), on the `tracejudge.evaluations.unverified` counter and in the
 * live page's summary; an answer whose specifics are all supported reports 0 and is not counted.
 */
import { MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { describe, expect, it } from 'vitest';
import { liveSection } from '../../src/config/sections/live.js';
import { evaluationEventAttributes } from '../../src/emit/evaluation-attributes.js';
import { LiveRing } from '../../src/live/ring.js';
import type { AgentRun, AgentRunContext } from '../../src/model/agent-run.js';
import { agentInput, assistantMessage } from '../../src/model/messages.js';
import type { ScoreRecord } from '../../src/model/score-record.js';
import type { Span } from '../../src/model/span.js';
import { Evaluator, unverifiedCount } from '../../src/pipeline/evaluate.js';
import { createClaimGroundingScorer } from '../../src/scorers/code/claim-grounding/index.js';
import { Telemetry } from '../../src/telemetry/instruments.js';
import { Secrets } from '../../src/telemetry/log.js';
import { configuredScorer, fixtureTrace, MemoryEmitter } from './helpers.js';
import { parseConfig } from '../../src/config/load.js';

const parseSampling = (s: unknown) => parseConfig({ sampling: s }, '<test>', {}).sampling;

class TestReader extends MetricReader {
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

const T0 = Date.UTC(2026, 11, 7, 9, 0, 0);

/** A weather run whose tool returned `result` and whose answer is `answer`. */
function weatherRun(id: number, answer: string, result: Record<string, unknown>): AgentRunContext {
  const call = { toolCallId: 'c1', toolName: 'getWeather', args: { city: 'Lisbon' }, state: 'result' as const, result };
  const run: AgentRun = {
    traceId: id.toString(16).padStart(32, '0'),
    spanId: id.toString(16).padStart(16, '0'),
    agentName: 'weather-agent',
    convention: 'aisdk',
    input: agentInput('What is the weather in Lisbon?'),
    output: [assistantMessage('', [call]), assistantMessage(answer)],
    toolResults: [call],
    context: [],
    status: 'ok',
    startTime: new Date(T0).toISOString(),
    endTime: new Date(T0 + 1000).toISOString(),
  };
  return { run, span: {} as Span, spans: [], resourceAttributes: {} };
}

const grounding = configuredScorer('grounding', createClaimGroundingScorer(), { type: 'claim-grounding', reason: 'always' });

async function score(context: AgentRunContext): Promise<ScoreRecord> {
  const out = await new Evaluator({ now: () => T0, secrets: new Secrets() }).evaluate({ scorer: grounding, context, samplingRate: 1, source: 'otlp' });
  if (out.kind !== 'record') throw new Error(`not applicable: ${out.reason}`);
  return out.record;
}

function points(rm: ResourceMetrics, name: string): { attributes: Record<string, unknown>; value: unknown }[] {
  for (const sm of rm.scopeMetrics) for (const m of sm.metrics) if (m.descriptor.name === name) return m.dataPoints;
  return [];
}

describe('unverified specifics', () => {
  const tool = { temperatureC: 21, condition: 'sunny' };
  // 21 °C is in the tool result; the humidity and the sunset time are in no source: unverified, not wrong.
  const partly = weatherRun(1, 'It is 21 °C and sunny in Lisbon. Humidity is 64 % and sunset is at 17:21.', tool);
  const checked = weatherRun(2, 'It is 21 °C and sunny in Lisbon.', tool);

  it('are counted on the record, which still passes, and named in its reason', async () => {
    const r = await score(partly);
    expect(r.label).toBe('pass');
    expect(r.unverified).toBe(2);
    expect(r.score).toBeGreaterThan(0.5);
    expect(r.score).toBeLessThan(1);
    expect(r.reason).toMatch(/Could not be verified: .*(64.*17:21|17:21.*64)/);
    expect(Object.keys(r).indexOf('unverified')).toBe(Object.keys(r).indexOf('reason') + 1);
    const all = await score(checked);
    expect([all.label, all.unverified, all.score]).toEqual(['pass', 0, 1]);
  });

  it('are an attribute of the evaluation event, present also when 0, absent for scorers that do not report it', async () => {
    expect(evaluationEventAttributes(await score(partly))['tracejudge.evaluation.unverified']).toBe(2);
    expect(evaluationEventAttributes(await score(checked))['tracejudge.evaluation.unverified']).toBe(0);
    const other = { ...(await score(checked)), scorer: 'answered' };
    delete other.unverified;
    expect('tracejudge.evaluation.unverified' in evaluationEventAttributes(other)).toBe(false);
  });

  it('count once per evaluation on tracejudge.evaluations.unverified, beside tracejudge.evaluations', async () => {
    const reader = new TestReader();
    const telemetry = new Telemetry(new MeterProvider({ readers: [reader] }).getMeter('test'));
    for (const context of [partly, checked, partly]) telemetry.recordScore(await score(context));
    const { resourceMetrics } = await reader.collect();
    const unverified = points(resourceMetrics, 'tracejudge.evaluations.unverified');
    expect(unverified.map((p) => [p.attributes, p.value])).toEqual([[{ 'gen_ai.evaluation.name': 'grounding', 'gen_ai.agent.name': 'weather-agent', outcome: 'pass' }, 2]]);
    const total = points(resourceMetrics, 'tracejudge.evaluations').reduce((n, p) => n + Number(p.value), 0);
    expect(total).toBe(3);
  });

  it('show on the live page: per scorer in the summary, per evaluation in the list', async () => {
    const ring = new LiveRing({ config: liveSection.parse({}), now: () => T0 });
    for (const context of [partly, checked]) ring.runScored({ context, records: [await score(context)], decisions: [] });
    const g = ring.summary().agents[0]?.scorers.find((s) => s.name === 'grounding');
    expect(g).toMatchObject({ scored: 2, fails: 0, unverified: 1 });
    expect(ring.evaluations({}).map((e) => e.unverified)).toEqual([0, 2]);
  });

  it('are read from a custom scorer that returns an unverified list from its preprocess or analyze step', () => {
    expect(unverifiedCount({ preprocessStepResult: { unverified: ['a', 'b', 'c'] } })).toBe(3);
    expect(unverifiedCount({ preprocessStepResult: { unverified: ['a'] }, analyzeStepResult: { unverified: [] } })).toBe(0);
    expect(unverifiedCount({ preprocessStepResult: { unverified: 2 } })).toBeUndefined();
    expect(unverifiedCount({})).toBeUndefined();
  });
});

describe('unverified counts reach the sampler', () => {
  it('the judge decision of a run sees the code scorers\' unverified counts, as their records carry them', async () => {
    const { createPipeline } = await import('../../src/pipeline/pipeline.js');
    const { createSamplingPolicy } = await import('../../src/sampling/policy.js');
    const { componentSettings } = await import('../../src/component.js');
    const { createScorer } = await import('../../src/scorers/core/scorer.js');
    const judge = configuredScorer('hallucination', createScorer({ id: 'hallucination', description: 'test' }).generateScore(() => 0.1), {
      type: 'test-judge',
      kind: 'judge',
      direction: 'lower',
      judgeModel: 'stub-model',
    });
    // A boost on the unverified rule: the judge scores the run only if the count got through.
    const real = createSamplingPolicy(parseSampling({ default: { rate: 1, scorers: { hallucination: 0 } }, rules: [{ type: 'unverified', action: 'boost' }] }), { grounding: 'code', hallucination: 'judge' });
    const seen: (Readonly<Record<string, number>> | undefined)[] = [];
    const policy = { compiled: real.compiled, decide: (input: Parameters<typeof real.decide>[0], now?: number) => (input.scorer === 'hallucination' && seen.push(input.codeUnverified), real.decide(input, now)) };
    const scoreTrace = async (extra: string): Promise<ScoreRecord[]> => {
      const emitter = new MemoryEmitter();
      const pipeline = createPipeline({ scorers: [grounding, judge], emitter, source: 'otlp', judgeConcurrency: 1, maxQueuedJudgeEvaluations: 10, settings: componentSettings(), policy: () => policy });
      // The fixture's answer ("It is 18°C (64.4°F) with light rain in Paris right now."), every specific in its
      // tool results, with `extra` appended to it.
      const trace = fixtureTrace('aisdk6-two-tools');
      const spans = trace.spans.map((sp) => {
        const text = sp.attributes['ai.response.text'];
        return typeof text === 'string' ? { ...sp, attributes: { ...sp.attributes, 'ai.response.text': `${text}${extra}` } } : sp;
      });
      await pipeline.handleTrace({ ...trace, spans, source: 'otlp' });
      return emitter.records;
    };
    // Fully supported: no unverified specific, so no boost and no judge record (the judge's rate is 0).
    const checked = await scoreTrace('');
    expect(checked.find((r) => r.scorer === 'grounding')?.unverified).toBe(0);
    expect(checked.some((r) => r.scorer === 'hallucination')).toBe(false);
    // Two specifics no tool gave (37 % and 17:21): the count reaches the sampler, and the boost sends the run to the judge.
    const partlyChecked = await scoreTrace(' Humidity is 37 % and sunset is at 17:21.');
    expect(partlyChecked.find((r) => r.scorer === 'grounding')?.unverified).toBe(2);
    expect(seen).toEqual([{ grounding: 0 }, { grounding: 2 }]);
    expect(partlyChecked.some((r) => r.scorer === 'hallucination')).toBe(true);
  });
});
