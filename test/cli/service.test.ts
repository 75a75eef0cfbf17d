import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import type { Trace } from '../../src/model/span.js';
import { buildService } from '../../src/service/build.js';
import { createSettings } from '../../src/service/settings.js';
import { makeFixtures } from './fixtures.js';

describe('buildService', () => {
  it('feeds the receivers into the assembler and the pluggable handler; shutdown() flushes and is safe twice', async () => {
    const fx = await makeFixtures();
    const config = parseConfig({ sources: { otlp: { http: { port: 0 }, grpc: { port: 0 } } }, assembly: { decisionWaitMs: 60_000 }, emit: { prometheus: { port: 0 } } }, 'test', {});
    const handled: Trace[] = [];
    const service = await buildService(config, createSettings(config, { env: {} }), {
      source: { kind: 'configured' },
      handleTrace: async (t) => {
        await new Promise((r) => setTimeout(r, 10));
        handled.push(t);
      },
    });
    await service.start();
    const ports = service.ports();
    try {
      const res = await fetch(`http://127.0.0.1:${ports.http}/v1/traces`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: fx.json,
      });
      expect(res.status).toBe(200);
      expect(service.assembler.bufferedTraces).toBe(2);
      expect(handled).toHaveLength(0);
    } finally {
      await Promise.all([service.shutdown(), service.shutdown()]);
    }
    expect(handled.map((t) => t.traceId).sort()).toEqual([fx.traceA, fx.traceB].sort());
    expect(handled.every((t) => t.source === 'otlp')).toBe(true);
    // intake is closed after shutdown
    await expect(fetch(`http://127.0.0.1:${ports.http}/v1/traces`, { method: 'POST', body: '{}' })).rejects.toThrow();
  });

  it('receivers can be disabled', async () => {
    const config = parseConfig({ sources: { otlp: { http: { enabled: false }, grpc: { enabled: false } } }, emit: { prometheus: { enabled: false } } }, 'test', {});
    const service = await buildService(config, createSettings(config, { env: {} }), { source: { kind: 'configured' } });
    await service.start();
    expect(service.ports()).toEqual({});
    await service.shutdown();
  });
});
