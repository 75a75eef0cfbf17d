/** Conversions from the score record's RFC 3339 times to OpenTelemetry `HrTime`. */
import type { HrTime } from '@opentelemetry/api';

const FRACTION = /\.(\d+)/;

/**
 * Parse an RFC 3339 timestamp to `[seconds, nanoseconds]`, keeping sub-millisecond digits when present.
 * Returns undefined for text that is not a timestamp.
 */
export function hrTimeFromRfc3339(text: string | undefined): HrTime | undefined {
  if (!text) return undefined;
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) return undefined;
  const seconds = Math.floor(ms / 1000);
  let nanos = (ms - seconds * 1000) * 1_000_000;
  const fraction = FRACTION.exec(text)?.[1];
  if (fraction !== undefined && fraction.length > 3) {
    // Date.parse truncates to milliseconds; restore the rest from the text.
    nanos = Number(fraction.slice(0, 9).padEnd(9, '0'));
  }
  return [seconds, nanos];
}

/** `HrTime` from milliseconds since the epoch. */
export function hrTimeFromMs(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1_000_000)];
}

/** `end - start` as an `HrTime`, never negative. */
export function hrDuration(start: HrTime, end: HrTime): HrTime {
  let s = end[0] - start[0];
  let n = end[1] - start[1];
  if (n < 0) {
    s -= 1;
    n += 1_000_000_000;
  }
  return s < 0 ? [0, 0] : [s, n];
}

/** Whether `a` is later than `b`. */
export function hrAfter(a: HrTime, b: HrTime): boolean {
  return a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);
}
