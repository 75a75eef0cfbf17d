import { describe, expect, it } from 'vitest';
import { createScorer } from '../../src/scorers/core/scorer.js';
import { createContentSimilarityScorer } from '../../src/scorers/code/content-similarity/index.js';
import { createPipeline } from '../../src/pipeline/pipeline.js';
import type { ConfiguredScorer } from '../../src/scorers/descriptor.js';
import { componentSettings } from '../../src/component.js';
import { createSamplingPolicy } from '../../src/sampling/policy.js';
import { evaluationIdFor } from '../../src/emit/evaluation-id.js';
import { extractAgentRunContexts } from '../../src/api/extract.js';
import { configuredScorer, fixtureTrace, MemoryEmitter } from './helpers.js';
import { createJudgeEconomics } from '../../src/judge/economics/economics.js';
import { boostSignalScorers } from '../../src/sampling/boost-signals.js';
import { economicsSection } from '../../src/config/sections/economics.js';

const similarity = configuredScorer('similarity', createContentSimilarityScorer(), { type: 'content-similarity' });

/** A judge-kind scorer whose "judge" is a promise the test controls. */
function gatedJudge(name: string, gate: Promise<void>, score = 0.8): ConfiguredScorer {
  return {
    name,
    type: 'test-judge',
    kind: 'judge',
    direction: 'lower',
    threshold: 0.5,
    reason: 'on-fail',
    needsGroundTruth: false,
    judgeModel: 'stub-model',
    input: 'agent',
    samplingKey: name,
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
    const pipeline = createPipeline({ scorers: [similarity, gatedJudge('hallucination', Promise.resolve())], emitter, source: 'otlp', judgeConcurrency: 2, maxQueuedJudgeEvaluations: 10, settings: componentSettings() });
    await pipeline.handleTrace({ ...trace, source: 'otlp' });
    expect(emitter.records.map((r) => r.scorer).sort()).toEqual(['hallucination', 'similarity']);
    const run = runs[0]?.run;
    for (const r of emitter.records) {
      expect(r.traceId).toBe(run?.traceId);
      expect(r.spanId).toBe(run?.spanId);
      expect(r.agentName).toBe(run?.agentName);
      expect(r.scorerVersion).toMatch(/^[0-9a-f]{12}$/);
      expect(r.evaluationId).toBe(evaluationIdFor(r.traceId, r.spanId, r.scorer, r.scorerVersion));
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
      settings: componentSettings(),
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
    const pipeline = createPipeline({ scorers: [similarity, broken], emitter, source: 'file', judgeConcurrency: 1, maxQueuedJudgeEvaluations: 10, settings: componentSettings() });
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
    const pipeline = createPipeline({ scorers: [gatedJudge('hallucination', gate)], emitter, source: 'file', judgeConcurrency: 1, maxQueuedJudgeEvaluations: 1, settings: componentSettings() });
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

describe('pipeline policies', () => {
  it('reason on-fail: the reason step runs only for failing scores; always/never as named', async () => {
    const trace = fixtureTrace('aisdk6-two-tools');
    let reasonCalls = 0;
    const withReason = (name: string, score: number, reason: 'always' | 'on-fail' | 'never'): ConfiguredScorer => ({
      ...gatedJudge(name, Promise.resolve(), score),
      reason,
      scorer: createScorer({ id: name, description: 'x' })
        .generateScore(() => score)
        .generateReason(({ score: s }) => {
          reasonCalls++;
          return `The score is ${s}.`;
        }),
    });
    const emitter = new MemoryEmitter();
    const pipeline = createPipeline({
      // lower is better, threshold 0.5: 0.8 fails, 0.2 passes
      scorers: [withReason('fails', 0.8, 'on-fail'), withReason('passes', 0.2, 'on-fail'), withReason('always', 0.2, 'always'), withReason('never', 0.9, 'never')],
      emitter,
      source: 'file',
      judgeConcurrency: 4,
      maxQueuedJudgeEvaluations: 10,
      settings: componentSettings(),
    });
    await pipeline.handleTrace(trace);
    const by = new Map(emitter.records.map((r) => [r.scorer, r]));
    expect(by.get('fails')?.reason).toBe('The score is 0.8.');
    expect(by.get('passes')?.reason).toBeUndefined();
    expect(by.get('always')?.reason).toBe('The score is 0.2.');
    expect(by.get('never')?.reason).toBeUndefined();
    expect(reasonCalls).toBe(2);
  });

  it('never scores runs produced by the judge itself (self-exclusion mark)', async () => {
    const trace = fixtureTrace('aisdk6-two-tools');
    const marked = { ...trace, spans: trace.spans.map((s) => ({ ...s, attributes: { ...s.attributes, 'tracejudge.judge': true } })) };
    const emitter = new MemoryEmitter();
    const pipeline = createPipeline({ scorers: [similarity], emitter, source: 'file', judgeConcurrency: 1, maxQueuedJudgeEvaluations: 1, settings: componentSettings() });
    await pipeline.handleTrace(marked);
    expect(emitter.records).toEqual([]);
    expect(pipeline.stats().selfRuns).toBe(1);
  });

  it('a spent judge budget runs the configured fallback code scorer, and skip is counted', async () => {
    const economics = createJudgeEconomics(
      economicsSection.parse({ budgets: [{ scorer: 'hallucination', perHour: { requests: 1 }, fallback: 'similarity' }, { scorer: 'toxicity', perHour: { requests: 1 } }] }),
      { now: () => Date.UTC(2026, 0, 1, 10) },
    );
    const charging = (name: string): ConfiguredScorer => ({
      ...gatedJudge(name, Promise.resolve(), 0.1),
      scorer: createScorer({ id: name, description: 'x' }).generateScore(() => {
        economics.budgets.charge('support-agent', name, { tokens: 10, requests: 1 });
        return 0.1;
      }),
    });
    // similarity is sampled out as a code scorer, so it only runs as the fallback.
    const policy = createSamplingPolicy({ respectUpstream: true, default: { rate: 1, scorers: { similarity: { rate: 0 } } } }, { similarity: 'code', hallucination: 'judge', toxicity: 'judge' });
    const emitter = new MemoryEmitter();
    const pipeline = createPipeline({
      scorers: [similarity, charging('hallucination'), charging('toxicity')],
      policy: () => policy,
      economics,
      emitter,
      source: 'file',
      judgeConcurrency: 1,
      maxQueuedJudgeEvaluations: 10,
      settings: componentSettings(),
    });
    await pipeline.handleTrace(fixtureTrace('aisdk6-two-tools'));
    expect(emitter.records.map((r) => r.scorer).sort()).toEqual(['hallucination', 'toxicity']);
    emitter.records = [];
    await pipeline.handleTrace(fixtureTrace('aisdk6-tool-error'));
    expect(emitter.records.map((r) => r.scorer)).toEqual(['similarity']);
    expect(pipeline.stats().budgetSkipped).toBe(1);
  });
});

describe('adaptive boost', () => {
  const sampling = {
    respectUpstream: true,
    default: { rate: 0 },
    rules: [{ type: 'score-below', name: 'weak-similarity', below: { similarity: 0.99 }, action: 'boost' }],
  };

  it('finds the code scorers that feed boost rules', () => {
    expect([...boostSignalScorers(sampling)]).toEqual(['similarity']);
    expect([...boostSignalScorers({ agents: { a: { rules: [{ type: 'and', rules: [{ type: 'score-below', below: { grounding: 0.5 } }] }] } } })]).toEqual(['grounding']);
    expect(boostSignalScorers(undefined).size).toBe(0);
  });

  it('runs a signal code scorer on an unsampled run, emits nothing for it, and boosts the judge scorer', async () => {
    const policy = createSamplingPolicy(sampling as Parameters<typeof createSamplingPolicy>[0], { similarity: 'code', hallucination: 'judge' });
    const run = async (withSignals: boolean) => {
      const emitter = new MemoryEmitter();
      const pipeline = createPipeline({
        scorers: [similarity, gatedJudge('hallucination', Promise.resolve())],
        policy: () => policy,
        ...(withSignals ? { signalScorers: () => boostSignalScorers(sampling) } : {}),
        emitter,
        source: 'file',
        judgeConcurrency: 1,
        maxQueuedJudgeEvaluations: 10,
        settings: componentSettings(),
      });
      await pipeline.handleTrace(fixtureTrace('aisdk6-two-tools'));
      return { records: emitter.records, stats: pipeline.stats() };
    };
    const boosted = await run(true);
    expect(boosted.records.map((r) => r.scorer)).toEqual(['hallucination']);
    expect(boosted.records[0]?.samplingRate).toBe(1);
    expect(boosted.stats.signalOnly).toBe(1);
    const without = await run(false);
    expect(without.records).toEqual([]); // no signal, nothing boosted at rate 0
  });
});
