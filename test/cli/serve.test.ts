import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { makeFixtures, type Fixtures } from './fixtures.js';
import { cliEnv, startCli } from './run-cli.js';

let fx: Fixtures;
let child: ChildProcess | undefined;

beforeAll(async () => {
  fx = await makeFixtures();
  // Port 0 everywhere: the receivers pick free ports and log them. A long decision wait keeps the
  // traces buffered until SIGTERM, so the shutdown flush is what hands them on.
  writeFileSync(
    fx.path('serve.yaml'),
    [
      'sources:',
      '  otlp:',
      '    http: { port: 0 }',
      '    grpc: { port: 0 }',
      'assembly: { decisionWaitMs: 60000 }',
      'emit: { prometheus: { port: 0 } }',
      'telemetry: { shutdownTimeoutMs: 5000 }',
      '',
    ].join('\n'),
  );
});

afterAll(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function waitFor<T>(what: string, ms: number, poll: () => T | undefined): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const timer = setInterval(() => {
      const v = poll();
      if (v !== undefined) {
        clearInterval(timer);
        resolve(v);
      } else if (Date.now() - started > ms) {
        clearInterval(timer);
        reject(new Error(`timed out waiting for ${what}`));
      }
    }, 25);
  });
}

describe('tracejudge serve', () => {
  it('listens on the configured (ephemeral) ports, accepts spans over OTLP/HTTP, and exits 0 on SIGTERM after flushing', async () => {
    const proc = startCli(['serve', '-c', fx.path('serve.yaml')], cliEnv('info'));
    child = proc;
    let stderr = '';
    let stdout = '';
    proc.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    proc.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));

    const logs = (): Record<string, unknown>[] =>
      stderr
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    const started = await waitFor('startup', 20_000, () => logs().find((l) => l.msg === 'tracejudge started'));
    const ports = started.ports as { http: number; grpc: number };
    expect(ports.http).toBeGreaterThan(0);
    expect(ports.grpc).toBeGreaterThan(0);

    // Trace A's user turn lives only in its gen_ai.user.message log record (without it the run has no input and
    // every scorer skips it: no-input), so the app's logs go first, as an instrumented app exports both.
    const logsRes = await fetch(`http://127.0.0.1:${ports.http}/v1/logs`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-protobuf' },
      body: readFileSync(fx.path('logs.pb')),
    });
    expect(logsRes.status).toBe(200);
    const res = await fetch(`http://127.0.0.1:${ports.http}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-protobuf' },
      body: fx.proto,
    });
    expect(res.status).toBe(200);
    const jsonRes = await fetch(`http://127.0.0.1:${ports.http}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: fx.json,
    });
    expect(jsonRes.status).toBe(200);

    const t0 = Date.now();
    proc.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 15_000))]);
    expect(code).toBe(0);
    expect(Date.now() - t0).toBeLessThan(15_000);
    const stopped = logs().find((l) => l.msg === 'tracejudge stopped');
    // Both traces were buffered and decided by the shutdown flush; the JSON copy was deduplicated.
    expect(stopped).toMatchObject({ tracesAssembled: 2, spansAccepted: 4, duplicateSpans: 4 });
    expect(logs().some((l) => l.msg === 'shutting down' && l.signal === 'SIGTERM')).toBe(true);
    // The flushed traces were scored by the default code scorers; the records are on stdout, one per line.
    const scored = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { traceId: string; scorer: string; source: string });
    // Trace A called a tool (all three default scorers apply); trace B did not (only tool-errors applies).
    expect(scored.map((r) => `${r.traceId}/${r.scorer}`).sort()).toEqual(
      [...['answered', 'grounding', 'tool-errors'].map((s) => `${fx.traceA}/${s}`), `${fx.traceB}/tool-errors`].sort(),
    );
    expect(scored.every((r) => r.source === 'otlp')).toBe(true);
  });
});
