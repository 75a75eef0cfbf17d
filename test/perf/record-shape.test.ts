/**
 * The evaluation fast paths build records and scorer results without object spreads; their keys, key
 * order and values must be exactly what the spread versions gave.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { evaluationIdFor } from '../../src/emit/evaluation-id.js';
import { extractAgentRunContexts } from '../../src/api/extract.js';
import { Evaluator, inSpecOrder, type EvaluateArgs } from '../../src/pipeline/evaluate.js';
import { createScorer } from '../../src/scorers/core/scorer.js';
import { scorerVersionOf, type ConfiguredScorer } from '../../src/scorers/descriptor.js';
import { Secrets } from '../../src/telemetry/log.js';
import { fixtureTrace } from '../pipeline/helpers.js';

const SPEC_ORDER = ['evaluationId', 'traceId', 'spanId', 'agentName', 'parentSpanId', 'parentAgent', 'scorer', 'scorerVersion', 'score', 'label', 'threshold', 'reason', 'unverified', 'samplingRate', 'judgeModel', 'durationMs', 'timestamp', 'source', 'error', 'startTime'];

function configured(over: Partial<ConfiguredScorer>, scorer: ConfiguredScorer['scorer']): ConfiguredScorer {
  return { name: 'probe', type: 'probe', kind: 'code', direction: 'higher', threshold: 0.5, reason: 'always', needsGroundTruth: false, input: 'agent', samplingKey: 'probe', scorer, ...over };
}

/** One evaluation on its own clock (`now`) with no secrets. */
function evaluate(args: EvaluateArgs & { now: () => number }) {
  const { now, ...rest } = args;
  return new Evaluator({ now, secrets: new Secrets() }).evaluate(rest);
}

describe('evaluate record shape', () => {
  const context = extractAgentRunContexts(fixtureTrace('aisdk6-two-tools'))[0];
  if (!context) throw new Error('fixture has no run');
  const { run } = context;
  const clock = (): (() => number) => {
    let t = 1_700_000_000_000;
    return () => (t += 7);
  };

  it('a scored record: documented field order, every value, reason kept, judge model only when set', async () => {
    const scorer = createScorer({ id: 'probe', description: 'probe' })
      .generateScore(() => 0.25)
      .generateReason(({ score }) => `score ${score}`);
    for (const judgeModel of [undefined, 'stub-model']) {
      const out = await evaluate({ scorer: configured(judgeModel ? { judgeModel } : {}, scorer), context, samplingRate: 0.5, source: 'otlp', now: clock() });
      expect(out.kind).toBe('record');
      if (out.kind !== 'record') return;
      const version = scorerVersionOf(configured(judgeModel ? { judgeModel } : {}, scorer));
      expect(version).toMatch(/^[0-9a-f]{12}$/);
      const expected = inSpecOrder({
        evaluationId: evaluationIdFor(run.traceId, run.spanId, 'probe', version),
        traceId: run.traceId,
        spanId: run.spanId,
        agentName: run.agentName,
        scorer: 'probe',
        scorerVersion: version,
        samplingRate: 0.5,
        source: 'otlp',
        startTime: new Date(1_700_000_000_007).toISOString(),
        ...(judgeModel ? { judgeModel } : {}),
        score: 0.25,
        label: 'fail',
        threshold: 0.5,
        durationMs: 7,
        timestamp: new Date(1_700_000_000_014).toISOString(),
        reason: 'score 0.25',
      });
      expect(JSON.stringify(out.record)).toBe(JSON.stringify(expected));
      expect(Object.keys(out.record)).toEqual(SPEC_ORDER.filter((k) => k in expected));
    }
  });

  it('a nested run (an agent used as a tool): its parent run right after agentName; none on a top-level run', async () => {
    const contexts = extractAgentRunContexts(readFileSync(new URL('../fixtures/python/openai-agents-as-tool-openinference.json', import.meta.url), 'utf8'));
    const inner = contexts.find((c) => c.run.agentName === 'order_agent');
    const outer = contexts.find((c) => c.run.agentName === 'front_desk' && c.run.traceId === inner?.run.traceId);
    if (!inner || !outer) throw new Error('fixture lacks the nested runs');
    const scorer = createScorer({ id: 'probe', description: 'probe' }).generateScore(() => 1);
    const nested = await evaluate({ scorer: configured({}, scorer), context: inner, samplingRate: 1, source: 'otlp', now: clock() });
    const top = await evaluate({ scorer: configured({}, scorer), context: outer, samplingRate: 1, source: 'otlp', now: clock() });
    if (nested.kind !== 'record' || top.kind !== 'record') throw new Error('expected records');
    expect(Object.keys(nested.record).slice(0, 7)).toEqual(['evaluationId', 'traceId', 'spanId', 'agentName', 'parentSpanId', 'parentAgent', 'scorer']);
    expect([nested.record.parentSpanId, nested.record.parentAgent]).toEqual([outer.run.spanId, 'front_desk']);
    expect(Object.keys(top.record)).not.toContain('parentSpanId');
    expect(Object.keys(top.record)).not.toContain('parentAgent');
  });

  it('an error record: no score or label, the error, documented field order', async () => {
    const scorer = createScorer({ id: 'probe', description: 'probe' }).generateScore(() => {
      throw new Error('boom');
    });
    const out = await evaluate({ scorer: configured({}, scorer), context, samplingRate: 1, source: 'file', now: clock() });
    if (out.kind !== 'record') throw new Error('expected a record');
    expect(Object.keys(out.record)).toEqual(['evaluationId', 'traceId', 'spanId', 'agentName', 'scorer', 'scorerVersion', 'threshold', 'samplingRate', 'durationMs', 'timestamp', 'source', 'error', 'startTime']);
    expect(out.record.error?.message).toContain('boom');
    expect(out.record.score).toBeUndefined();
  });
});

describe('Scorer.run result shape', () => {
  it('is the spread of the run followed by the step results, even for odd run keys', async () => {
    const sym = Symbol('s');
    const input: Record<string | symbol, unknown> = JSON.parse('{"runId":"r1","__proto__":{"x":1},"input":"q","output":"a","score":9}') as Record<string, unknown>;
    input[sym] = 'symbol value';
    const scorer = createScorer({ id: 'shape', description: 'shape' })
      .preprocess(() => ({ p: 1 }))
      .generateScore(() => 0.5);
    const result = (await scorer.run(input as never)) as unknown as Record<string | symbol, unknown>;
    const expected: Record<string | symbol, unknown> = {
      ...input,
      score: 0.5,
      generateScorePrompt: undefined,
      reason: undefined,
      generateReasonPrompt: undefined,
      preprocessStepResult: { p: 1 },
      preprocessPrompt: undefined,
      analyzeStepResult: undefined,
      analyzePrompt: undefined,
    };
    expect(Reflect.ownKeys(result)).toEqual(Reflect.ownKeys(expected));
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(result, '__proto__')?.value).toEqual({ x: 1 });
    expect(result[sym]).toBe('symbol value');
    expect(result).toEqual(expected);

    const plain = (await scorer.run({ runId: 'r2', input: 'q', output: 'a' })) as unknown as Record<string, unknown>;
    expect(Object.keys(plain)).toEqual(['runId', 'input', 'output', 'score', 'generateScorePrompt', 'reason', 'generateReasonPrompt', 'preprocessStepResult', 'preprocessPrompt', 'analyzeStepResult', 'analyzePrompt']);
  });
});
