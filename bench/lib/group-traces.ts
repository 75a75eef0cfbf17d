/** Decoded spans grouped into traces, as the assembler hands them on (for the in-process micro-benchmarks). */
import type { Span, Trace } from '../../src/model/span.js';

/** One `Trace` per trace id over every span of `batches`, spans in the order met. */
export function groupTraces(batches: Iterable<{ readonly spans: readonly Span[] }>): Trace[] {
  const byTrace = new Map<string, Span[]>();
  for (const b of batches) {
    for (const s of b.spans) {
      const list = byTrace.get(s.traceId);
      if (list) list.push(s);
      else byTrace.set(s.traceId, [s]);
    }
  }
  return [...byTrace].map(([traceId, spans]) => ({ traceId, spans, logs: [], source: 'otlp' }));
}
