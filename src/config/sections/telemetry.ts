import { z } from 'zod';

/** The levels of `telemetry.logLevel` and `TRACEJUDGE_LOG_LEVEL`. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const telemetrySection = z
  .strictObject({
    /**
     * Unset: the command's own default, `info` for `serve` (lifecycle lines), `warn` for the offline commands
     * (`score`, `extract`, `calibrate`, `demo`), whose stderr should carry only what needs attention.
     * `TRACEJUDGE_LOG_LEVEL` wins over both.
     */
    logLevel: z.enum(LOG_LEVELS).optional(),
    /** `serve` must finish shutting down within this. */
    shutdownTimeoutMs: z.number().int().positive().default(10_000),
  })
  .prefault({});
