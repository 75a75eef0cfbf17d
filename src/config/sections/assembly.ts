import { z } from 'zod';

export const assemblySection = z
  .strictObject({
    /** Quiet time after a trace's last span (once its root has arrived) before it is decided. */
    decisionWaitMs: z.number().int().min(0).default(5000),
    /** A trace is decided at this age (since its first span) even without a root span. */
    maxTraceAgeMs: z.number().int().positive().default(30_000),
    /** Traces held at once (waiting for a decision, queued for or in the handler). */
    maxBufferedTraces: z.number().int().positive().default(50_000),
    /** Spans kept per trace; further spans of that trace are dropped and counted (too_many_spans). */
    maxSpansPerTrace: z.number().int().positive().default(10_000),
    /** Estimated bytes held at once across all held traces. */
    maxBufferedBytes: z.number().int().positive().default(512 * 1024 * 1024),
    /** How many decided trace ids are remembered to count late spans. */
    decidedCacheSize: z.number().int().min(0).default(100_000),
    /** How often the assembler checks for ready traces. */
    tickMs: z.number().int().positive().default(250),
    /** Decided traces being handled (extract → score → emit) at once. */
    maxInFlightTraces: z.number().int().positive().default(64),
    /** Decided traces waiting for a handler slot; when this many wait, new batches are refused. */
    maxQueuedTraces: z.number().int().positive().default(10_000),
    /**
     * At a bound: `refuse` the batch (sources answer 429/503 or pause), or `evict` the oldest traces
     * (dropped and counted as evicted) to make room.
     */
    overflow: z.enum(['refuse', 'evict']).default('refuse'),
  })
  .prefault({});
