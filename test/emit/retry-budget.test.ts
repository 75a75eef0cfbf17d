/**
 * The buffered emitter's time budget on a fake clock: a 60-second outage is ridden out under the 5-minute default,
 * an outage longer than the budget hands the records back as retryable when the budget is spent (not after a count
 * of attempts), the byte bound refuses at once, and the outage is one warning per interval, not one per attempt.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { componentSettings } from '../../src/component.js';
import { BufferedEmitter, DEFAULT_MAX_ELAPSED_MS, estimateRecordBytes, type RecordSender } from '../../src/emit/buffered-emitter.js';
import type { EmitResult } from '../../src/emit/emitter.js';
import type { ScoreRecord } from '../../src/model/score-record.js';
import { scoreRecord } from './records.js';

/** A destination that is down until `upAt` (fake-clock ms), then accepts everything. */
class OutageSender implements RecordSender {
  readonly name = 'outage';
  readonly destination = 'http://127.0.0.1:1/v1/traces';
  attempts: number[] = [];
  delivered: ScoreRecord[] = [];
  constructor(private readonly upAt: number) {}
  send(records: readonly ScoreRecord[]): Promise<EmitResult> {
    this.attempts.push(Date.now());
    if (Date.now() < this.upAt) return Promise.resolve({ code: 'retryable', error: new Error('connect ECONNREFUSED 127.0.0.1:1') });
    this.delivered.push(...records);
    return Promise.resolve({ code: 'success' });
  }
}

function capturingLogger(): { lines: { level: number; msg: string; recordsHeld?: number; destination?: string }[]; logger: pino.Logger } {
  const lines: { level: number; msg: string }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as { level: number; msg: string });
      done();
    },
  });
  return { lines, logger: pino({ level: 'debug' }, stream) };
}

const base = { maxRecords: 10_000, maxBatchRecords: 512, initialBackoffMs: 500, maxBackoffMs: 30_000 };

describe('BufferedEmitter retry budget (fake clock)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('rides out a 60 s outage with the default budget (5 minutes), delivering every record once', async () => {
    const start = Date.now();
    const sender = new OutageSender(start + 60_000);
    const { lines, logger } = capturingLogger();
    const emitter = new BufferedEmitter(sender, base, componentSettings({ logger }));
    const records = Array.from({ length: 40 }, (_, i) => scoreRecord({ scorer: `s${i}` }));
    const results = records.map((r) => emitter.emit([r]));
    await vi.advanceTimersByTimeAsync(120_000);
    const codes = await Promise.all(results);
    expect(codes.every((r) => r.code === 'success')).toBe(true);
    expect(new Set(sender.delivered.map((r) => r.evaluationId)).size).toBe(40);
    expect(sender.delivered).toHaveLength(40);
    // Backoff doubles to its 30 s cap: a handful of attempts, not a tight loop.
    expect(sender.attempts.length).toBeLessThan(15);
    const warns = lines.filter((l) => l.level === 40);
    // One warning per 10 s interval at most, after the first 5 s; each names the destination and the records held.
    expect(warns.length).toBeGreaterThanOrEqual(1);
    expect(warns.length).toBeLessThanOrEqual(6);
    expect(warns[0]?.destination).toBe(sender.destination);
    expect(warns[0]?.recordsHeld).toBe(40);
    expect(lines.some((l) => l.level === 30 && /delivers again/.test(l.msg))).toBe(true);
    await emitter.shutdown(Date.now() + 1000);
  });

  it('hands records back as retryable when the time budget is spent, not before', async () => {
    const start = Date.now();
    const sender = new OutageSender(Number.POSITIVE_INFINITY);
    const emitter = new BufferedEmitter(sender, base, componentSettings());
    let result: EmitResult | undefined;
    void emitter.emit([scoreRecord()]).then((r) => (result = r));
    await vi.advanceTimersByTimeAsync(DEFAULT_MAX_ELAPSED_MS - 1_000);
    expect(result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(result?.code).toBe('retryable');
    // The last attempt is made when the budget ends (the last wait is cut to it).
    expect((sender.attempts.at(-1) ?? 0) - start).toBe(DEFAULT_MAX_ELAPSED_MS);
    await emitter.shutdown(Date.now() + 1000);
  });

  it('a 60 s outage with a 10 s budget is given back after 10 s', async () => {
    const start = Date.now();
    const sender = new OutageSender(start + 60_000);
    const emitter = new BufferedEmitter(sender, { ...base, maxElapsedMs: 10_000 }, componentSettings());
    const p = emitter.emit([scoreRecord()]);
    await vi.advanceTimersByTimeAsync(10_001);
    expect((await p).code).toBe('retryable');
    expect((sender.attempts.at(-1) ?? 0) - start).toBe(10_000);
    await emitter.shutdown(Date.now() + 1000);
  });

  it('with onExhausted: drop, records whose budget is spent are dropped (permanent, reason retry_exhausted)', async () => {
    const sender = new OutageSender(Number.POSITIVE_INFINITY);
    const emitter = new BufferedEmitter(sender, { ...base, maxElapsedMs: 10_000, onExhausted: 'drop' }, componentSettings());
    const p = emitter.emit([scoreRecord()]);
    await vi.advanceTimersByTimeAsync(10_001);
    const result = await p;
    expect(result.code).toBe('permanent');
    expect(result.code === 'permanent' && result.reason).toBe('retry_exhausted');
    await emitter.shutdown(Date.now() + 1000);
  });

  it('bounds the buffer in estimated bytes as well as records', async () => {
    const sender = new OutageSender(Number.POSITIVE_INFINITY);
    const big = scoreRecord({ reason: 'x'.repeat(10_000) });
    const emitter = new BufferedEmitter(sender, { ...base, maxBytes: estimateRecordBytes(big) * 2 + 10 }, componentSettings());
    const held = [emitter.emit([big]), emitter.emit([big])];
    expect(emitter.bufferedBytes).toBe(estimateRecordBytes(big) * 2);
    const refused = await emitter.emit([big]);
    expect(refused.code).toBe('retryable');
    expect(refused.code === 'retryable' && refused.error.message).toMatch(/buffer full .*bytes/);
    expect(emitter.buffered).toBe(2);
    await emitter.shutdown(Date.now());
    for (const r of await Promise.all(held)) expect(r.code).toBe('retryable');
  });
});
