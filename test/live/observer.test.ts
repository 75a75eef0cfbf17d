/**
 * The pipeline's run observers (the hook that feeds the live page and `score`'s table): each run is reported
 * once, after its records reached the emitter, with exactly the emitted records and one sampling decision
 * per scorer; a throwing observer changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { componentSettings } from '../../src/component.js';
import { samplingSection } from '../../src/config/sections/sampling.js';
import { createPipeline, type ScoredRun } from '../../src/pipeline/pipeline.js';
import { createSamplingPolicy } from '../../src/sampling/policy.js';
import { createContentSimilarityScorer } from '../../src/scorers/code/content-similarity/index.js';
import type { ConfiguredScorer } from '../../src/scorers/descriptor.js';
import { fixtureTrace, MemoryEmitter } from '../pipeline/helpers.js';

function similarity(name: string): ConfiguredScorer {
  return { name, type: 'content-similarity', kind: 'code', direction: 'higher', threshold: 0.5, reason: 'on-fail', needsGroundTruth: false, input: 'agent', samplingKey: name, scorer: createContentSimilarityScorer() };
}

describe('run observers', () => {
  it('see every run with its emitted records and the sampling decision per scorer', async () => {
    const emitter = new MemoryEmitter();
    const seen: ScoredRun[] = [];
    let recordsAtObservation = -1;
    // `kept` always sampled, `dropped` never (rate 0): both decisions are reported, only one record exists.
    const policy = createSamplingPolicy(samplingSection.parse({ default: { rate: 1, scorers: { dropped: { rate: 0 } } } }), { kept: 'code', dropped: 'code' }, Date.now());
    const pipeline = createPipeline({
      scorers: [similarity('kept'), similarity('dropped')],
      policy: () => policy,
      emitter,
      source: 'file',
      judgeConcurrency: 1,
      maxQueuedJudgeEvaluations: 10,
      settings: componentSettings(),
      observers: [
        {
          runScored(run) {
            recordsAtObservation = emitter.records.length;
            seen.push(run);
          },
        },
        {
          runScored() {
            throw new Error('a broken observer');
          },
        },
      ],
    });
    await pipeline.handleTrace(fixtureTrace('aisdk6-two-tools'));
    expect(seen).toHaveLength(1);
    const run = seen[0] as ScoredRun;
    expect(run.context.run.agentName).toBeTruthy();
    expect(run.records).toEqual(emitter.records);
    expect(run.records.map((r) => r.scorer)).toEqual(['kept']);
    expect(recordsAtObservation).toBe(1); // emitted before the observer heard of it
    expect(run.decisions.map((d) => [d.scorer, d.sampled])).toEqual([
      ['kept', true],
      ['dropped', false],
    ]);
    expect(pipeline.stats()).toMatchObject({ runs: 1, records: 1, notSampled: 1 });
  });

  it('hear of sampled evaluations that did not apply, with the reason (the live page shows skipped runs)', async () => {
    const seen: ScoredRun[] = [];
    const pipeline = createPipeline({
      scorers: [similarity('kept'), { ...similarity('needs-truth'), needsGroundTruth: true }],
      emitter: new MemoryEmitter(),
      source: 'file',
      judgeConcurrency: 1,
      maxQueuedJudgeEvaluations: 10,
      settings: componentSettings(),
      observers: [{ runScored: (run) => void seen.push(run) }],
    });
    await pipeline.handleTrace(fixtureTrace('aisdk6-two-tools'));
    expect(seen).toHaveLength(1);
    expect(seen[0]?.records.map((r) => r.scorer)).toEqual(['kept']);
    expect(seen[0]?.skipped).toEqual([{ scorer: 'needs-truth', reason: 'no-ground-truth' }]);
    expect(pipeline.stats()).toMatchObject({ skipped: 1 });
  });
});
