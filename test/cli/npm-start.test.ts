/**
 * `npm start` under a process manager: npm runs the script through `sh -c`, so the script must `exec` node for
 * SIGTERM and SIGINT sent to the npm process to reach the service (npm forwards them to its child; sh would not
 * pass them on and would leave node running). Here the signal goes to the npm pid only, and the test checks that
 * the service itself shut down: buffered traces were flushed into the JSON-lines file, the OTLP port closed,
 * npm exited 0, and the node process (its pid read from its own log lines) is gone.
 *
 * Runs the built CLI (dist/, which `npm test` builds in `pretest`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixtures, type Fixtures } from './fixtures.js';
import { ROOT } from './run-cli.js';
import { childEnv, sleep, until, type LogLine } from '../e2e/serve-process.js';

let fx: Fixtures;
const started: ChildProcess[] = [];

beforeAll(async () => {
  fx = await makeFixtures();
});

afterAll(() => {
  for (const p of started) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

function parseLogs(stderr: string): LogLine[] {
  const out: LogLine[] = [];
  for (const line of stderr.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      out.push(JSON.parse(line) as LogLine);
    } catch {
      // a line still being written
    }
  }
  return out;
}

interface NpmStart {
  npm: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  logs(): LogLine[];
  servicePid: number;
  ports: { http: number; metrics: number };
}

/** `npm start -- -c <config>` from the repository root; resolves once the service logged that it started. */
async function npmStart(name: string): Promise<NpmStart> {
  const jsonl = fx.path(`${name}.jsonl`);
  const config = fx.path(`${name}.yaml`);
  writeFileSync(
    config,
    [
      'sources:',
      '  otlp:',
      '    http: { port: 0 }',
      '    grpc: { enabled: false }',
      // Traces stay buffered until the shutdown flush decides them.
      'assembly: { decisionWaitMs: 60000 }',
      // A check that applies to every run with an output.
      'scorers: { clean: { type: excludes, unwanted: "xyzzy" } }',
      'sampling: { default: { rate: 1 } }',
      'emit:',
      '  stdout: { enabled: false }',
      `  jsonl: { path: ${JSON.stringify(jsonl)} }`,
      '  prometheus: { port: 0 }',
      'telemetry: { shutdownTimeoutMs: 5000 }',
      '',
    ].join('\n'),
  );
  const npm = spawn('npm', ['start', '--silent', '--', '-c', config], { cwd: ROOT, env: childEnv({}), stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(npm);
  let stderr = '';
  npm.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  npm.stdout?.resume();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => npm.once('exit', (code, signal) => resolve({ code, signal })));
  const logs = (): LogLine[] => parseLogs(stderr);
  const line = await until('"tracejudge started" from npm start', 30_000, () => {
    if (npm.exitCode !== null) throw new Error(`npm start exited with ${npm.exitCode}:\n${stderr.slice(-3000)}`);
    return logs().find((l) => l.msg === 'tracejudge started');
  });
  const ports = line.ports as { http: number; metrics: number };
  return { npm, exited, logs, servicePid: Number(line.pid), ports };
}

describe("the README's run commands", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const unit = /```ini\n(# \/etc\/systemd\/system\/tracejudge\.service[\s\S]*?)```/.exec(readme)?.[1] ?? '';
  const setting = (key: string): string[] => [...unit.matchAll(new RegExp(`^(?:# or: )?${key}=(.*)$`, 'gm'))].map((m) => m[1] as string);

  it('npm start execs node (so the shell npm starts does not stay between npm and the service)', () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.start).toMatch(/^exec node dist\/cli\/main\.js serve$/);
  });

  it('the systemd unit starts serve with node or npm start, and SIGTERM goes to the main process only (what the test below exercises)', () => {
    expect(unit).not.toBe('');
    const starts = setting('ExecStart');
    expect(starts).toHaveLength(2);
    expect(starts[0]).toMatch(/^\/usr\/bin\/node \S*dist\/cli\/main\.js serve\b/);
    expect(starts[1]).toMatch(/^\/usr\/bin\/npm start -- /);
    expect(setting('KillMode')).toEqual(['mixed']);
    expect(setting('Type')).toEqual(['exec']);
  });
});

describe.skipIf(!existsSync(join(ROOT, 'dist/cli/main.js')))('npm start forwards signals to the service (needs npm run build)', () => {
  it('SIGTERM to the npm process: the service flushes, closes its port and exits; npm exits 0; no process is left', async () => {
    const s = await npmStart('sigterm');
    expect(s.servicePid).not.toBe(s.npm.pid);
    expect(alive(s.servicePid)).toBe(true);
    const ready = await until('/readyz 200', 10_000, async () => ((await fetch(`http://127.0.0.1:${s.ports.metrics}/readyz`)).status === 200 ? true : undefined));
    expect(ready).toBe(true);
    const res = await fetch(`http://127.0.0.1:${s.ports.http}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/x-protobuf' }, body: fx.proto });
    expect(res.status).toBe(200);
    // Buffered, not yet scored: decisionWaitMs is a minute.
    expect(existsSync(fx.path('sigterm.jsonl')) ? readFileSync(fx.path('sigterm.jsonl'), 'utf8') : '').toBe('');

    s.npm.kill('SIGTERM');
    const outcome = await Promise.race([s.exited, sleep(20_000).then(() => 'hung' as const)]);
    expect(outcome).toEqual({ code: 0, signal: null });
    expect(s.logs().some((l) => l.msg === 'shutting down' && l.signal === 'SIGTERM')).toBe(true);
    expect(s.logs().find((l) => l.msg === 'tracejudge stopped')).toMatchObject({ tracesAssembled: 2, complete: true });
    // The shutdown flush decided both traces and scored their runs: trace B's run has a user turn and an
    // answer; trace A's user turn is in a log event that was not sent, so whether it is scored is not the point here.
    const stopped = JSON.stringify(s.logs().find((l) => l.msg === 'tracejudge stopped'));
    expect(existsSync(fx.path('sigterm.jsonl')), `no records written; ${stopped}`).toBe(true);
    const records = readFileSync(fx.path('sigterm.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { traceId: string; scorer: string });
    expect(records.map((r) => `${r.traceId}/${r.scorer}`)).toContain(`${fx.traceB}/clean`);
    for (const r of records) expect([fx.traceA, fx.traceB]).toContain(r.traceId);
    expect(await portOpen(s.ports.http)).toBe(false);
    expect(await portOpen(s.ports.metrics)).toBe(false);
    await until('the service process to be gone', 5_000, () => (alive(s.servicePid) ? undefined : true));
  }, 60_000);

  it('SIGINT to the npm process stops the service the same way', async () => {
    const s = await npmStart('sigint');
    s.npm.kill('SIGINT');
    const outcome = await Promise.race([s.exited, sleep(20_000).then(() => 'hung' as const)]);
    expect(outcome).not.toBe('hung');
    expect(s.logs().some((l) => l.msg === 'shutting down' && l.signal === 'SIGINT')).toBe(true);
    expect(s.logs().find((l) => l.msg === 'tracejudge stopped')).toMatchObject({ complete: true });
    expect(await portOpen(s.ports.http)).toBe(false);
    await until('the service process to be gone', 5_000, () => (alive(s.servicePid) ? undefined : true));
  }, 60_000);
});
