/** Score records for emit tests, built the way the scorer pipeline builds them. */
import { evaluationIdFor } from '../../src/emit/evaluation-id.js';
import type { ScoreRecord } from '../../src/model/score-record.js';

export const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
export const AGENT_SPAN_ID = 'b7ad6b7169203331';

export function scoreRecord(overrides: Partial<ScoreRecord> = {}): ScoreRecord {
  const traceId = overrides.traceId ?? TRACE_ID;
  const spanId = overrides.spanId ?? AGENT_SPAN_ID;
  const scorer = overrides.scorer ?? 'hallucination';
  const scorerVersion = overrides.scorerVersion ?? '3f2a9c1e5b7d';
  return {
    evaluationId: evaluationIdFor(traceId, spanId, scorer, scorerVersion),
    traceId,
    spanId,
    agentName: 'support-agent',
    scorer,
    scorerVersion,
    score: 0.75,
    label: 'fail',
    threshold: 0.5,
    reason: 'The answer claims a refund policy that no tool result supports.',
    samplingRate: 1,
    judgeModel: 'gpt-4o-mini',
    durationMs: 812,
    startTime: '2026-08-20T10:00:00.100Z',
    timestamp: '2026-08-20T10:00:00.912Z',
    source: 'otlp',
    ...overrides,
  };
}

/** A failed evaluation: an error and no score. */
export function errorRecord(overrides: Partial<ScoreRecord> = {}): ScoreRecord {
  const { score: _s, label: _l, reason: _r, ...rest } = scoreRecord({ scorer: 'relevancy', ...overrides });
  return { ...rest, error: { type: 'TJ_JUDGE_TIMEOUT', message: 'judge did not answer within 30000 ms' }, ...overrides };
}
