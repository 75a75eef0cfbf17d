/** The score record: what `score` prints and every emitter receives (fields in docs/records.md). */
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
