/**
 * The deterministic sampling hash (docs/configuration.md), the same function as Mastra's `hashToUnitInterval`, so a rate
 * selects the same traces the reference would, on every replica and every rerun.
 */
import { createHash } from 'node:crypto';

const TWO_POW_48 = 2 ** 48;

/**
 * Map a key to [0, 1): the first 6 bytes of SHA-256 of the UTF-8 key, read big-endian, divided by 2^48.
 * Callers pass the lowercase hex trace id. `hashToUnitInterval('0af7651916cd43dd8448eb211c80319c')` is
 * `0.08580714096926556`.
 */
export function hashToUnitInterval(key: string): number {
  const digest = createHash('sha256').update(key, 'utf8').digest();
  return digest.readUIntBE(0, 6) / TWO_POW_48;
}

/**
 * The rate decision: sampled when `u(traceId) < rate`. Nested by construction: a trace kept at rate r is
 * kept at every rate above r. Rate 0 never samples, rate 1 always does.
 */
export function sampledAtRate(traceId: string, rate: number): boolean {
  if (rate >= 1) return true;
  if (!(rate > 0)) return false;
  return hashToUnitInterval(traceId.toLowerCase()) < rate;
}
