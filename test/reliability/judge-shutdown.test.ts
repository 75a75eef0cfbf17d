/**
 * SIGTERM while the judge hangs: `serve` must still exit 0 within telemetry.shutdownTimeoutMs (the CLI exits 1
 * when the deadline passes first), and no run may vanish: judge evaluations still running are aborted and
 * recorded as errors, next to the code scores, before the emitters are flushed.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reply, startStubJudge, type StubJudge } from '../../src/testing/stub-judge/index.js';
import { post } from './helpers/clients.js';
import { writeResult } from './helpers/results.js';
import { Rng } from './helpers/rng.js';
import { startServe, tempDir, type ServeProcess } from './helpers/serve-process.js';
import { waitUntil } from './helpers/service.js';
import { validRequest } from './helpers/traces.js';

const RUNS = 10;
const SHUTDOWN_TIMEOUT_MS = 4000;

describe('SIGTERM during a judge hang', () => {
  let stub: StubJudge;
  let serve: ServeProcess;

  beforeAll(async () => {
    stub = await startStubJudge({ script: () => reply.slow(10 * 60_000, reply.json({ claims: [] })) });
    const dir = tempDir('judge-shutdown');
    const config = join(dir, 'serve.yaml');
    writeFileSync(
      config,
      `
sources: { otlp: { http: { port: 0 }, grpc: { enabled: false } } }
assembly: { decisionWaitMs: 100, tickMs: 20 }
judge: { baseURL: ${JSON.stringify(stub.baseURL)}, apiKey: sk-shutdown-test-0000, model: stub-judge }   # default timeoutMs: 60 s
economics: { cache: { enabled: false } }
scorers:
  similarity: { type: content-similarity }
  hallucination: { type: hallucination }
sampling: { default: { rate: 1 } }
emit: { stdout: { enabled: true }, prometheus: { port: 0 } }
telemetry: { shutdownTimeoutMs: ${SHUTDOWN_TIMEOUT_MS} }
`,
    );
    serve = startServe(config);
  });

  afterAll(async () => {
    if (serve.alive()) serve.child.kill('SIGKILL');
    await stub.close();
  });

  it('exits 0 within shutdownTimeoutMs and records the hung evaluations as errors', async () => {
    const ports = await serve.started();
    const rng = new Rng(0x5109);
    const ids: string[] = [];
    for (let i = 0; i < RUNS; i++) {
      const v = validRequest(rng);
      expect((await post(`http://127.0.0.1:${ports.http}/v1/traces`, v.json, 'application/json')).status).toBe(200);
      ids.push(...v.traceIds);
    }
    // The judge has calls hanging (concurrency 4), the rest wait in the queue.
    expect(await waitUntil(() => stub.requests.length >= 4, 20_000)).toBe(true);
    const sigtermAt = Date.now();
    serve.child.kill('SIGTERM');
    const exit = await serve.exited;
    const shutdownMs = Date.now() - sigtermAt;
    expect(exit).toEqual({ code: 0, signal: null });

    const records = serve
      .stdout()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { traceId: string; scorer: string; score?: number; error?: { type: string } });
    for (const id of ids) {
      const mine = records.filter((r) => r.traceId === id);
      expect(mine.map((r) => r.scorer).sort()).toEqual(['hallucination', 'similarity']);
      expect(typeof mine.find((r) => r.scorer === 'similarity')?.score).toBe('number');
      expect(mine.find((r) => r.scorer === 'hallucination')?.error?.type).toBe('judge_aborted');
    }
    writeResult('judge-shutdown', { runs: RUNS, shutdownTimeoutMs: SHUTDOWN_TIMEOUT_MS, shutdownMs, exit, hungJudgeCalls: stub.requests.length });
  }, 60_000);
});
