/**
 * `tracejudge serve` whose own OTLP export points at its own receiver (issue 32, item 4): with
 * OTEL_EXPORTER_OTLP_ENDPOINT (the app's variable) set in its shell it refuses to start, exit 2, one line naming
 * the variable and the receiver; with TRACEJUDGE_OTLP_ENDPOINT set to a real collector beside it, it starts and
 * its results reach that collector, none come back to itself.
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OtlpReceiver } from '../emit/otlp-receiver.js';
import { childEnv, removeDir, runCli, ServeProcess, tempDir, until } from '../e2e/serve-process.js';
import { makeFixtures, type Fixtures } from './fixtures.js';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

const yaml = (port: number): string =>
  [
    'sources:',
    `  otlp: { http: { port: ${port} }, grpc: { enabled: false } }`,
    'assembly: { decisionWaitMs: 200, tickMs: 50 }',
    'emit: { stdout: { enabled: false }, prometheus: { port: 0 } }',
    'telemetry: { shutdownTimeoutMs: 8000 }',
    '',
  ].join('\n');

describe('serve exporting to its own receiver', () => {
  let dir: string;
  let port: number;
  let fx: Fixtures;
  const collector = new OtlpReceiver();
  const serve = new ServeProcess();

  beforeAll(async () => {
    fx = await makeFixtures();
    dir = await tempDir('self-loop');
    port = await freePort();
    writeFileSync(join(dir, 'loop.yaml'), yaml(port));
    await collector.start();
  });

  afterAll(async () => {
    await serve.stop().catch(() => undefined);
    await collector.stop();
    await removeDir(dir);
  });

  it('refuses to start, exit 2, one line naming OTEL_EXPORTER_OTLP_ENDPOINT, the receiver and the fix', async () => {
    const endpoint = `http://localhost:${port}`;
    const r = await runCli(['serve', '-c', join(dir, 'loop.yaml')], childEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint }), 30_000);
    expect(r.code).toBe(2);
    const lines = r.stderr.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('{'));
    expect(lines).toEqual([
      `tracejudge: OTEL_EXPORTER_OTLP_ENDPOINT=${endpoint} points at tracejudge's own receiver sources.otlp.http (127.0.0.1:${port}): its results would come back to it as input; ` +
        "OTEL_EXPORTER_OTLP_ENDPOINT is for the app you instrument: unset it in the shell that runs tracejudge, and set emit.otlp.endpoint or TRACEJUDGE_OTLP_ENDPOINT for tracejudge's own export",
    ]);
    expect(r.stderr).not.toMatch(/"level":50/);
  }, 40_000);

  it('an endpoint set in emit.otlp.endpoint is refused the same way, naming the key', async () => {
    writeFileSync(join(dir, 'key.yaml'), yaml(port).replace('emit: {', `emit: { otlp: { endpoint: "http://127.0.0.1:${port}" },`));
    const r = await runCli(['serve', '-c', join(dir, 'key.yaml')], childEnv({}), 30_000);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`tracejudge: emit.otlp.endpoint=http://127.0.0.1:${port} points at tracejudge's own receiver sources.otlp.http`);
  }, 40_000);

  it('check-config reports the loop as serve would, exit 2; without the variable the config is valid', async () => {
    const cfg = join(dir, 'loop.yaml');
    const bad = await runCli(['check-config', '-c', cfg], childEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` }), 30_000);
    expect(bad.code).toBe(2);
    expect(bad.stdout + bad.stderr).toContain(`sources.otlp.http: OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:${port} points at tracejudge's own receiver sources.otlp.http`);
    const good = await runCli(['check-config', '-c', cfg], childEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector.example:4318' }), 30_000);
    expect(good.code).toBe(0);
  }, 40_000);

  it('a TRACEJUDGE_OTLP_ENDPOINT that is not a URL is a config error naming the variable, exit 2', async () => {
    const r = await runCli(['serve', '-c', join(dir, 'loop.yaml')], childEnv({ TRACEJUDGE_OTLP_ENDPOINT: 'collector:4318' }), 30_000);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('tracejudge: TRACEJUDGE_OTLP_ENDPOINT: must be an http:// or https:// URL, got "collector:4318"');
  }, 40_000);

  it('starts with TRACEJUDGE_OTLP_ENDPOINT at a collector (the app variable beside it ignored); results reach the collector', async () => {
    await serve.start(dir, 'ok.yaml', yaml(port), childEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://localhost:${port}`, TRACEJUDGE_OTLP_ENDPOINT: collector.httpUrl }));
    const res = await fetch(`${serve.otlpHttpUrl}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/x-protobuf' }, body: fx.proto });
    expect(res.status).toBe(200);
    await until('evaluation spans at the collector', 30_000, () => (collector.spans.some((s) => s.name.startsWith('evaluation ')) ? true : undefined));
    expect(serve.logs().filter((l) => /after their trace was decided/.test(String(l.msg)))).toEqual([]);
    expect(await serve.stop()).toBe(0);
  }, 60_000);
});
