/**
 * Durations of the long scenarios. The suite runs scaled-down versions so it stays within a few minutes on
 * 2 cores; `TRACEJUDGE_RELIABILITY_FULL=1` runs the lengths named in the issue (overload 30 s, judge outage
 * 60 s). Individual lengths can be set with `TRACEJUDGE_OVERLOAD_MS` and `TRACEJUDGE_OUTAGE_MS`.
 */
const full = process.env.TRACEJUDGE_RELIABILITY_FULL === '1';

function envMs(name: string, fallback: number): number {
  const raw = process.env[name];
  const n = raw === undefined ? NaN : Number(raw);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

/** How long the overload scenario sends ~10× capacity (issue: 30 s; suite: 10 s). */
export const OVERLOAD_MS = envMs('TRACEJUDGE_OVERLOAD_MS', full ? 30_000 : 10_000);

/** Total length of the judge outage, split in thirds: 429, 500, hang (issue: 60 s; suite: 12 s). */
export const OUTAGE_MS = envMs('TRACEJUDGE_OUTAGE_MS', full ? 60_000 : 12_000);

/** Extra test timeout for a scenario of `ms`. */
export function timeoutFor(ms: number): number {
  return ms * 3 + 90_000;
}
