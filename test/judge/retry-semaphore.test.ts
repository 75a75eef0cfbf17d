import { describe, expect, it } from 'vitest';
import { APICallError } from 'ai';
import { backoffMs, classifyCallError, retryAfterMs } from '../../src/judge/retry.js';
import { Semaphore } from '../../src/judge/semaphore.js';

const apiError = (statusCode: number | undefined, body: unknown, headers: Record<string, string> = {}) =>
  new APICallError({ message: 'm', url: 'http://x', requestBodyValues: {}, ...(statusCode ? { statusCode } : {}), responseHeaders: headers, responseBody: JSON.stringify(body), data: body });

describe('retryAfterMs', () => {
  it('reads retry-after-ms first, then Retry-After seconds or HTTP date', () => {
    expect(retryAfterMs({ 'retry-after-ms': '250', 'retry-after': '9' })).toBe(250);
    expect(retryAfterMs({ 'Retry-After': '2' })).toBe(2000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }, now)).toBe(3000);
    expect(retryAfterMs({ 'retry-after': 'soon' })).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});

describe('classifyCallError', () => {
  it('retries 408/409/429/5xx, not 400/401, and never insufficient_quota', () => {
    for (const s of [408, 409, 429, 500, 503, 529]) expect(classifyCallError(apiError(s, {})).retry, String(s)).toBe(true);
    for (const s of [400, 401, 404]) expect(classifyCallError(apiError(s, {})).retry, String(s)).toBe(false);
    const q = classifyCallError(apiError(429, { error: { code: 'insufficient_quota' } }));
    expect(q).toMatchObject({ retry: false, kind: 'quota', providerCode: 'insufficient_quota' });
  });
  it('carries the Retry-After wait', () => {
    expect(classifyCallError(apiError(429, {}, { 'retry-after': '1' }))).toMatchObject({ retry: true, retryAfterMs: 1000 });
  });
});

describe('backoffMs', () => {
  it('doubles from the initial wait, capped, with at most 20 % jitter down', () => {
    for (let i = 0; i < 20; i++) {
      const b = backoffMs(3, 100, 10_000);
      expect(b).toBeGreaterThan(320);
      expect(b).toBeLessThanOrEqual(400);
    }
    expect(backoffMs(30, 100, 1_000)).toBeLessThanOrEqual(1_000);
  });
});

describe('Semaphore', () => {
  it('admits at most `limit` holders, in FIFO order', async () => {
    const sem = new Semaphore(2);
    const order: number[] = [];
    const releases = await Promise.all([sem.acquire(), sem.acquire()]);
    const waiting = [3, 4].map((n) => sem.acquire().then((r) => (order.push(n), r)));
    expect(sem.waiting).toBe(2);
    releases[0]?.();
    releases[0]?.(); // twice is harmless
    const r3 = await waiting[0];
    expect(order).toEqual([3]);
    expect(sem.inUse).toBe(2);
    releases[1]?.();
    const r4 = await waiting[1];
    r3?.();
    r4?.();
    expect(sem.inUse).toBe(0);
  });
  it('a waiter can be aborted', async () => {
    const sem = new Semaphore(1);
    const hold = await sem.acquire();
    const ac = new AbortController();
    const p = sem.acquire(ac.signal);
    ac.abort(new Error('stop'));
    await expect(p).rejects.toThrow('stop');
    expect(sem.waiting).toBe(0);
    hold();
    expect(sem.inUse).toBe(0);
  });
});
