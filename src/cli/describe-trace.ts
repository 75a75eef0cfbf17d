/**
 * What `score` and `extract` print per assembled trace until extraction and scoring are plugged in:
 * a JSON description of the trace as the assembler produced it.
 */
import type { Trace } from '../model/span.js';

export interface TraceDescription {
  traceId: string;
  spanCount: number;
  logCount: number;
  spanNames: string[];
  /** The root span, or null when the trace has none (decided at its age limit or at flush). */
  root: { spanId: string; name: string } | null;
  source: Trace['source'];
}

export function describeTrace(trace: Trace): TraceDescription {
  const root = trace.spans.find((s) => s.parentSpanId === '');
  return {
    traceId: trace.traceId,
    spanCount: trace.spans.length,
    logCount: trace.logs.length,
    spanNames: trace.spans.map((s) => s.name),
    root: root ? { spanId: root.spanId, name: root.name } : null,
    source: trace.source,
  };
}
