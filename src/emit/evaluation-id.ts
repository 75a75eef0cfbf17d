/**
 * Deterministic identities for evaluations: the same run judged by the same scorer always gets the same
 * `evaluationId`, and therefore the same carrier span id, so a replay (Kafka redelivery, a rerun of
 * `tracejudge score`) produces duplicates a backend can recognise instead of new spans.
 */
import * as crypto from 'node:crypto';

/**
 * SHA-256 of a string as lowercase hex. `crypto.hash` (Node ≥ 20.12) is one call without a Hash object, about
 * three times faster for short inputs; one id is made per evaluation, on the hot path. Older Node 20 releases
 * take `createHash`.
 */
const sha256Hex: (text: string) => string =
  typeof crypto.hash === 'function' ? (text) => crypto.hash('sha256', text, 'hex') : (text) => crypto.createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * The evaluation id of version `scorerVersion` of `scorer` applied to the agent run span `spanId` of trace
 * `traceId`: 32 lowercase hex chars, the first 16 bytes of SHA-256(`<traceId>/<spanId>/<scorer>/<scorerVersion>`),
 * ids lowercased first. A changed scorer (new version) gets new ids; an unchanged one keeps them.
 */
export function evaluationIdFor(traceId: string, spanId: string, scorer: string, scorerVersion: string): string {
  return sha256Hex(`${traceId.toLowerCase()}/${spanId.toLowerCase()}/${scorer}/${scorerVersion}`).slice(0, 32);
}

/**
 * The carrier span id for an evaluation: 16 lowercase hex chars, the first 8 bytes of SHA-256(evaluationId).
 * OTLP forbids the all-zero span id; in that (astronomically unlikely) case the next 8 bytes are used,
 * and if those are zero too the last byte is set to 1.
 */
export function carrierSpanIdFor(evaluationId: string): string {
  const digest = sha256Hex(evaluationId);
  const zero = '0000000000000000';
  const first = digest.slice(0, 16);
  if (first !== zero) return first;
  const second = digest.slice(16, 32);
  return second !== zero ? second : '0000000000000001';
}
