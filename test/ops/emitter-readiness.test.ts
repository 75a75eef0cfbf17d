/**
 * The service's /readyz with an emitter that holds records: 503 naming the emitter once a record has waited
 * longer than `telemetry.health.maxEmitHeldMs`, 200 again once it was delivered; the state gauge follows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { BufferedEmitter, type RecordSender } from '../../src/emit/buffered-emitter.js';
import type { EmitResult } from '../../src/emit/emitter.js';
import { createScorerRegistry } from '../../src/scorers/registry.js';
import { buildService, type Service } from '../../src/service/build.js';
import { createSettings } from '../../src/service/settings.js';
import { post } from '../reliability/helpers/clients.js';
import { Rng } from '../reliability/helpers/rng.js';
import { waitUntil } from '../reliability/helpers/service.js';
import { validRequest } from '../reliability/helpers/traces.js';

describe('readiness with an emitter holding records', () => {
  let service: Service;
  let base: string;
  let httpUrl: string;
  const waiting: ((r: EmitResult) => void)[] = [];
  let blocked = true;

  beforeAll(async () => {
    const scorers = createScorerRegistry();
    const config = parseConfig(
      {
        sources: { otlp: { http: { port: 0 }, grpc: { enabled: false } } },
        assembly: { decisionWaitMs: 100, tickMs: 50 },
        emit: { stdout: { enabled: false }, prometheus: { port: 0 } },
        scorers: { similarity: { type: 'content-similarity' } },
        sampling: { default: { rate: 1 } },
        telemetry: { health: { maxEmitHeldMs: 500 } },
      },
      'emitter-readiness',
      {},
      { scorers },
    );
    const settings = createSettings(config, { env: {}, scorers });
    // A sink that answers only when the test lets it.
    const sender: RecordSender = {
      name: 'stuck',
      send: () => (blocked ? new Promise<EmitResult>((resolve) => waiting.push(resolve)) : Promise.resolve({ code: 'success' })),
    };
    const emitter = new BufferedEmitter(sender, { maxRecords: 1000, maxBatchRecords: 100, initialBackoffMs: 50, maxBackoffMs: 50, maxAttempts: 1 }, settings);
    service = await buildService(config, settings, { source: { kind: 'configured' }, emitters: [emitter] });
    await service.start();
    const ports = service.ports();
    base = `http://127.0.0.1:${ports.metrics ?? 0}`;
    httpUrl = `http://127.0.0.1:${ports.http ?? 0}`;
  });

  afterAll(async () => {
    blocked = false;
    for (const w of waiting.splice(0)) w({ code: 'success' });
    await service.shutdown(Date.now() + 3000);
  });

  it('is 503 naming the emitter past maxEmitHeldMs, and 200 once the records are out', async () => {
    const state = async (s: string): Promise<boolean> =>
      new RegExp(`^tracejudge_component_state\\{[^}]*component="emitter:stuck"[^}]*state="${s}"[^}]*\\} 1$`, 'm').test(await (await fetch(`${base}/metrics`)).text());
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    expect(await state('idle')).toBe(true);
    expect((await post(`${httpUrl}/v1/traces`, validRequest(new Rng(3), 'aisdk6-two-tools').json, 'application/json')).status).toBe(200);
    expect(await waitUntil(() => waiting.length > 0, 10_000)).toBe(true);
    expect(await state('sending')).toBe(true);
    let body = '';
    expect(
      await waitUntil(async () => {
        const r = await fetch(`${base}/readyz`);
        body = await r.text();
        return r.status === 503;
      }, 5000),
    ).toBe(true);
    expect(body).toMatch(/^not ready\nemitter stuck has held records undelivered for \d+ s \(telemetry\.health\.maxEmitHeldMs: 500\)\n$/);
    expect(await state('held')).toBe(true);
    blocked = false;
    for (const w of waiting.splice(0)) w({ code: 'success' });
    expect(await waitUntil(async () => (await fetch(`${base}/readyz`)).status === 200, 5000)).toBe(true);
    expect(await state('idle')).toBe(true);
    expect(await state('held')).toBe(false);
  });
});
