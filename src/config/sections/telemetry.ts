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
    /**
     * `text`: one readable line per entry (local time, level name, message, fields); `json`: pino JSON lines.
     * Unset: text when stderr is a terminal, else JSON. `TRACEJUDGE_LOG_FORMAT` wins.
     */
    logFormat: z.enum(['json', 'text']).optional(),
    /** `serve` must finish shutting down within this. */
    shutdownTimeoutMs: z.number().int().positive().default(10_000),
    /** What `/readyz` and the component state gauge judge (docs/operations.md, "Readiness"). */
    health: z
      .strictObject({
        /** `/readyz` answers 503 once an emitter has held a record undelivered for longer than this. */
        maxEmitHeldMs: z.number().int().positive().default(60_000),
        /** While judge evaluations fail, one warn line with their counts at most this often. */
        judgeFailureLogIntervalMs: z.number().int().positive().default(60_000),
      })
      .prefault({}),
  })
  .prefault({});
