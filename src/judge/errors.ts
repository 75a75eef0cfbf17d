/**
 * The judge's typed failures. Every message is scrubbed of registered secrets (the API key) and carries
 * no request headers; the provider's raw error object is not attached.
 */
import { ErrorCodes, TracejudgeError } from '../errors.js';
import type { JudgeUsage } from './port.js';

/** Why a judge call failed. */
export type JudgeFailureKind = 'timeout' | 'quota' | 'schema' | 'http' | 'network' | 'aborted' | 'rate_limited';

const CODES = {
  timeout: ErrorCodes.JUDGE_TIMEOUT,
  quota: ErrorCodes.JUDGE_QUOTA,
  schema: ErrorCodes.JUDGE_SCHEMA,
  http: ErrorCodes.JUDGE_FAILED,
  network: ErrorCodes.JUDGE_FAILED,
  aborted: ErrorCodes.JUDGE_FAILED,
  rate_limited: ErrorCodes.JUDGE_FAILED,
} as const;

export interface JudgeErrorDetails {
  kind: JudgeFailureKind;
  modelId: string;
  /** HTTP status of the last answer, when there was one. */
  status?: number;
  /** Provider error code, e.g. `insufficient_quota`. */
  providerCode?: string;
  /** HTTP calls made, including retries and the re-ask. */
  modelCallCount: number;
  /** Answers asked for (1, or 2 after a schema re-ask). */
  attemptCount: number;
  usage: JudgeUsage;
  durationMs: number;
  /** The model's last answer text when it did not fit the schema (scrubbed, truncated). */
  rawOutput?: string;
  finishReason?: string;
}

/**
 * A judge call that failed for good. `code` is one of TJ_JUDGE_TIMEOUT, TJ_JUDGE_QUOTA, TJ_JUDGE_SCHEMA,
 * TJ_JUDGE_FAILED.
 */
export class JudgeError extends TracejudgeError {
  readonly kind: JudgeFailureKind;
  readonly modelId: string;
  readonly status: number | undefined;
  readonly providerCode: string | undefined;
  readonly modelCallCount: number;
  readonly attemptCount: number;
  readonly usage: JudgeUsage;
  readonly durationMs: number;
  readonly rawOutput: string | undefined;
  readonly finishReason: string | undefined;

  constructor(message: string, details: JudgeErrorDetails) {
    super(CODES[details.kind], message);
    this.name = 'JudgeError';
    this.kind = details.kind;
    this.modelId = details.modelId;
    this.status = details.status;
    this.providerCode = details.providerCode;
    this.modelCallCount = details.modelCallCount;
    this.attemptCount = details.attemptCount;
    this.usage = details.usage;
    this.durationMs = details.durationMs;
    this.rawOutput = details.rawOutput === undefined ? undefined : details.rawOutput.slice(0, 2000);
    this.finishReason = details.finishReason;
  }
}
