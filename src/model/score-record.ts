/** The score record (SPEC §6): what `score` prints and every emitter receives. */
import type { SourceKind } from './span.js';

export interface ScoreRecord {
  /** Deterministic hash of traceId + spanId + scorer; a replay produces the same id. */
  evaluationId: string;
  traceId: string;
  spanId: string;
  agentName: string;
  /** The scorer's configured name; the `gen_ai.evaluation.name`. */
  scorer: string;
  /** Absent on error records. */
  score?: number;
  label?: 'pass' | 'fail';
  threshold?: number;
  reason?: string;
  samplingRate: number;
  judgeModel?: string;
  durationMs: number;
  /** RFC 3339, when the evaluation finished. */
  timestamp: string;
  source: SourceKind;
  /** Present only on failed evaluations. */
  error?: { type: string; message: string };
  /** RFC 3339, when the evaluation started (used for the carrier span's start time). */
  startTime?: string;
}

/** Result of handing records to an emitter. Failure is a value, never thrown (opentelemetry-js style). */
export type EmitResult =
  | { code: 'success' }
  | { code: 'retryable'; error: Error; retryAfterMs?: number }
  | { code: 'permanent'; error: Error };

/** A sink for score records. `shutdown` is safe to call twice. */
export interface Emitter {
  readonly name: string;
  emit(records: readonly ScoreRecord[]): Promise<EmitResult>;
  /** Flush buffered records, waiting at most until `deadline` (ms since epoch). */
  shutdown(deadline: number): Promise<void>;
}
