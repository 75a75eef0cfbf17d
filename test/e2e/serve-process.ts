/**
 * `tracejudge serve` as a child process, the way a user runs it (`node --import tsx src/cli/main.ts serve -c FILE`):
 * a temp config file, JSON logs parsed from stderr, the bound ports read from the "tracejudge started" line,
 * and a bounded stop (SIGTERM, then SIGKILL after a grace period).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A fresh temp directory for one test file; remove it with `rm(dir, { recursive: true })`. */
export function tempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `tj-e2e-${prefix}-`));
}

/**
 * Environment for a child CLI: nothing inherited that changes tracejudge's behaviour (config, judge key, OTLP
 * export variables), logs at `logLevel` (VITEST would silence them), plus `extra`.
 */
export function childEnv(extra: Record<string, string>, logLevel = 'info'): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k === 'VITEST' || k.startsWith('VITEST_') || k === 'TRACEJUDGE_CONFIG' || k.startsWith('OPENAI_') || k.startsWith('OTEL_')) continue;
    if (k === 'TRACEJUDGE_JUDGE_MODEL') continue;
    env[k] = v;
  }
  return { ...env, TRACEJUDGE_LOG_LEVEL: logLevel, ...extra };
}

export type LogLine = Record<string, unknown> & { msg?: string };

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Poll `probe` every `everyMs` until it returns a value, at most `timeoutMs`; the error says what was awaited. */
export async function until<T>(what: string, timeoutMs: number, probe: () => T | undefined | Promise<T | undefined>, everyMs = 50): Promise<T> {
  const started = Date.now();
  for (let i = 0; Date.now() - started <= timeoutMs && i < 100_000; i++) {
    const v = await probe();
    if (v !== undefined) return v;
    await sleep(everyMs);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

export interface ServePorts {
  http: number;
  grpc?: number;
  metrics?: number;
}

/** A running `tracejudge serve`. */
export class ServeProcess {
  stdout = '';
  stderr = '';
  ports: ServePorts = { http: 0 };
  exitCode: number | null = null;
  private proc: ChildProcess | undefined;
  private exited: Promise<number | null> | undefined;

  /** Write `yaml` to `<dir>/<name>` and start serve on it; resolves once it logged "tracejudge started". */
  async start(dir: string, name: string, yaml: string, env: NodeJS.ProcessEnv): Promise<this> {
    const configPath = join(dir, name);
    await writeFile(configPath, yaml);
    const proc = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '-c', configPath], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc = proc;
    proc.stdout?.setEncoding('utf8').on('data', (d: string) => (this.stdout += d));
    proc.stderr?.setEncoding('utf8').on('data', (d: string) => (this.stderr += d));
    this.exited = new Promise((resolve) => proc.once('exit', (code) => resolve((this.exitCode = code))));
    const started = await until('"tracejudge started" from serve', 30_000, () => {
      if (proc.exitCode !== null) throw new Error(`serve exited with ${proc.exitCode} before starting:\n${this.stderr.slice(-3000)}`);
      return this.logs().find((l) => l.msg === 'tracejudge started');
    });
    this.ports = started.ports as ServePorts;
    return this;
  }

  /** stderr JSON log lines so far. */
  logs(): LogLine[] {
    const out: LogLine[] = [];
    for (const line of this.stderr.split('\n')) {
      if (!line.startsWith('{')) continue;
      try {
        out.push(JSON.parse(line) as LogLine);
      } catch {
        // a line still being written
      }
    }
    return out;
  }

  /** Score records printed on stdout so far (emit.stdout). */
  stdoutRecords(): Record<string, unknown>[] {
    return this.stdout
      .split('\n')
      .filter((l) => l.startsWith('{') && l.endsWith('}'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  }

  get otlpHttpUrl(): string {
    return `http://127.0.0.1:${this.ports.http}`;
  }

  /** SIGTERM and wait for the exit (SIGKILL after `graceMs`); returns the exit code. Safe to call twice. */
  async stop(graceMs = 15_000): Promise<number | null> {
    const proc = this.proc;
    if (!proc || !this.exited) return null;
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGTERM');
      const outcome = await Promise.race([this.exited, sleep(graceMs).then(() => 'hung' as const)]);
      if (outcome === 'hung') {
        proc.kill('SIGKILL');
        await this.exited;
        throw new Error(`serve did not exit within ${graceMs} ms of SIGTERM:\n${this.stderr.slice(-3000)}`);
      }
    }
    return this.exited;
  }

  /** Kill without waiting for a clean shutdown (afterAll safety net). */
  kill(): void {
    const proc = this.proc;
    if (proc && proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  }
}

/** Remove a temp directory, ignoring errors. */
export async function removeDir(dir: string | undefined): Promise<void> {
  if (dir) await rm(dir, { recursive: true, force: true });
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run a one-shot CLI command (`score`, `extract`, …) to completion, killed after `timeoutMs`. */
export function runCli(args: readonly string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<CliResult> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  proc.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  proc.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve, reject) => {
    proc.once('error', reject);
    proc.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
