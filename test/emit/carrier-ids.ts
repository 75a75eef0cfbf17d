/** Expected carrier span ids in end-to-end tests, where the scorer version comes from the service. */
import { carrierSpanIdFor, evaluationIdFor } from '../../src/emit/evaluation-id.js';
import type { ReceivedSpan } from './otlp-receiver.js';

/**
 * The carrier span id the documented formula gives for `scorer` on the agent span, with the scorer version
 * (`tracejudge.scorer.version`) of the received carrier span of that scorer in that trace; '' when no such
 * span carries a version. A test then finds the span by this id, so a wrong id or a missing version fails it.
 */
export function expectedCarrierSpanId(spans: readonly ReceivedSpan[], traceId: string, agentSpanId: string, scorer: string): string {
  const span = spans.find((s) => s.traceId === traceId && s.parentSpanId === agentSpanId && s.name === `evaluation ${scorer}`);
  const version = span?.attributes['tracejudge.scorer.version']?.value;
  return typeof version === 'string' && /^[0-9a-f]{12}$/.test(version) ? carrierSpanIdFor(evaluationIdFor(traceId, agentSpanId, scorer, version)) : '';
}
