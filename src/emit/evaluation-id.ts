/**
 * Deterministic identities for evaluations: the same run judged by the same scorer always gets the same
 * `evaluationId`, and therefore the same carrier span id, so a replay (Kafka redelivery, a rerun of
 * `tracejudge score`) produces duplicates a backend can recognise instead of new spans.
 */
import { createHash } from 'node:crypto';

/**
 * The evaluation id of `scorer` applied to the agent run span `spanId` of trace `traceId`:
 * 32 lowercase hex chars, the first 16 bytes of SHA-256(`<traceId>/<spanId>/<scorer>`), ids lowercased first.
 */
export function evaluationIdFor(traceId: string, spanId: string, scorer: string): string {
  return createHash('sha256')
    .update(`${traceId.toLowerCase()}/${spanId.toLowerCase()}/${scorer}`, 'utf8')
    .digest('hex')
    .slice(0, 32);
}

/**
 * The carrier span id for an evaluation: 16 lowercase hex chars, the first 8 bytes of SHA-256(evaluationId).
 * OTLP forbids the all-zero span id; in that (astronomically unlikely) case the next 8 bytes are used,
 * and if those are zero too the last byte is set to 1.
 */
export function carrierSpanIdFor(evaluationId: string): string {
  const digest = createHash('sha256').update(evaluationId, 'utf8').digest('hex');
  const zero = '0000000000000000';
  const first = digest.slice(0, 16);
  if (first !== zero) return first;
  const second = digest.slice(16, 32);
  return second !== zero ? second : '0000000000000001';
}
