/**
 * SIGTERM when the shutdown cannot finish in time: a custom scorer that never returns holds its trace, so
 * the assembler cannot flush. `serve` must still exit, with code 1, once `telemetry.shutdownTimeoutMs`
 * has passed, and say why; the records that could be scored were emitted before.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { post } from './helpers/clients.js';
import { Rng } from './helpers/rng.js';
import { startServe, tempDir, type ServeProcess } from './helpers/serve-process.js';
import { waitUntil } from './helpers/service.js';
import { validRequest } from './helpers/traces.js';

const SHUTDOWN_TIMEOUT_MS = 3000;
const HANGING = fileURLToPath(new URL('./fixtures/hanging-scorer.ts', import.meta.url));

describe('SIGTERM with a shutdown that cannot finish', () => {
  let serve: ServeProcess | undefined;

  afterAll(() => {
    if (serve?.alive()) serve.child.kill('SIGKILL');
  });

  it('exits 1 after telemetry.shutdownTimeoutMs, naming the deadline', async () => {
    const dir = tempDir('shutdown-deadline');
    const config = join(dir, 'serve.yaml');
    writeFileSync(
      config,
      `
sources: { otlp: { http: { port: 0 }, grpc: { enabled: false } } }
assembly: { decisionWaitMs: 100, tickMs: 20 }
scorers:
  similarity: { type: content-similarity }
  stuck: { type: custom, kind: judge, module: ${JSON.stringify(HANGING)} }
sampling: { default: { rate: 1 } }
emit: { stdout: { enabled: true }, prometheus: { port: 0 } }
telemetry: { shutdownTimeoutMs: ${SHUTDOWN_TIMEOUT_MS} }
`,
    );
    serve = startServe(config);
    const ports = await serve.started();
    const v = validRequest(new Rng(0xdead));
    expect((await post(`http://127.0.0.1:${ports.http}/v1/traces`, v.json, 'application/json')).status).toBe(200);
    // The content-similarity record is out (code records do not wait for the judge queue, where the custom
    // scorer runs: it is declared `kind: judge`; a function-only module scorer would otherwise be detected as a
    // code scorer and run inline, holding its run's code records); the run is now held by the scorer that never returns.
    const s = serve;
    expect(await waitUntil(() => s.stdout().includes('"scorer":"similarity"'), 15_000)).toBe(true);
    const sentAt = Date.now();
    s.child.kill('SIGTERM');
    const exit = await s.exited;
    const tookMs = Date.now() - sentAt;
    expect(exit).toEqual({ code: 1, signal: null });
    expect(tookMs).toBeGreaterThanOrEqual(SHUTDOWN_TIMEOUT_MS - 100);
    expect(s.logs().some((l) => String(l.msg).includes('shutdown did not finish within telemetry.shutdownTimeoutMs'))).toBe(true);
  }, 40_000);
});
