/** The score record: what `score` prints and every emitter receives (fields in docs/records.md). */
import type { SourceKind } from './span.js';

export interface ScoreRecord {
  /** Deterministic hash of traceId + spanId + scorer + scorerVersion; a replay produces the same id. */
  evaluationId: string;
  traceId: string;
  spanId: string;
  agentName: string;
  /** The run this one is nested in (hand-off, sub-agent, agent used as a tool): its span; absent for a top-level run. */
  parentSpanId?: string;
  /** That parent run's agent name; set with `parentSpanId`. */
  parentAgent?: string;
  /** The scorer's configured name; the `gen_ai.evaluation.name`. */
  scorer: string;
  /**
   * Short hash (12 hex) of the scorer's effective definition (type, options, threshold, judge model, prompt):
   * results of a changed scorer can be told from the old ones under the same name. Part of `evaluationId`.
   */
  scorerVersion: string;
  /** Absent on error records. */
  score?: number;
  label?: 'pass' | 'fail';
  threshold?: number;
  reason?: string;
  /**
   * How many specifics of the answer (numbers, dates, names, statuses) the scorer could check neither way:
   * not supported and not contradicted by any source. Only scorers that check specifics report it
   * (`claim-grounding`); absent otherwise. Unverified never fails a run by itself.
   */
  unverified?: number;
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
