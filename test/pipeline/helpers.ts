/** Helpers for pipeline tests: fixture traces and an in-memory emitter. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ScoreRecord } from '../../src/model/score-record.js';
import type { EmitResult, Emitter } from '../../src/emit/emitter.js';
import { decodeTraceRequestJson } from '../../src/ingest/otlp/decode.js';
import type { Trace } from '../../src/model/span.js';
import type { ConfiguredScorer } from '../../src/scorers/descriptor.js';

/** A configured scorer for pipeline tests: a code scorer, threshold 0.5, sampled under its own name, unless `over` says otherwise. */
export function configuredScorer(name: string, scorer: ConfiguredScorer['scorer'], over: Partial<ConfiguredScorer> = {}): ConfiguredScorer {
  return { name, type: name, kind: 'code', direction: 'higher', threshold: 0.5, reason: 'on-fail', needsGroundTruth: false, input: 'agent', samplingKey: name, scorer, ...over };
}

export function fixtureTrace(name: string): Trace {
  const path = fileURLToPath(new URL(`../fixtures/traces/${name}.json`, import.meta.url));
  const { spans } = decodeTraceRequestJson(readFileSync(path));
  const traceId = spans[0]?.traceId ?? '';
  return { traceId, spans: spans.filter((s) => s.traceId === traceId), logs: [], source: 'file' };
}

export class MemoryEmitter implements Emitter {
  readonly name = 'memory';
  records: ScoreRecord[] = [];
  start(): Promise<void> {
    return Promise.resolve();
  }
  emit(records: readonly ScoreRecord[]): Promise<EmitResult> {
    this.records.push(...records);
    return Promise.resolve({ code: 'success' });
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
