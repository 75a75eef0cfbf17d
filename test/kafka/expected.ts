/**
 * The test oracle: score records for traces computed in this process with the product's own pipeline and the
 * default code scorers (what `tracejudge score FILE` prints), keyed by evaluation id. A Kafka run is complete
 * when it produced exactly these evaluation ids with the same scores.
 */
import { parseConfig } from '../../src/config/load.js';
import type { ScoreRecord } from '../../src/model/score-record.js';
import type { Trace } from '../../src/model/span.js';
import { scorersFromConfig } from '../../src/pipeline/from-config.js';
import { createPipeline, pipelineOptionsFromConfig } from '../../src/pipeline/pipeline.js';
import { MemoryEmitter } from '../pipeline/helpers.js';

/**
 * Records the default code scorers give `traces` (or the scorers of `rawConfig`, e.g. a judge scorer against the
 * stub judge), computed in-process, every run sampled.
 */
export async function expectedRecords(traces: readonly Trace[], rawConfig: Record<string, unknown> = {}): Promise<ScoreRecord[]> {
  const config = parseConfig(rawConfig, '<kafka-test>', {});
  const { scorers, economics } = await scorersFromConfig(config, { env: {} });
  const emitter = new MemoryEmitter();
  const pipeline = createPipeline({ ...pipelineOptionsFromConfig(config), scorers, emitter, source: 'kafka', ...(economics ? { economics } : {}) });
  for (const t of traces) await pipeline.handleTrace(t);
  await pipeline.idle();
  return emitter.records;
}

/** The comparable part of a record: identity and outcome, not timing. */
export function essence(r: Pick<ScoreRecord, 'evaluationId' | 'traceId' | 'spanId' | 'scorer' | 'score' | 'label'>): string {
  return `${r.evaluationId} ${r.traceId}/${r.spanId}/${r.scorer} ${String(r.score)} ${String(r.label)}`;
}

/**
 * Checks a consumed record list against the oracle: every expected evaluation is present, nothing else is,
 * and every duplicate of an evaluation id carries the same trace, span, scorer and score.
 * Returns the number of duplicate records (at-least-once redeliveries).
 */
export function compareRecords(got: readonly ScoreRecord[], expected: readonly ScoreRecord[]): { missing: string[]; unexpected: string[]; inconsistent: string[]; duplicates: number } {
  const want = new Map(expected.map((r) => [r.evaluationId, essence(r)]));
  const seen = new Map<string, string>();
  const unexpected: string[] = [];
  const inconsistent: string[] = [];
  let duplicates = 0;
  for (const r of got) {
    const e = essence(r);
    const prev = seen.get(r.evaluationId);
    if (prev !== undefined) {
      duplicates++;
      if (prev !== e) inconsistent.push(`${prev} != ${e}`);
      continue;
    }
    seen.set(r.evaluationId, e);
    const w = want.get(r.evaluationId);
    if (w === undefined) unexpected.push(e);
    else if (w !== e) inconsistent.push(`expected ${w}, got ${e}`);
  }
  const missing = [...want.keys()].filter((id) => !seen.has(id)).map((id) => want.get(id) as string);
  return { missing, unexpected, inconsistent, duplicates };
}
