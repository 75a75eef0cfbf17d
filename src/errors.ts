/**
 * The catalogue of coded errors. Codes are stable and documented in the README; messages name
 * what was wrong and where (file, key path, byte offset, HTTP status).
 */
export const ErrorCodes = {
  CONFIG_INVALID: 'TJ_CONFIG_INVALID',
  CONFIG_UNREADABLE: 'TJ_CONFIG_UNREADABLE',
  INPUT_UNREADABLE: 'TJ_INPUT_UNREADABLE',
  INPUT_MALFORMED: 'TJ_INPUT_MALFORMED',
  OTLP_DECODE: 'TJ_OTLP_DECODE',
  BODY_TOO_LARGE: 'TJ_BODY_TOO_LARGE',
  BACKPRESSURE: 'TJ_BACKPRESSURE',
  JUDGE_FAILED: 'TJ_JUDGE_FAILED',
  JUDGE_SCHEMA: 'TJ_JUDGE_SCHEMA',
  JUDGE_TIMEOUT: 'TJ_JUDGE_TIMEOUT',
  JUDGE_QUOTA: 'TJ_JUDGE_QUOTA',
  SCORER_FAILED: 'TJ_SCORER_FAILED',
  SCORER_MODULE: 'TJ_SCORER_MODULE',
  EMIT_FAILED: 'TJ_EMIT_FAILED',
  USAGE: 'TJ_USAGE',
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

/** Base error: a code from the catalogue plus a one-line message. */
export class TracejudgeError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TracejudgeError';
    this.code = code;
  }
}

/**
 * A trace's records were not accepted by every output when delivery had to stop (shutdown): the trace is left
 * unsettled, so its Kafka offset is not committed past it and its write-ahead log record is replayed.
 */
export class UndeliveredError extends TracejudgeError {
  constructor(message: string) {
    super(ErrorCodes.EMIT_FAILED, message);
    this.name = 'UndeliveredError';
  }
}

/** One config problem at a key path, e.g. `sampling.agents["billing-*"].rate`. */
export interface ConfigIssue {
  path: string;
  message: string;
}

export class ConfigError extends TracejudgeError {
  readonly file: string;
  readonly issues: readonly ConfigIssue[];
  constructor(file: string, issues: readonly ConfigIssue[]) {
    const first = issues[0];
    super(
      ErrorCodes.CONFIG_INVALID,
      `${file}: ${first ? `${first.path || '(root)'}: ${first.message}` : 'invalid'}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ''}`,
    );
    this.name = 'ConfigError';
    this.file = file;
    this.issues = issues;
  }
}

/** Malformed OTLP data; `offset` is a byte offset into the (decompressed) payload when known. */
export class DecodeError extends TracejudgeError {
  readonly offset: number | undefined;
  constructor(message: string, offset?: number, options?: { cause?: unknown }) {
    super(ErrorCodes.OTLP_DECODE, offset === undefined ? message : `${message} at byte offset ${offset}`, options);
    this.name = 'DecodeError';
    this.offset = offset;
  }
}

/** Render any thrown value as a one-line message. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message.split('\n')[0] ?? err.name;
  return String(err);
}
