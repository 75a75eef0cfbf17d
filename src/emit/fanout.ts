/**
 * Hands every record to every emitter, concurrently. The combined result is the worst one that still asks
 * for action: `retryable` if any emitter wants the records again (the caller may resend to all; ids are
 * deterministic, so duplicates are recognisable), else `permanent` if any refused them, else `success`.
 */
import { errorMessage } from '../errors.js';
import type { ScoreRecord } from '../model/score-record.js';
import type { EmitResult, Emitter } from './emitter.js';

export class FanoutEmitter implements Emitter {
  readonly name = 'fanout';
  constructor(readonly emitters: readonly Emitter[]) {}

  async emit(records: readonly ScoreRecord[]): Promise<EmitResult> {
    const results = await Promise.all(this.emitters.map((e) => e.emit(records).catch((err: unknown): EmitResult => ({ code: 'retryable', error: new Error(errorMessage(err)) }))));
    return combineResults(this.emitters.map((e, i) => [e.name, results[i] ?? { code: 'success' }]));
  }

  async start(): Promise<void> {
    await Promise.all(this.emitters.map((e) => e.start()));
  }

  async shutdown(deadline: number): Promise<void> {
    await Promise.all(this.emitters.map((e) => e.shutdown(deadline).catch(() => undefined)));
  }
}

/** Combine per-emitter results; error messages name the emitters that failed. */
export function combineResults(results: ReadonlyArray<readonly [string, EmitResult]>): EmitResult {
  const retryable = results.filter(([, r]) => r.code === 'retryable');
  const permanent = results.filter(([, r]) => r.code === 'permanent');
  const describe = (rs: typeof results): Error => new Error(rs.map(([name, r]) => `${name}: ${r.code === 'success' ? 'ok' : errorMessage(r.error)}`).join('; '));
  if (retryable.length > 0) {
    const waits = retryable.map(([, r]) => (r.code === 'retryable' ? r.retryAfterMs : undefined)).filter((n): n is number => typeof n === 'number');
    return { code: 'retryable', error: describe(retryable), ...(waits.length ? { retryAfterMs: Math.max(...waits) } : {}) };
  }
  if (permanent.length > 0) return { code: 'permanent', error: describe(permanent) };
  return { code: 'success' };
}
