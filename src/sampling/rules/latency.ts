/**
 * `latency`: matches runs whose duration is above `aboveMs` and/or below `belowMs` (strict bounds). The
 * duration comes from the agent span's nanosecond times, else from the run's RFC 3339 times; a run whose
 * duration cannot be known does not match.
 */
import { agentSpanOf } from '../agent-span.js';
import type { Predicate, SamplingInput } from '../types.js';

/** The run's duration in milliseconds, or undefined. */
function runDurationMs(input: SamplingInput): number | undefined {
  const span = agentSpanOf(input);
  if (span && span.endTimeUnixNano >= span.startTimeUnixNano && span.startTimeUnixNano > 0n) {
    return Number(span.endTimeUnixNano - span.startTimeUnixNano) / 1e6;
  }
  const ms = Date.parse(input.run.endTime) - Date.parse(input.run.startTime);
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

export function latencyPredicate(options: { aboveMs?: number; belowMs?: number }): Predicate {
  const { aboveMs, belowMs } = options;
  return {
    evaluate(input: SamplingInput): boolean {
      const d = runDurationMs(input);
      if (d === undefined) return false;
      return (aboveMs === undefined || d > aboveMs) && (belowMs === undefined || d < belowMs);
    },
    describe: () =>
      [aboveMs !== undefined ? `duration > ${aboveMs} ms` : '', belowMs !== undefined ? `duration < ${belowMs} ms` : ''].filter(Boolean).join(' and '),
  };
}
