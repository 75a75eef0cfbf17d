/**
 * Calendar arithmetic on plain dates (`YYYY-MM-DD`, UTC, no time zone conversion): what "yesterday",
 * "tomorrow" and weekday names mean relative to the run's start time.
 */
import { WEEKDAYS } from './vocabulary.js';

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of a UTC date. */
export function isoDay(d: Date): string {
  const y = d.getUTCFullYear();
  // Years 0–9999 by hand (what toISOString writes, without formatting the time); others (and an invalid
  // date, which throws) through toISOString.
  if (!(y >= 0 && y <= 9999)) return d.toISOString().slice(0, 10);
  return `${String(y).padStart(4, '0')}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-${String(d.getUTCDate()).padStart(2, '0')}`;
}

/** `day` moved by `n` days. */
export function addDays(day: string, n: number): string {
  return isoDay(new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS));
}

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOf(day: string): number {
  return new Date(`${day}T00:00:00Z`).getUTCDay();
}

/** A valid `YYYY-MM-DD` for the parts, or undefined (31 February is no date). */
export function makeDay(year: number, month: number, day: number): string | undefined {
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCMonth() === month - 1 ? isoDay(d) : undefined;
}

/**
 * The day a relative expression names, from `ref` (the run's day): `yesterday`, `today`, `tonight`,
 * `tomorrow`, `the day after tomorrow`, `the day before yesterday`, `last|next|this <weekday>`.
 * A bare weekday is ambiguous (past or future) and gives undefined: the caller compares weekdays instead.
 *
 * @example
 * ```ts
 * relativeDay('yesterday', '2026-01-01'); // '2025-12-31'
 * relativeDay('next monday', '2026-01-01'); // '2026-01-05'
 * ```
 */
export function relativeDay(phrase: string, ref: string): string | undefined {
  const p = phrase.toLowerCase().replace(/\s+/g, ' ').trim();
  if (p === 'today' || p === 'tonight' || p === 'this morning' || p === 'this afternoon' || p === 'this evening') return ref;
  if (p === 'yesterday') return addDays(ref, -1);
  if (p === 'tomorrow') return addDays(ref, 1);
  if (p === 'the day after tomorrow' || p === 'day after tomorrow') return addDays(ref, 2);
  if (p === 'the day before yesterday' || p === 'day before yesterday') return addDays(ref, -2);
  const m = /^(last|next|this|coming) (\w+)$/.exec(p);
  const wd = m ? WEEKDAYS[m[2] as string] : undefined;
  if (!m || wd === undefined) return undefined;
  const today = weekdayOf(ref);
  if (m[1] === 'last') return addDays(ref, -(((today - wd + 6) % 7) + 1));
  if (m[1] === 'next' || m[1] === 'coming') return addDays(ref, ((wd - today + 6) % 7) + 1);
  return addDays(ref, (wd - today + 7) % 7);
}
