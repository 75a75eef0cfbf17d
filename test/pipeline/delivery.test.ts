/**
 * End-to-end delivery through the pipeline and the assembler: a trace settles only when every output accepted
 * its records; an output that is down holds the trace (and only that output is offered the records again); a
 * refusal is a counted drop that settles; the shutdown leaves an undelivered trace unsettled (onAbandoned,
 * never onSettled).
 */
import { describe, expect, it } from 'vitest';
import { componentSettings } from '../../src/component.js';
import type { EmitResult, Emitter } from '../../src/emit/emitter.js';
import { FanoutEmitter } from '../../src/emit/fanout.js';
import { UndeliveredError } from '../../src/errors.js';
import { TraceAssembler } from '../../src/ingest/assembler.js';
import type { ScoreRecord } from '../../src/model/score-record.js';
import { createPipeline } from '../../src/pipeline/pipeline.js';
import { createContentSimilarityScorer } from '../../src/scorers/code/content-similarity/index.js';
import { configuredScorer, fixtureTrace, MemoryEmitter } from './helpers.js';

const similarity = configuredScorer('similarity', createContentSimilarityScorer(), { type: 'content-similarity' });

/** An output that answers `retryable` while `down`, or `permanent` when `refuse`; counts every offer. */
class SwitchableEmitter implements Emitter {
  down = true;
  refuse = false;
  offers = 0;
  records: ScoreRecord[] = [];
  constructor(readonly name: string) {}
  start(): Promise<void> {
    return Promise.resolve();
  }
  emit(records: readonly ScoreRecord[]): Promise<EmitResult> {
    this.offers++;
    if (this.refuse) return Promise.resolve({ code: 'permanent', error: new Error('400 bad request') });
    if (this.down) return Promise.resolve({ code: 'retryable', error: new Error('connect ECONNREFUSED'), retryAfterMs: 20 });
    this.records.push(...records);
    return Promise.resolve({ code: 'success' });
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const settle = (p: Promise<unknown>): { done: () => boolean; error: () => unknown } => {
  let done = false;
  let error: unknown;
  p.then(
    () => (done = true),
    (err: unknown) => {
      done = true;
      error = err;
    },
  );
  return { done: () => done, error: () => error };
};

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('end-to-end delivery', () => {
  it('holds a trace while an output is down and settles it once that output accepts; the healthy output gets the records once', async () => {
    const healthy = new MemoryEmitter();
    const flaky = new SwitchableEmitter('flaky');
    const pipeline = createPipeline({ scorers: [similarity], emitter: new FanoutEmitter([healthy, flaky]), source: 'kafka', judgeConcurrency: 1, maxQueuedJudgeEvaluations: 10, settings: componentSettings() });
    const handled = settle(pipeline.handleTrace(fixtureTrace('aisdk6-two-tools')));
    await sleep(300);
    expect(handled.done()).toBe(false);
    expect(flaky.offers).toBeGreaterThan(2);
    expect(healthy.records).toHaveLength(1);
    flaky.down = false;
    await sleep(300);
    expect(handled.done()).toBe(true);
    expect(handled.error()).toBeUndefined();
    expect(flaky.records.map((r) => r.evaluationId)).toEqual(healthy.records.map((r) => r.evaluationId));
    expect(healthy.records).toHaveLength(1);
    expect(pipeline.stats().tracesDone).toBe(1);
    await pipeline.shutdown(Date.now() + 1000);
  });

  it('settles a trace whose records an output refused for good (a counted drop)', async () => {
    const refusing = new SwitchableEmitter('refusing');
    refusing.refuse = true;
    const pipeline = createPipeline({ scorers: [similarity], emitter: new FanoutEmitter([new MemoryEmitter(), refusing]), source: 'kafka', judgeConcurrency: 1, maxQueuedJudgeEvaluations: 10, settings: componentSettings() });
    await pipeline.handleTrace(fixtureTrace('aisdk6-two-tools'));
    expect(refusing.offers).toBe(1);
    await pipeline.shutdown(Date.now() + 1000);
  });

  it('at shutdown, an undelivered trace rejects with UndeliveredError and its batch is abandoned, never settled', async () => {
    const flaky = new SwitchableEmitter('flaky');
    const pipeline = createPipeline({ scorers: [similarity], emitter: flaky, source: 'kafka', judgeConcurrency: 1, maxQueuedJudgeEvaluations: 10, settings: componentSettings() });
    const errors: unknown[] = [];
    const assembler = new TraceAssembler({
      config: { decisionWaitMs: 0 },
      onTrace: (t) =>
        pipeline.handleTrace(t).catch((err: unknown) => {
          errors.push(err);
          throw err;
        }),
    });
    const trace = fixtureTrace('aisdk6-two-tools');
    let settled = 0;
    let abandoned = 0;
    const offered = assembler.offer({ spans: trace.spans, logs: [], source: 'kafka', onSettled: () => settled++, onAbandoned: () => abandoned++ });
    expect(offered.accepted).toBe(true);
    const flushed = assembler.flush();
    await sleep(200);
    expect(settled + abandoned).toBe(0);
    expect(assembler.inFlightTraces).toBe(1);
    const deadline = Date.now() + 400;
    pipeline.abortNear(deadline);
    await flushed;
    await pipeline.shutdown(deadline);
    expect(errors[0]).toBeInstanceOf(UndeliveredError);
    expect(settled).toBe(0);
    expect(abandoned).toBe(1);
    expect(assembler.stats.tracesUndelivered).toBe(1);
    expect(assembler.stats.handlerErrors).toBe(0);
  });
});
