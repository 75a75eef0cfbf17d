/** Trace and span id handling shared by the OTLP decoders: ids are lowercase hex in the Span model. */

const BYTE_HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Lowercase hex of `buf[start, end)`. */
export function bytesToHex(buf: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end; i++) s += BYTE_HEX[buf[i] as number] as string;
  return s;
}

const HEX_RE = /^[0-9a-fA-F]*$/;
const ZERO_RE = /^0*$/;

/**
 * Checks an OTLP/JSON id (case-insensitive hex) and returns it lowercased, or a reason it is invalid.
 * `allowEmpty` is for optional ids (parentSpanId, log record ids).
 */
export function normalizeHexId(value: unknown, bytes: 8 | 16, allowEmpty: boolean): string | { invalid: string } {
  if (value === undefined || value === null || value === '') {
    return allowEmpty ? '' : { invalid: 'missing' };
  }
  if (typeof value !== 'string') return { invalid: `expected a hex string, got ${typeof value}` };
  if (value.length !== bytes * 2 || !HEX_RE.test(value)) {
    return { invalid: `expected ${bytes * 2} hex characters, got ${JSON.stringify(value.slice(0, 40))}` };
  }
  if (ZERO_RE.test(value)) return allowEmpty ? '' : { invalid: 'all zeroes' };
  return value.toLowerCase();
}

/** True when every byte of `buf[start, end)` is zero (an invalid OTLP id). */
export function allZero(buf: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (buf[i] !== 0) return false;
  return true;
}
