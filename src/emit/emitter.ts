/** The emitter interface: where score records go (stdout, JSON lines, OTLP, Kafka, metrics). */
import type { Component } from '../component.js';
import type { ScoreRecord } from '../model/score-record.js';

/** Result of handing records to an emitter. Failure is a value, never thrown (opentelemetry-js style). */
export type EmitResult =
  | { code: 'success' }
  | { code: 'retryable'; error: Error; retryAfterMs?: number }
  /**
   * Refused for good: the records are dropped (counted in `tracejudge.emit.records{outcome="dropped"}` with a
   * `reason`): `refused` by the destination (a 400, a record too large), or `retry_exhausted` under the output's
   * explicit drop policy (`emit.retry.onExhausted: drop`).
   */
  | { code: 'permanent'; error: Error; reason?: DropReason };

/** Why records were dropped. */
export type DropReason = 'refused' | 'retry_exhausted';

/**
 * A sink for score records, with the component lifecycle: `shutdown` flushes what is buffered, waiting at
 * most until `deadline` (ms since epoch); it is safe to call twice and before `start`.
 */
export interface Emitter extends Component {
  emit(records: readonly ScoreRecord[]): Promise<EmitResult>;
}
