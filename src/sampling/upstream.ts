/**
 * Upstream (head) sampling as carried by OTLP `Span.flags` (opentelemetry-proto `SpanFlags`): bits 0-7 are
 * the W3C trace flags, of which only bit 0 is "sampled"; bit 8 says whether bit 9 (parent is remote) is
 * known; bits 10-31 are reserved and may be non-zero. Exporters written before OTLP 1.1 leave the field 0,
 * so 0 means "unknown", never "not sampled". opentelemetry-js, for one, always sets bit 8, so its
 * not-sampled spans arrive as 0x100 or 0x300.
 */

const SPAN_FLAGS_TRACE_FLAGS_MASK = 0xff;
const SPAN_FLAGS_SAMPLED = 0x01;
const SPAN_FLAGS_CONTEXT_HAS_IS_REMOTE_MASK = 0x100;
const SPAN_FLAGS_CONTEXT_IS_REMOTE_MASK = 0x200;
const DEFINED_BITS = SPAN_FLAGS_TRACE_FLAGS_MASK | SPAN_FLAGS_CONTEXT_HAS_IS_REMOTE_MASK | SPAN_FLAGS_CONTEXT_IS_REMOTE_MASK;

/**
 * The upstream sampled flag: `true` / `false` when the exporter set the flags field (any defined bit is
 * non-zero), `undefined` when it did not.
 */
export function upstreamSampled(flags: number): boolean | undefined {
  if (!Number.isInteger(flags) || (flags & DEFINED_BITS) === 0) return undefined;
  return (flags & SPAN_FLAGS_SAMPLED) !== 0;
}
