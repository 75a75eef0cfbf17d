import { z } from 'zod';

export const assemblySection = z
  .strictObject({
    /** Quiet time after a trace's last span (once its root has arrived) before it is decided. */
    decisionWaitMs: z.number().int().min(0).default(5000),
    /** A trace is decided at this age even without a root span. */
    maxTraceAgeMs: z.number().int().positive().default(30_000),
    maxBufferedTraces: z.number().int().positive().default(50_000),
    maxSpansPerTrace: z.number().int().positive().default(10_000),
    maxBufferedBytes: z.number().int().positive().default(512 * 1024 * 1024),
    /** How many decided trace ids are remembered to count late spans. */
    decidedCacheSize: z.number().int().min(0).default(100_000),
    /** How often the assembler checks for ready traces. */
    tickMs: z.number().int().positive().default(250),
  })
  .prefault({});
