/** Trace and span id handling shared by the OTLP decoders: ids are lowercase hex in the Span model. */

/**
 * Lowercase hex of `buf[start, end)`, as one flat string. Built by `+=`, a 32-character trace id was a
 * chain of ~10 cons-string nodes (~350 bytes) held by every buffered span; Buffer's hex encoder makes a
 * 48-byte sequential string from a view of the same bytes (no copy).
 */
export function bytesToHex(buf: Uint8Array, start: number, end: number): string {
  if (end <= start) return '';
  if (Buffer.isBuffer(buf)) return buf.toString('hex', start, end);
  return Buffer.from(buf.buffer, buf.byteOffset + start, end - start).toString('hex');
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
