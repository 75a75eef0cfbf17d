/**
 * pino logs to stderr (stdout carries only records): JSON lines, or readable text on a terminal or with
 * `telemetry.logFormat: text` (log-text.ts). Lifecycle at info, never per span. Each service
 * has its own logger and its own {@link Secrets}: values registered there (the judge API key) are scrubbed
 * from every line that logger writes, and from judge errors and reasons.
 */
import { pino, type DestinationStream, type Logger } from 'pino';
import { formatLogLine } from './log-text.js';

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

/** `json`: pino JSON lines; `text`: one readable line per entry (local time, level name, message, fields). */
export type LogFormat = 'json' | 'text';

/** The format when none is configured: `TRACEJUDGE_LOG_FORMAT`, else text when stderr is a terminal, else JSON. */
export function defaultLogFormat(env: Readonly<Record<string, string | undefined>> = process.env, isTty = process.stderr.isTTY === true): LogFormat {
  const fromEnv = env.TRACEJUDGE_LOG_FORMAT;
  if (fromEnv === 'json' || fromEnv === 'text') return fromEnv;
  return isTty ? 'text' : 'json';
}

/** A destination whose format can be set once the config is read (the CLI's logger exists before it). */
class FormattedDestination implements DestinationStream {
  format: LogFormat;
  constructor(
    private readonly inner: DestinationStream & { flush?: (cb?: (err?: Error) => void) => void; flushSync?: () => void },
    format: LogFormat,
  ) {
    this.format = format;
  }

  write(line: string): void {
    this.inner.write(this.format === 'text' ? formatLogLine(line) : line);
  }

  flush(cb?: (err?: Error) => void): void {
    if (this.inner.flush) this.inner.flush(cb);
    else cb?.();
  }

  flushSync(): void {
    this.inner.flushSync?.();
  }
}

const destinations = new WeakMap<Logger, FormattedDestination>();

/** The format in force: `TRACEJUDGE_LOG_FORMAT` when set, else the configured one, else {@link defaultLogFormat}. */
export function resolveLogFormat(configured: LogFormat | undefined, env: Readonly<Record<string, string | undefined>> = process.env, isTty = process.stderr.isTTY === true): LogFormat {
  const fromEnv = env.TRACEJUDGE_LOG_FORMAT;
  if (fromEnv === 'json' || fromEnv === 'text') return fromEnv;
  return configured ?? defaultLogFormat(env, isTty);
}

/**
 * Switch a logger made by {@link createLogger} (and its children, which share its destination) to the format
 * {@link resolveLogFormat} picks for `configured`. Has no effect on other loggers.
 */
export function setLogFormat(logger: Logger, configured: LogFormat | undefined, env: Readonly<Record<string, string | undefined>> = process.env): void {
  const d = destinations.get(logger);
  if (d) d.format = resolveLogFormat(configured, env);
}

export interface LoggerOptions {
  /** Default: `TRACEJUDGE_LOG_LEVEL`, else `silent` under vitest, else `info`. */
  level?: string;
  env?: Readonly<Record<string, string | undefined>>;
  secrets?: Secrets;
  /** Default: stderr, asynchronously (flush before exit with `logger.flush`). */
  destination?: DestinationStream;
  /** Default: {@link defaultLogFormat} (text on a terminal, else JSON). */
  format?: LogFormat;
}

/** A pino logger writing to stderr (JSON lines, or text: see {@link LogFormat}), with key paths and `secrets` redacted. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const env = options.env ?? process.env;
  const level = options.level ?? env.TRACEJUDGE_LOG_LEVEL ?? (env.VITEST ? 'silent' : 'info');
  const secrets = options.secrets;
  const format = options.format ?? (options.destination ? 'json' : defaultLogFormat(env));
  const destination = new FormattedDestination(options.destination ?? pino.destination({ fd: 2, sync: false }), format);
  const logger = pino(
    {
      name: 'tracejudge',
      level,
      redact: { paths: ['apiKey', '*.apiKey', 'judge.apiKey', 'headers.authorization', '*.headers.authorization'], censor: '[REDACTED]' },
      hooks: {
        streamWrite: (s: string) => (secrets && secrets.size > 0 ? secrets.scrub(s) : s),
      },
    },
    destination,
  );
  destinations.set(logger, destination);
  return logger;
}

/** A logger that writes nothing (library defaults and tests). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

/**
 * Logs a repeated condition once per interval with a count, never per occurrence (opentelemetry-js style drop
 * accounting). The first occurrence is written at once with its fields; later ones within the interval are
 * counted and written when the interval is over (by a timer when no later occurrence comes, or by
 * {@link flush} at shutdown), with the fields of the last one, so no count is left unwritten.
 */
export class ThrottledLog {
  private count = 0;
  private lastAt = -Infinity;
  private lastFields: Record<string, unknown> = {};
  private timer: NodeJS.Timeout | undefined;
  constructor(
    private readonly log: Logger,
    private readonly message: string,
    private readonly intervalMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  hit(n = 1, fields: Record<string, unknown> = {}): void {
    this.count += n;
    this.lastFields = fields;
    const t = this.now();
    if (t - this.lastAt >= this.intervalMs) {
      this.#write(t);
      return;
    }
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        if (this.count > 0) this.#write(this.now());
      }, Math.max(0, this.lastAt + this.intervalMs - t));
      this.timer.unref();
    }
  }

  /** Write the pending count now, if any (at shutdown). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.count > 0) this.#write(this.now());
  }

  #write(t: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.log.warn({ ...this.lastFields, count: this.count }, this.message);
    this.count = 0;
    this.lastAt = t;
  }
}
