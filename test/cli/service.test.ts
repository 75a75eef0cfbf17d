import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import type { Trace } from '../../src/model/span.js';
import { startService } from '../../src/service.js';
import { makeFixtures } from './fixtures.js';

describe('startService', () => {
  it('feeds the receivers into the assembler and the pluggable handler; stop() flushes and is safe twice', async () => {
    const fx = await makeFixtures();
    const config = parseConfig({ sources: { otlp: { http: { port: 0 }, grpc: { port: 0 } } }, assembly: { decisionWaitMs: 60_000 }, emit: { prometheus: { port: 0 } } }, 'test', {});
    const handled: Trace[] = [];
    const service = await startService(config, {
      handleTrace: async (t) => {
        await new Promise((r) => setTimeout(r, 10));
        handled.push(t);
      },
    });
    try {
      const res = await fetch(`http://127.0.0.1:${service.ports.http}/v1/traces`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: fx.json,
      });
      expect(res.status).toBe(200);
      expect(service.assembler.bufferedTraces).toBe(2);
      expect(handled).toHaveLength(0);
    } finally {
      await Promise.all([service.stop(), service.stop()]);
    }
    expect(handled.map((t) => t.traceId).sort()).toEqual([fx.traceA, fx.traceB].sort());
    expect(handled.every((t) => t.source === 'otlp')).toBe(true);
    // intake is closed after stop
    await expect(fetch(`http://127.0.0.1:${service.ports.http}/v1/traces`, { method: 'POST', body: '{}' })).rejects.toThrow();
  });

  it('receivers can be disabled', async () => {
    const config = parseConfig({ sources: { otlp: { http: { enabled: false }, grpc: { enabled: false } } }, emit: { prometheus: { enabled: false } } }, 'test', {});
    const service = await startService(config);
    expect(service.ports).toEqual({});
    await service.stop();
  });
});
