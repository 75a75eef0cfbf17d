/**
 * The human log format (`telemetry.logFormat: text`, the default on a terminal): one pino JSON line turned into
 * `14:03:07.123 WARN  message key=value key2="two words"`, in local time, with the level's name. Fields keep
 * pino's order; objects are written as compact JSON; an error's stack follows on indented lines.
 */

const LEVELS: Readonly<Record<number, string>> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** Fields every line has, shown in the head of the line or not at all. */
const OMITTED = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'name', 'v']);
const MAX_VALUE_CHARS = 300;

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

function localTime(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

function valueText(v: unknown): string {
  let s: string;
  if (typeof v === 'string') s = /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v);
  else s = JSON.stringify(v) ?? String(v);
  return s.length > MAX_VALUE_CHARS ? `${s.slice(0, MAX_VALUE_CHARS - 1)}…` : s;
}

/** One pino JSON line as text (with its newline); a line that is not JSON is passed on as it is. */
export function formatLogLine(line: string): string {
  let rec: Record<string, unknown>;
  try {
    rec = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  if (typeof rec !== 'object' || rec === null) return line;
  const level = typeof rec.level === 'number' ? (LEVELS[rec.level] ?? String(rec.level)) : typeof rec.level === 'string' ? rec.level : '';
  const time = typeof rec.time === 'number' ? localTime(rec.time) : '';
  const parts = [time, level.padEnd(5), typeof rec.msg === 'string' ? rec.msg : ''];
  let stack: string | undefined;
  for (const [key, value] of Object.entries(rec)) {
    if (OMITTED.has(key) || value === undefined) continue;
    if (key === 'err' && typeof value === 'object' && value !== null) {
      const err = value as { message?: unknown; stack?: unknown };
      parts.push(`err=${valueText(err.message ?? value)}`);
      if (typeof err.stack === 'string' && typeof rec.level === 'number' && rec.level >= 50) stack = err.stack;
      continue;
    }
    parts.push(`${key}=${valueText(value)}`);
  }
  const head = parts.filter((p) => p !== '').join(' ');
  const tail = stack === undefined ? '' : `\n${stack.split('\n').map((l) => `    ${l.trim()}`).join('\n')}`;
  return `${head}${tail}\n`;
}
