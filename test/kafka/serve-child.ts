/**
 * `tracejudge serve` and `tracejudge score` as child processes (`node --import tsx src/cli/main.ts ...`), with
 * JSON logs parsed from stderr, score records read from the JSONL emitter file, and bounded stops: SIGTERM with
 * a grace period, or SIGKILL (kill -9) to simulate a crash.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ScoreRecord } from '../../src/model/score-record.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Environment for a child: nothing inherited that changes tracejudge's behaviour, logs at `logLevel`. */
export function childEnv(extra: Record<string, string> = {}, logLevel = 'info'): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k === 'VITEST' || k.startsWith('VITEST_') || k.startsWith('TRACEJUDGE_') || k.startsWith('OPENAI_') || k.startsWith('OTEL_')) continue;
    env[k] = v;
  }
  return { ...env, TRACEJUDGE_LOG_LEVEL: logLevel, ...extra };
}

/** Poll `probe` until it returns a value, at most `timeoutMs`; the error says what was awaited. */
export async function until<T>(what: string, timeoutMs: number, probe: () => T | undefined | Promise<T | undefined>, everyMs = 100): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** Score records in a JSONL file (a line still being written is ignored). */
export function readJsonl(path: string): ScoreRecord[] {
  if (!existsSync(path)) return [];
  const out: ScoreRecord[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      out.push(JSON.parse(line) as ScoreRecord);
    } catch {
      // partial line
    }
  }
  return out;
}

export type LogLine = Record<string, unknown> & { msg?: string };

/** A CLI child process. */
export class CliChild {
  stdout = '';
  stderr = '';
  readonly proc: ChildProcess;
  readonly exited: Promise<number | null>;

  constructor(args: readonly string[], env: NodeJS.ProcessEnv) {
    this.proc = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc.stdout?.setEncoding('utf8').on('data', (d: string) => (this.stdout += d));
    this.proc.stderr?.setEncoding('utf8').on('data', (d: string) => (this.stderr += d));
    this.exited = new Promise((resolve) => this.proc.once('exit', (code) => resolve(code)));
  }

  get running(): boolean {
    return this.proc.exitCode === null && this.proc.signalCode === null;
  }

  logs(): LogLine[] {
    const out: LogLine[] = [];
    for (const line of this.stderr.split('\n')) {
      if (!line.startsWith('{')) continue;
      try {
        out.push(JSON.parse(line) as LogLine);
      } catch {
        // partial line
      }
    }
    return out;
  }

  log(msg: string): LogLine | undefined {
    return this.logs().find((l) => l.msg === msg);
  }

  /** Wait for a log line, failing early when the process exits. */
  waitLog(msg: string, timeoutMs: number, match: (l: LogLine) => boolean = () => true): Promise<LogLine> {
    return until(`log "${msg}"`, timeoutMs, () => {
      const hit = this.logs().find((l) => l.msg === msg && match(l));
      if (hit) return hit;
      if (!this.running) throw new Error(`process exited (${String(this.proc.exitCode ?? this.proc.signalCode)}) before logging "${msg}":\n${this.stderr.slice(-3000)}`);
      return undefined;
    });
  }

  /** SIGTERM and wait (SIGKILL after `graceMs`, then throw). Returns the exit code. */
  async stop(graceMs = 20_000): Promise<number | null> {
    if (this.running) {
      this.proc.kill('SIGTERM');
      const outcome = await Promise.race([this.exited, sleep(graceMs).then(() => 'hung' as const)]);
      if (outcome === 'hung') {
        this.proc.kill('SIGKILL');
        await this.exited;
        throw new Error(`process did not exit within ${graceMs} ms of SIGTERM:\n${this.stderr.slice(-3000)}`);
      }
    }
    return this.exited;
  }

  /** kill -9. */
  async kill(): Promise<void> {
    if (this.running) this.proc.kill('SIGKILL');
    await this.exited;
  }
}

export interface ServeKafkaOptions {
  topic: string;
  groupId: string;
  jsonl: string;
  decisionWaitMs?: number;
  /** Extra YAML lines appended at top level (e.g. judge, scorers, sampling). */
  extra?: string[];
  /** Extra keys of `assembly:` as YAML flow entries, e.g. `maxBufferedTraces: 5`. */
  assembly?: string[];
  prometheus?: boolean;
}

/** Write a serve config for the Kafka source (no OTLP listeners) and return its path. */
export function writeServeConfig(path: string, brokers: readonly string[], o: ServeKafkaOptions): string {
  const assembly = [`decisionWaitMs: ${o.decisionWaitMs ?? 300}`, 'tickMs: 50', ...(o.assembly ?? [])].join(', ');
  const yaml = [
    'sources:',
    '  otlp: { http: { enabled: false }, grpc: { enabled: false } }',
    '  kafka:',
    '    enabled: true',
    `    brokers: ${JSON.stringify(brokers)}`,
    `    topic: ${JSON.stringify(o.topic)}`,
    `    groupId: ${JSON.stringify(o.groupId)}`,
    '    initialOffset: earliest',
    '    commitIntervalMs: 200',
    '    sessionTimeoutMs: 6000',
    '    heartbeatIntervalMs: 500',
    `assembly: { ${assembly} }`,
    'emit:',
    '  stdout: { enabled: false }',
    `  jsonl: { path: ${JSON.stringify(o.jsonl)} }`,
    o.prometheus ? '  prometheus: { port: 0 }' : '  prometheus: { enabled: false }',
    'telemetry: { shutdownTimeoutMs: 15000 }',
    ...(o.extra ?? []),
    '',
  ].join('\n');
  writeFileSync(path, yaml);
  return path;
}

/** Start `tracejudge serve -c config` and wait until its Kafka consumer joined the group. */
export async function startServe(config: string, env: NodeJS.ProcessEnv = childEnv()): Promise<CliChild> {
  const child = new CliChild(['serve', '-c', config], env);
  await child.waitLog('tracejudge started', 40_000);
  await child.waitLog('kafka: joined the consumer group', 40_000);
  return child;
}
