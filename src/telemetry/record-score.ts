/**
 * Result metrics for score records (SPEC §7): `tracejudge.evaluation.score` and `tracejudge.evaluations{outcome}`,
 * with attributes `gen_ai.evaluation.name` and a bounded `gen_ai.agent.name`. Never a trace id or free text.
 *
 * Exemplars: not recorded. @opentelemetry/sdk-metrics 2.x has no working exemplar support (opentelemetry-js
 * issue #5147) and @opentelemetry/exporter-prometheus writes the 0.0.4 text format, which has no exemplars.
 */
import type { ScoreRecord } from '../model/score-record.js';
import { AgentNameLimiter, type AgentLimitOptions } from './agent-limiter.js';
import { telemetry } from './instruments.js';

let limiter = new AgentNameLimiter({ maxAgents: 100, allowAgents: [] });

/** Replace the agent-name bound (done by `startMetrics` from `emit.metrics`). */
export function setAgentLimits(options: AgentLimitOptions): void {
  limiter = new AgentNameLimiter(options);
}

/** The metric label for an agent name under the current bound. */
export function agentLabel(agentName: string): string {
  return limiter.label(agentName);
}

/** The outcome of a record: `error` when it carries one, else its label (`pass` when unlabelled). */
export function outcomeOf(record: ScoreRecord): 'pass' | 'fail' | 'error' {
  if (record.error || typeof record.score !== 'number') return 'error';
  return record.label === 'fail' ? 'fail' : 'pass';
}

/** Count one score record and, when it has a score, observe it on the histogram. */
export function recordScore(record: ScoreRecord): void {
  const t = telemetry();
  const attrs = { 'gen_ai.evaluation.name': record.scorer, 'gen_ai.agent.name': agentLabel(record.agentName) };
  if (typeof record.score === 'number' && Number.isFinite(record.score) && !record.error) t.evaluationScore.record(record.score, attrs);
  t.evaluations.add(1, { 'gen_ai.evaluation.name': attrs['gen_ai.evaluation.name'], 'gen_ai.agent.name': attrs['gen_ai.agent.name'], outcome: outcomeOf(record) });
}

/** Count an evaluation a scorer could not apply to (no record is produced for it). */
export function recordSkipped(agentName: string, scorer: string): void {
  telemetry().evaluations.add(1, { 'gen_ai.evaluation.name': scorer, 'gen_ai.agent.name': agentLabel(agentName), outcome: 'skipped' });
}
