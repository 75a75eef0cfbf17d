/**
 * The `gen_ai.evaluation.result` attributes (GenAI semantic conventions v1.38+, unchanged through the genai
 * repo), shared by the span event on the carrier span and the log event.
 *
 * `gen_ai.evaluation.score.label` takes the values `pass` and `fail` (docs/records.md, "The score record"). No `gen_ai.operation.name` is
 * set: the conventions define no operation for evaluations, and a made-up value would mislead backends that
 * group by operation.
 */
import type { Attributes } from '@opentelemetry/api';
import type { ScoreRecord } from '../model/score-record.js';

/** Event name of the span event and of the log record. */
export const EVALUATION_EVENT_NAME = 'gen_ai.evaluation.result';

export const Attr = {
  evaluationName: 'gen_ai.evaluation.name',
  scoreValue: 'gen_ai.evaluation.score.value',
  scoreLabel: 'gen_ai.evaluation.score.label',
  explanation: 'gen_ai.evaluation.explanation',
  errorType: 'error.type',
  agentName: 'gen_ai.agent.name',
  unverified: 'tracejudge.evaluation.unverified',
  /** The record's `scorerVersion`: on the span, its event and the log record; never on metrics (cardinality). */
  scorerVersion: 'tracejudge.scorer.version',
  openinferenceKind: 'openinference.span.kind',
} as const;

/** Attributes of the `gen_ai.evaluation.result` event for one record; absent fields are left out. */
export function evaluationEventAttributes(record: ScoreRecord): Attributes {
  const attrs: Attributes = { [Attr.evaluationName]: record.scorer };
  if (record.scorerVersion) attrs[Attr.scorerVersion] = record.scorerVersion;
  if (typeof record.score === 'number' && Number.isFinite(record.score)) attrs[Attr.scoreValue] = record.score;
  if (record.label) attrs[Attr.scoreLabel] = record.label;
  if (record.reason) attrs[Attr.explanation] = record.reason;
  if (typeof record.unverified === 'number') attrs[Attr.unverified] = record.unverified;
  if (record.error) attrs[Attr.errorType] = record.error.type || '_OTHER';
  return attrs;
}
