import { describe, expect, it } from 'vitest';
import { BufferedEmitter, type RecordSender } from '../../src/emit/buffered-emitter.js';
import type { EmitResult } from '../../src/emit/emitter.js';
import type { ScoreRecord } from '../../src/model/score-record.js';
import { emitterHealth, readiness } from '../../src/service/health.js';

const record: ScoreRecord = { evaluationId: 'e1', traceId: 't', spanId: 's', agentName: 'a', scorer: 'x', scorerVersion: '3f2a9c1e5b7d', score: 1, samplingRate: 1, durationMs: 0, timestamp: '2026-12-07T00:00:00.000Z', source: 'otlp' };

describe('BufferedEmitter health', () => {
  it('is ready while idle and while sending, not ready once a record was held past maxEmitHeldMs, ready again once delivered', async () => {
    let release: ((r: EmitResult) => void) | undefined;
    const sender: RecordSender = { name: 'stuck', send: () => new Promise<EmitResult>((resolve) => (release = resolve)) };
    const emitter = new BufferedEmitter(sender, { maxRecords: 100, maxBatchRecords: 10, initialBackoffMs: 10, maxBackoffMs: 10, maxAttempts: 1 });
    const health = emitterHealth(emitter, 200, Date.now);
    expect(health.health()).toEqual({ ready: true, state: 'idle' });
    const handedIn = Date.now();
    const sent = emitter.emit([record]);
    await new Promise((r) => setTimeout(r, 20));
    expect(emitter.heldSinceMs()).toBeGreaterThanOrEqual(handedIn);
    expect(health.health().state).toBe('sending');
    await new Promise((r) => setTimeout(r, 250));
    const h = health.health();
    expect(h).toMatchObject({ ready: false, state: 'held' });
    expect(h.reason).toMatch(/emitter stuck has held records undelivered for \d+ s \(telemetry\.health\.maxEmitHeldMs: 200\)/);
    expect(readiness([health])).toEqual({ ready: false, reasons: [h.reason] });
    release?.({ code: 'success' });
    expect(await sent).toEqual({ code: 'success' });
    expect(emitter.heldSinceMs()).toBeUndefined();
    expect(health.health()).toEqual({ ready: true, state: 'idle' });
    await emitter.shutdown(Date.now() + 100);
  });
});
