import { afterAll, describe, expect, it } from 'vitest';
import { BufferedEmitter, type RecordSender } from '../../src/emit/buffered-emitter.js';
import type { ScoreRecord } from '../../src/model/score-record.js';
import type { EmitResult } from '../../src/emit/emitter.js';
import { installTestMeter } from './meter.js';
import { scoreRecord } from './records.js';

const meter = installTestMeter();
afterAll(() => meter.shutdown());

/** A sender that answers from a script, one result per call, and remembers what it was given. */
class ScriptedSender implements RecordSender {
  readonly calls: (readonly ScoreRecord[])[] = [];
  closed = 0;
  gate: Promise<void> | undefined;
  constructor(
    readonly name: string,
    private readonly script: EmitResult[],
    private readonly fallback: EmitResult = { code: 'success' },
  ) {}
  async send(records: readonly ScoreRecord[]): Promise<EmitResult> {
    this.calls.push(records);
    if (this.gate) await this.gate;
    return this.script.shift() ?? this.fallback;
  }
  close(): Promise<void> {
    this.closed++;
    return Promise.resolve();
  }
}

const options = { maxRecords: 4, maxBatchRecords: 2, initialBackoffMs: 5, maxBackoffMs: 20, maxAttempts: 3 };
const retryable = (msg = 'unavailable'): EmitResult => ({ code: 'retryable', error: new Error(msg) });

describe('BufferedEmitter', () => {
  it('retries retryable failures with backoff and succeeds', async () => {
    const sender = new ScriptedSender('retry-ok', [retryable(), retryable()]);
    const emitter = new BufferedEmitter(sender, options, meter.settings);
    expect(await emitter.emit([scoreRecord()])).toEqual({ code: 'success' });
    expect(sender.calls).toHaveLength(3);
    expect(await meter.sum('tracejudge.emit.records', { emitter: 'retry-ok', outcome: 'sent' })).toBe(1);
    await emitter.shutdown(Date.now() + 1000);
  });

  it('gives the records back as retryable after maxAttempts', async () => {
    const sender = new ScriptedSender('retry-exhausted', [], retryable('still down'));
    const emitter = new BufferedEmitter(sender, options, meter.settings);
    const result = await emitter.emit([scoreRecord()]);
    expect(result.code).toBe('retryable');
    expect(sender.calls).toHaveLength(3);
    await emitter.shutdown(Date.now() + 1000);
  });

  it('does not retry a permanent failure and counts it', async () => {
    const sender = new ScriptedSender('perm', [{ code: 'permanent', error: new Error('400 bad request') }]);
    const emitter = new BufferedEmitter(sender, options, meter.settings);
    const result = await emitter.emit([scoreRecord(), scoreRecord({ scorer: 'relevancy' })]);
    expect(result.code).toBe('permanent');
    expect(sender.calls).toHaveLength(1);
    expect(await meter.sum('tracejudge.emit.records', { emitter: 'perm', outcome: 'dropped', reason: 'refused' })).toBe(2);
    await emitter.shutdown(Date.now() + 1000);
  });

  it('treats a throwing sender as retryable', async () => {
    const sender: RecordSender = { name: 'throws', send: () => Promise.reject(new Error('boom')) };
    const emitter = new BufferedEmitter(sender, { ...options, maxAttempts: 1 }, meter.settings);
    const result = await emitter.emit([scoreRecord()]);
    expect(result.code).toBe('retryable');
    await emitter.shutdown(Date.now() + 1000);
  });

  it('is bounded: refuses with retryable when the buffer is full, batches what it holds', async () => {
    let open: () => void = () => undefined;
    const sender = new ScriptedSender('bounded', []);
    sender.gate = new Promise((resolve) => (open = resolve));
    const emitter = new BufferedEmitter(sender, options, meter.settings);
    const first = emitter.emit([scoreRecord(), scoreRecord()]);
    const second = emitter.emit([scoreRecord(), scoreRecord()]);
    expect(emitter.buffered).toBe(4);
    const refused = await emitter.emit([scoreRecord()]);
    expect(refused.code).toBe('retryable');
    expect(refused.code === 'retryable' && refused.error.message).toMatch(/buffer full/);
    open();
    expect(await first).toEqual({ code: 'success' });
    expect(await second).toEqual({ code: 'success' });
    expect(sender.calls.map((c) => c.length)).toEqual([2, 2]);
    expect(emitter.buffered).toBe(0);
    expect(await meter.sum('tracejudge.emit.records', { emitter: 'bounded', outcome: 'rejected' })).toBe(1);
    await emitter.shutdown(Date.now() + 1000);
  });

  it('flushes queued records on shutdown and closes the sender once', async () => {
    const sender = new ScriptedSender('flush', []);
    const emitter = new BufferedEmitter(sender, { ...options, maxRecords: 100 }, meter.settings);
    const pending = [emitter.emit([scoreRecord()]), emitter.emit([scoreRecord()]), emitter.emit([scoreRecord()])];
    await Promise.all([emitter.shutdown(Date.now() + 2000), emitter.shutdown(Date.now() + 2000)]);
    for (const p of pending) expect(await p).toEqual({ code: 'success' });
    expect(sender.calls.flat()).toHaveLength(3);
    expect(sender.closed).toBe(1);
    // Not delivered, not refused: the caller keeps the records (a Kafka offset or WAL record stays unsettled).
    expect((await emitter.emit([scoreRecord()])).code).toBe('retryable');
  });

  it('honours the shutdown deadline when the sink keeps failing, handing records back as retryable', async () => {
    const sender = new ScriptedSender('deadline', [], retryable('down'));
    const emitter = new BufferedEmitter(sender, { ...options, maxAttempts: 100, initialBackoffMs: 50, maxBackoffMs: 50 }, meter.settings);
    const pending = emitter.emit([scoreRecord()]);
    const queued = emitter.emit([scoreRecord(), scoreRecord()]);
    const deadline = Date.now() + 300;
    await emitter.shutdown(deadline);
    expect(Date.now()).toBeLessThan(deadline + 1000);
    expect((await pending).code).toBe('retryable');
    expect((await queued).code).toBe('retryable');
    expect(sender.calls.length).toBeGreaterThan(1);
    expect(sender.calls.length).toBeLessThan(100);
  });
});
