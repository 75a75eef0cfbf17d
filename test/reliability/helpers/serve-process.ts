/**
 * `tracejudge serve` as a child process, started the way a user starts it
 * (`node --import tsx src/cli/main.ts serve -c FILE`), with its whole stdout and stderr captured.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

export interface ServeOptions {
  /** Extra node flags, e.g. `--max-old-space-size=384`. */
  nodeFlags?: string[];
  env?: Record<string, string>;
  logLevel?: string;
}

export interface ServeProcess {
  child: ChildProcess;
  readonly pid: number;
  stdout(): string;
  stderr(): string;
  /** Parsed JSON log lines of stderr. */
  logs(): Record<string, unknown>[];
  /** Resolves with the bound ports once "tracejudge started" was logged; rejects if the process exits first. */
  started(timeoutMs?: number): Promise<{ http?: number; grpc?: number; metrics?: number }>;
  /** Exit code and signal, once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** True while the process runs. */
  alive(): boolean;
}

/** A fresh temp dir with `files` written into it; returns its path. */
export function tempDir(prefix: string, files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), `tracejudge-${prefix}-`));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** The JSON records of a JSON-lines file (missing file: none; a torn last line is ignored). */
export function readJsonl(path: string): Record<string, unknown>[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  const out: Record<string, unknown>[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    try {
      out.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // a record torn by SIGKILL mid-write
    }
  }
  return out;
}

export function startServe(configPath: string, options: ServeOptions = {}): ServeProcess {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.VITEST;
  delete env.TRACEJUDGE_CONFIG;
  delete env.OPENAI_API_KEY;
  delete env.OPENAI_BASE_URL;
  Object.assign(env, { TRACEJUDGE_LOG_LEVEL: options.logLevel ?? 'info' }, options.env ?? {});
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), '--import', 'tsx', 'src/cli/main.ts', 'serve', '-c', configPath], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  let done = false;
  void exited.then(() => (done = true));
  const logs = (): Record<string, unknown>[] =>
    err
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .flatMap((l) => {
        try {
          return [JSON.parse(l) as Record<string, unknown>];
        } catch {
          return [];
        }
      });
  return {
    child,
    pid: child.pid ?? -1,
    stdout: () => out,
    stderr: () => err,
    logs,
    exited,
    alive: () => !done,
    started: (timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const until = Date.now() + timeoutMs;
        const timer = setInterval(() => {
          const line = logs().find((l) => l.msg === 'tracejudge started');
          if (line) {
            clearInterval(timer);
            resolve(line.ports as { http?: number; grpc?: number; metrics?: number });
          } else if (done || Date.now() > until) {
            clearInterval(timer);
            reject(new Error(`serve did not start (exited: ${done}); stderr:\n${err.slice(-2000)}`));
          }
        }, 50);
      }),
  };
}
