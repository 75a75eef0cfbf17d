/**
 * Scorer versions (issue 31, part 5): every record, log event and carrier span carries a short hash of the
 * scorer's effective definition; it is part of the evaluation id, so a changed scorer (threshold, options,
 * judge model, prompt, type) writes new ids while the same config scores a replay with the same ids. The
 * metrics never carry it.
 */
import { resourceFromAttributes } from '@opentelemetry/resources';
import { describe, expect, it } from 'vitest';
import { toCarrierSpan } from '../../src/emit/carrier-span.js';
import { evaluationIdFor } from '../../src/emit/evaluation-id.js';
import { FanoutEmitter } from '../../src/emit/fanout.js';
import { MetricsEmitter } from '../../src/emit/metrics-emitter.js';
import { toLogEvent } from '../../src/emit/log-event.js';
import type { ScoreRecord } from '../../src/model/score-record.js';
import { createPipeline } from '../../src/pipeline/pipeline.js';
import { scorerVersionOf } from '../../src/scorers/descriptor.js';
import { createScorerRegistry } from '../../src/scorers/registry.js';
import { canonicalJson, scorerVersion } from '../../src/scorers/version.js';
import { createTestTelemetry } from '../../src/testing/test-telemetry.js';
import { fixtureTrace, MemoryEmitter } from './helpers.js';

type Section = Record<string, Record<string, unknown>>;

const BASE: Section = {
  similarity: { type: 'content-similarity', threshold: 0.5 },
  'tool-errors': { type: 'no-tool-errors', threshold: 0.5 },
};

/** Builds the section with the real registry and scores the fixture run once, as a fresh service would. */
async function scoreOnce(section: Section): Promise<{ records: ScoreRecord[]; telemetry: ReturnType<typeof createTestTelemetry> }> {
  const scorers = await createScorerRegistry().buildAll(section);
  const emitter = new MemoryEmitter();
  const telemetry = createTestTelemetry();
  const outputs = new FanoutEmitter([emitter, new MetricsEmitter(telemetry.telemetry)]);
  const pipeline = createPipeline({ scorers, emitter: outputs, source: 'file', judgeConcurrency: 1, maxQueuedJudgeEvaluations: 10, settings: telemetry.settings });
  await pipeline.handleTrace(fixtureTrace('aisdk6-two-tools'));
  return { records: emitter.records, telemetry };
}

const idsByScorer = (records: readonly ScoreRecord[]): Record<string, string> => Object.fromEntries(records.map((r) => [r.scorer, r.evaluationId]));

describe('scorer versions', () => {
  it('the same config twice gives the same versions and evaluation ids (a replay stays idempotent)', async () => {
    const a = await scoreOnce(BASE);
    const b = await scoreOnce(structuredClone(BASE));
    expect(a.records.map((r) => r.scorer).sort()).toEqual(['similarity', 'tool-errors']);
    expect(idsByScorer(b.records)).toEqual(idsByScorer(a.records));
    for (const r of a.records) {
      expect(r.scorerVersion).toMatch(/^[0-9a-f]{12}$/);
      expect(r.evaluationId).toBe(evaluationIdFor(r.traceId, r.spanId, r.scorer, r.scorerVersion));
    }
  });

  it('changing one scorer threshold changes that scorer version and ids, and no other', async () => {
    const before = await scoreOnce(BASE);
    const after = await scoreOnce({ ...BASE, similarity: { type: 'content-similarity', threshold: 0.6 } });
    const old = Object.fromEntries(before.records.map((r) => [r.scorer, r]));
    const now = Object.fromEntries(after.records.map((r) => [r.scorer, r]));
    expect(now.similarity?.scorerVersion).not.toBe(old.similarity?.scorerVersion);
    expect(now.similarity?.evaluationId).not.toBe(old.similarity?.evaluationId);
    expect(now['tool-errors']?.scorerVersion).toBe(old['tool-errors']?.scorerVersion);
    expect(now['tool-errors']?.evaluationId).toBe(old['tool-errors']?.evaluationId);
  });

  it('options, type and reason policy change the version; key order and writing a default out do not', async () => {
    const registry = createScorerRegistry();
    const v = async (entry: Record<string, unknown>, judgeModelId?: string): Promise<string> => scorerVersionOf(await registry.build('s', entry, {}, judgeModelId));
    const base = await v({ type: 'content-similarity', threshold: 0.5 });
    expect(await v({ threshold: 0.5, type: 'content-similarity' })).toBe(base);
    expect(await v({ type: 'content-similarity' })).toBe(base);
    expect(await v({ type: 'content-similarity', threshold: 0.5, ignoreCase: true })).not.toBe(base);
    expect(await v({ type: 'content-similarity', threshold: 0.5, reason: 'always' })).not.toBe(base);
    expect(await v({ type: 'textual-difference', threshold: 0.5 })).not.toBe(base);
    // The name is not part of the version (the evaluation id has it already).
    expect(scorerVersionOf(await registry.build('other-name', { type: 'content-similarity', threshold: 0.5 }))).toBe(base);
  });

  it('the judge model and the judge prompt change the version', () => {
    const def = { type: 'judge', options: { prompt: 'Is the answer polite?' }, threshold: 0.5, direction: 'higher', reason: 'on-fail', judgeModel: 'gpt-4o-mini', instructions: 'You grade tone.' };
    const base = scorerVersion(def);
    expect(scorerVersion({ ...def })).toBe(base);
    expect(scorerVersion({ ...def, judgeModel: 'gpt-4o' })).not.toBe(base);
    expect(scorerVersion({ ...def, instructions: 'You grade tone strictly.' })).not.toBe(base);
    expect(scorerVersion({ ...def, options: { prompt: 'Is the answer rude?' } })).not.toBe(base);
    expect(canonicalJson({ b: 1, a: { d: [1, undefined], c: undefined } })).toBe('{"a":{"d":[1,null]},"b":1}');
  });

  it('is on the record, the carrier span, its event and the log record, and on no metric', async () => {
    const { records, telemetry } = await scoreOnce(BASE);
    const resource = resourceFromAttributes({ 'service.name': 'tracejudge' });
    const scope = { name: 'tracejudge' };
    for (const r of records) {
      const span = toCarrierSpan(r, resource, scope);
      expect(span.attributes['tracejudge.scorer.version']).toBe(r.scorerVersion);
      expect(span.events[0]?.attributes?.['tracejudge.scorer.version']).toBe(r.scorerVersion);
      expect(toLogEvent(r, resource, scope).attributes['tracejudge.scorer.version']).toBe(r.scorerVersion);
      expect(Object.keys(r)[5]).toBe('scorerVersion');
    }
    expect(await telemetry.sum('tracejudge.evaluations')).toBe(records.length);
    const points = await telemetry.points();
    expect(points.length).toBeGreaterThan(0);
    for (const p of points) {
      for (const [k, val] of Object.entries(p.attributes)) {
        expect(k).not.toMatch(/version/);
        expect(records.some((r) => val === r.scorerVersion)).toBe(false);
      }
    }
  });
});
