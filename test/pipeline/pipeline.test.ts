import { describe, expect, it } from 'vitest';
import { createScorer } from '../../src/scorers/core/scorer.js';
import { createContentSimilarityScorer } from '../../src/scorers/code/content-similarity/index.js';
import { createPipeline } from '../../src/pipeline/pipeline.js';
import type { ConfiguredScorer } from '../../src/pipeline/configured-scorer.js';
import { createSamplingPolicy } from '../../src/sampling/policy.js';
import { evaluationIdFor } from '../../src/emit/evaluation-id.js';
import { extractAgentRunContexts } from '../../src/extract/extract.js';
import { fixtureTrace, MemoryEmitter } from './helpers.js';

const similarity: ConfiguredScorer = {
  name: 'similarity',
  type: 'content-similarity',
  kind: 'code',
  lowerIsBetter: false,
  threshold: 0.5,
  reason: 'on-fail',
  needsGroundTruth: false,
  input: 'agent',
  scorer: createContentSimilarityScorer(),
};

/** A judge-kind scorer whose "judge" is a promise the test controls. */
function gatedJudge(name: string, gate: Promise<void>, score = 0.8): ConfiguredScorer {
  return {
    name,
    type: 'test-judge',
    kind: 'judge',
    lowerIsBetter: true,
    threshold: 0.5,
    reason: 'on-fail',
    needsGroundTruth: false,
    judgeModel: 'stub-model',
    input: 'agent',
    scorer: createScorer({ id: name, description: 'test' }).generateScore(async () => {
      await gate;
      return score;
    }),
  };
}

describe('pipeline', () => {
  it('extracts, scores and emits one record per run and scorer, with deterministic ids', async () => {
    const trace = fixtureTrace('aisdk6-two-tools');
    const runs = extractAgentRunContexts(trace);
    expect(runs.length).toBe(1);
    const emitter = new MemoryEmitter();
    const pipeline = createPipeline({ scorers: [similarity, gatedJudge('hallucination', Promise.resolve())], emitter, source: 'otlp', judgeConcurrency: 2, maxQueuedJudgeEvaluations: 10 });
    await pipeline.handleTrace({ ...trace, source: 'otlp' });
    expect(emitter.records.map((r) => r.scorer).sort()).toEqual(['hallucination', 'similarity']);
    const run = runs[0]?.run;
    for (const r of emitter.records) {
      expect(r.traceId).toBe(run?.traceId);
      expect(r.spanId).toBe(run?.spanId);
      expect(r.agentName).toBe(run?.agentName);
      expect(r.evaluationId).toBe(evaluationIdFor(r.traceId, r.spanId, r.scorer));
      expect(r.source).toBe('otlp');
      expect(r.samplingRate).toBe(1);
    }
    const h = emitter.records.find((r) => r.scorer === 'hallucination');
    expect(h).toMatchObject({ score: 0.8, label: 'fail', threshold: 0.5, judgeModel: 'stub-model' });
    const s = emitter.records.find((r) => r.scorer === 'similarity');
    expect(typeof s?.score).toBe('number');
  });

  it('honours the sampling policy and counts what it left out', async () => {
    const trace = fixtureTrace('aisdk6-two-tools');
    const emitter = new MemoryEmitter();
    const policy = createSamplingPolicy({ respectUpstream: true, default: { rate: 0 } }, { similarity: 'code', hallucination: 'judge' });
    const pipeline = createPipeline({
      scorers: [similarity, gatedJudge('hallucination', Promise.resolve())],
      policy: () => policy,
      emitter,
      source: 'file',
      judgeConcurrency: 1,
      maxQueuedJudgeEvaluations: 10,
    });
    await pipeline.handleTrace(trace);
    expect(emitter.records).toEqual([]);
    expect(pipeline.stats().notSampled).toBe(2);
  });

  it('turns a throwing scorer into an error record and keeps scoring the others', async () => {
    const trace = fixtureTrace('aisdk6-two-tools');
    const emitter = new MemoryEmitter();
    const broken: ConfiguredScorer = {
      ...gatedJudge('broken', Promise.resolve()),
      scorer: createScorer({ id: 'broken', description: 'x' }).generateScore(() => {
        throw new Error('judge exploded');
      }),
    };
    const pipeline = createPipeline({ scorers: [similarity, broken], emitter, source: 'file', judgeConcurrency: 1, maxQueuedJudgeEvaluations: 10 });
    await pipeline.handleTrace(trace);
    const err = emitter.records.find((r) => r.scorer === 'broken');
    expect(err?.score).toBeUndefined();
    expect(err?.error?.message).toContain('judge exploded');
    expect(emitter.records.find((r) => r.scorer === 'similarity')?.score).toBeTypeOf('number');
  });

  it('sheds the oldest waiting judge evaluation when the queue is full, as an error record', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const emitter = new MemoryEmitter();
    const pipeline = createPipeline({ scorers: [gatedJudge('hallucination', gate)], emitter, source: 'file', judgeConcurrency: 1, maxQueuedJudgeEvaluations: 1 });
    const traces = ['aisdk6-two-tools', 'aisdk6-rag', 'aisdk6-tool-error'].map(fixtureTrace);
    const done = Promise.all(traces.map((t) => pipeline.handleTrace(t)));
    await new Promise((r) => setTimeout(r, 20));
    open();
    await done;
    const shed = emitter.records.filter((r) => r.error?.type === 'shed');
    const scored = emitter.records.filter((r) => typeof r.score === 'number');
    expect(shed.length).toBe(1);
    expect(scored.length).toBe(2);
    // The shed one is the oldest waiting: the second trace (the first was running).
    expect(shed[0]?.traceId).toBe(traces[1]?.traceId);
    expect(pipeline.stats().shed).toBe(1);
  });
});
