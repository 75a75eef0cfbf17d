/**
 * pino JSON logs to stderr (stdout carries only records). Lifecycle at info, never per span. Each service
 * has its own logger and its own {@link Secrets}: values registered there (the judge API key) are scrubbed
 * from every line that logger writes, and from judge errors and reasons.
 */
import { pino, type DestinationStream, type Logger } from 'pino';

/** Values that must never appear in a log line, an error message or a score record. */
export class Secrets {
  readonly #values = new Set<string>();

  /** Register a value (e.g. the judge API key); values shorter than 4 characters are ignored. */
  add(value: string | undefined): void {
    if (value && value.length >= 4) this.#values.add(value);
  }

  /** `text` with every registered value replaced by `[REDACTED]`. */
  scrub(text: string): string {
    let out = text;
    for (const s of this.#values) if (out.includes(s)) out = out.split(s).join('[REDACTED]');
    return out;
  }

  get size(): number {
    return this.#values.size;
  }
}

export interface LoggerOptions {
  /** Default: `TRACEJUDGE_LOG_LEVEL`, else `silent` under vitest, else `info`. */
  level?: string;
  env?: Readonly<Record<string, string | undefined>>;
  secrets?: Secrets;
  /** Default: stderr, asynchronously (flush before exit with `logger.flush`). */
  destination?: DestinationStream;
}

/** A pino logger writing JSON lines to stderr, with key paths and `secrets` redacted. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const env = options.env ?? process.env;
  const level = options.level ?? env.TRACEJUDGE_LOG_LEVEL ?? (env.VITEST ? 'silent' : 'info');
  const secrets = options.secrets;
  return pino(
    {
      name: 'tracejudge',
      level,
      redact: { paths: ['apiKey', '*.apiKey', 'judge.apiKey', 'headers.authorization', '*.headers.authorization'], censor: '[REDACTED]' },
      hooks: {
        streamWrite: (s: string) => (secrets && secrets.size > 0 ? secrets.scrub(s) : s),
      },
    },
    options.destination ?? pino.destination({ fd: 2, sync: false }),
  );
}

/** A logger that writes nothing (library defaults and tests). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

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
