/**
 * pino JSON logs to stderr (stdout carries only records). Lifecycle at info, never per span.
 * Secrets are redacted by path; the judge API key is also scrubbed from any message via `registerSecret`.
 */
import { pino, type Logger } from 'pino';

const secrets = new Set<string>();

/** Register a value (e.g. the judge API key) that must never appear in a log line. */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 4) secrets.add(value);
}

/** Replace every registered secret in `text` with `[REDACTED]`. */
export function scrubSecrets(text: string): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join('[REDACTED]');
  return out;
}

function createLogger(): Logger {
  const level = process.env.TRACEJUDGE_LOG_LEVEL ?? (process.env.VITEST ? 'silent' : 'info');
  return pino(
    {
      name: 'tracejudge',
      level,
      redact: { paths: ['apiKey', '*.apiKey', 'judge.apiKey', 'headers.authorization', '*.headers.authorization'], censor: '[REDACTED]' },
      hooks: {
        streamWrite: (s: string) => (secrets.size ? scrubSecrets(s) : s),
      },
    },
    pino.destination({ fd: 2, sync: false }),
  );
}

export const logger: Logger = createLogger();

/**
 * Logs a repeated condition once per interval with a count, never per occurrence
 * (opentelemetry-js style drop accounting).
 */
export class ThrottledLog {
  private count = 0;
  private lastAt = 0;
  constructor(
    private readonly log: Logger,
    private readonly message: string,
    private readonly intervalMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  hit(n = 1, fields: Record<string, unknown> = {}): void {
    this.count += n;
    const t = this.now();
    if (t - this.lastAt >= this.intervalMs) {
      this.log.warn({ ...fields, count: this.count }, this.message);
      this.count = 0;
      this.lastAt = t;
    }
  }
}
