/**
 * During a judge outage (a stub OpenAI-compatible judge answering 500 or hanging past the timeout),
 * `tracejudge serve` writes a throttled warn line naming the failure counts of the interval.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reply, startStubJudge, type StubJudge } from '../../src/testing/stub-judge/index.js';
import { post } from '../reliability/helpers/clients.js';
import { Rng } from '../reliability/helpers/rng.js';
import { startServe, tempDir, type ServeProcess } from '../reliability/helpers/serve-process.js';
import { validRequest } from '../reliability/helpers/traces.js';
import { writeResult } from '../reliability/helpers/results.js';
import { waitUntil } from '../reliability/helpers/service.js';

const INTERVAL_MS = 1500;
const API_KEY = 'sk-ops-judge-failing-4c1d';

describe('judge failure warn line', () => {
  let stub: StubJudge;
  let serve: ServeProcess;
  let httpUrl: string;

  beforeAll(async () => {
    // Alternately a 500 and an answer slower than judge.timeoutMs.
    let n = 0;
    stub = await startStubJudge({ script: () => (n++ % 2 === 0 ? reply.serverError(500) : reply.slow(60_000, reply.json({ claims: [] }))) });
    const dir = tempDir('judge-failing', {
      'tracejudge.yaml': `
sources: { otlp: { http: { port: 0 }, grpc: { enabled: false } } }
assembly: { decisionWaitMs: 200, tickMs: 50 }
judge: { baseURL: "${stub.baseURL}", apiKey: ${API_KEY}, model: stub-judge, timeoutMs: 400, maxRetries: 0, concurrency: 8 }
economics: { cache: { enabled: false } }
scorers: { hallucination: { type: hallucination, reason: never } }
sampling: { default: { rate: 1 } }
emit: { stdout: { enabled: false }, prometheus: { port: 0 } }
telemetry: { health: { judgeFailureLogIntervalMs: ${INTERVAL_MS} } }
`,
    });
    serve = startServe(join(dir, 'tracejudge.yaml'));
    const ports = await serve.started();
    httpUrl = `http://127.0.0.1:${ports.http ?? 0}`;
  }, 60_000);

  afterAll(async () => {
    if (serve.alive()) {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
    await stub.close();
  });

  it('names the errors and timeouts of the interval, at most once per interval', async () => {
    const rng = new Rng(0x7);
    const t0 = Date.now();
    const lines = (): Record<string, unknown>[] => serve.logs().filter((l) => String(l.msg).startsWith('judge failing:'));
    // Traffic for a little over three intervals.
    while (Date.now() - t0 < 3.5 * INTERVAL_MS) {
      const r = validRequest(rng, 'aisdk6-two-tools');
      expect((await post(`${httpUrl}/v1/traces`, r.json, 'application/json')).status).toBe(200);
      await new Promise((res) => setTimeout(res, 100));
    }
    expect(await waitUntil(() => lines().some((l) => Number(l.timeouts) > 0), 10_000)).toBe(true);
    const elapsed = Date.now() - t0;
    const got = lines();
    expect(got.length).toBeGreaterThanOrEqual(2);
    // Throttled: never more than one line per interval.
    expect(got.length).toBeLessThanOrEqual(Math.ceil(elapsed / INTERVAL_MS) + 1);
    for (const l of got) {
      expect(l.level).toBe(40);
      expect(l.msg).toMatch(/^judge failing: \d+ errors, \d+ timeouts, \d+ scored in the last \d+ s$/);
      expect(l.msg).toBe(`judge failing: ${String(l.errors)} errors, ${String(l.timeouts)} timeouts, ${String(l.scored)} scored in the last ${String(l.windowSeconds)} s`);
    }
    const errors = got.reduce((n, l) => n + Number(l.errors), 0);
    const timeouts = got.reduce((n, l) => n + Number(l.timeouts), 0);
    expect(errors).toBeGreaterThan(0);
    expect(timeouts).toBeGreaterThan(0);
    expect(got.some((l) => (l.byType as Record<string, number>).judge_timeout === Number(l.timeouts))).toBe(true);
    expect(serve.stderr()).not.toContain(API_KEY);
    writeResult('judge-failing', { lines: got.map((l) => String(l.msg)) });
  }, 60_000);
});
