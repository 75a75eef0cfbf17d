/**
 * How the judge decides whether and when to try an HTTP call again: 408 / 409 / 429 / 5xx and network
 * errors are retried with exponential backoff; `retry-after-ms` then `Retry-After` (seconds or HTTP date)
 * replace the backoff; OpenAI's `insufficient_quota` 429 is never retried. A streamed answer that broke
 * after it began is a network error: nothing of it was used, so asking again is safe.
 */
import { randomInt } from 'node:crypto';
import type { APICallError } from 'ai';
import { aiNow } from './ai-lazy.js';
import { BrokenStreamError } from './stream-read.js';

/** What one failed HTTP call means for the retry loop. */
export type CallFailure =
  | { retry: true; status?: number; providerCode?: string; retryAfterMs?: number; message: string }
  | { retry: false; kind: 'quota' | 'http' | 'network'; status?: number; providerCode?: string; message: string };

const RETRYABLE_STATUS = (s: number): boolean => s === 408 || s === 409 || s === 429 || s >= 500;

function providerCodeOf(err: APICallError): string | undefined {
  const data = err.data as { error?: { code?: unknown; type?: unknown } } | undefined;
  const code = data?.error?.code ?? data?.error?.type;
  if (typeof code === 'string') return code;
  if (typeof err.responseBody === 'string' && err.responseBody.includes('insufficient_quota')) return 'insufficient_quota';
  return undefined;
}

function header(headers: Record<string, string> | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
  return undefined;
}

/**
 * Milliseconds to wait according to `retry-after-ms` or `Retry-After`, or undefined when neither is
 * usable. `now` is injectable for HTTP-date values.
 */
export function retryAfterMs(headers: Record<string, string> | undefined, now: number = Date.now()): number | undefined {
  const ms = header(headers, 'retry-after-ms');
  if (ms !== undefined) {
    const n = Number.parseFloat(ms);
    if (Number.isFinite(n) && n >= 0) return n;
  }
  const ra = header(headers, 'retry-after');
  if (ra === undefined) return undefined;
  const secs = Number.parseFloat(ra);
  if (Number.isFinite(secs) && secs >= 0 && /^\s*\d+(\.\d+)?\s*$/.test(ra)) return secs * 1000;
  const date = Date.parse(ra);
  if (Number.isFinite(date)) return Math.max(0, date - now);
  return undefined;
}

/** The provider's code of an error event inside a stream: an `APICallError`, or the event's plain error object. */
function streamErrorCode(cause: unknown): string | undefined {
  if (aiNow().APICallError.isInstance(cause)) return providerCodeOf(cause);
  if (cause === null || typeof cause !== 'object') return undefined;
  const c = cause as { code?: unknown; type?: unknown };
  const code = c.code ?? c.type;
  return typeof code === 'string' ? code : undefined;
}

/** A broken answer stream is retried, unless its error event says the quota is exhausted. */
function classifyBrokenStream(err: BrokenStreamError): CallFailure {
  const providerCode = err.reason === 'error' ? streamErrorCode(err.cause) : undefined;
  if (providerCode === 'insufficient_quota') return { retry: false, kind: 'quota', providerCode, message: err.message };
  return { retry: true, ...(providerCode ? { providerCode } : {}), message: err.message };
}

/** Classify an error thrown by one AI SDK call made with `maxRetries: 0` (aborts are handled by the caller). */
export function classifyCallError(err: unknown): CallFailure {
  if (err instanceof BrokenStreamError) return classifyBrokenStream(err);
  if (aiNow().APICallError.isInstance(err)) {
    const status = err.statusCode;
    const providerCode = providerCodeOf(err);
    const message = status !== undefined ? `HTTP ${status}: ${err.message}` : err.message;
    if (status === 429 && providerCode === 'insufficient_quota') {
      return { retry: false, kind: 'quota', status, providerCode, message };
    }
    const retryable = status !== undefined ? RETRYABLE_STATUS(status) : err.isRetryable;
    if (retryable) {
      const wait = retryAfterMs(err.responseHeaders);
      return { retry: true, ...(status !== undefined ? { status } : {}), ...(providerCode ? { providerCode } : {}), ...(wait !== undefined ? { retryAfterMs: wait } : {}), message };
    }
    return { retry: false, kind: status === undefined ? 'network' : 'http', ...(status !== undefined ? { status } : {}), ...(providerCode ? { providerCode } : {}), message };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { retry: false, kind: 'network', message };
}

/**
 * Backoff before retry number `retry` (1-based): `initialMs · 2^(retry-1)` capped at `maxMs`, with up to
 * 20 % downward jitter so a fleet of replicas does not retry in lock step.
 */
export function backoffMs(retry: number, initialMs: number, maxMs: number): number {
  const base = Math.min(maxMs, initialMs * 2 ** Math.max(0, retry - 1));
  if (base <= 1) return base;
  const jitter = randomInt(0, Math.max(1, Math.floor(base * 0.2)));
  return base - jitter;
}

/** Resolve after `ms`, or reject with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(t);
      reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
