import { z } from 'zod';

export const telemetrySection = z
  .strictObject({
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** `serve` must finish shutting down within this. */
    shutdownTimeoutMs: z.number().int().positive().default(10_000),
  })
  .prefault({});
