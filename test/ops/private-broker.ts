/**
 * A Kafka broker of a test's own (scripts/kafka/start.sh on free ports with its own data dir), which the test
 * may stop and start again without touching the shared broker on 9092. Stopped by its pid, never by name.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../reliability/helpers/serve-process.js';

const run = promisify(execFile);

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

export interface PrivateBroker {
  readonly address: string;
  /** Start (or start again, keeping its data); resolves once it answers. */
  start(): Promise<void>;
  /** SIGTERM its pid, SIGKILL after `graceMs`; resolves once the process is gone. */
  stop(graceMs?: number): Promise<void>;
  /** Stop it and delete its data dir. */
  dispose(): Promise<void>;
}

export async function privateBroker(): Promise<PrivateBroker> {
  const dir = mkdtempSync(join(tmpdir(), 'tj-ops-kafka-'));
  symlinkSync(join(ROOT, '.kafka', 'libs'), join(dir, 'libs'));
  const port = await freePort();
  const controllerPort = await freePort();
  const env = { ...process.env, TRACEJUDGE_KAFKA_DIR: dir, TRACEJUDGE_KAFKA_PORT: String(port), TRACEJUDGE_KAFKA_CONTROLLER_PORT: String(controllerPort) };
  const pid = (): number | undefined => {
    try {
      const n = Number(readFileSync(join(dir, 'broker.pid'), 'utf8'));
      return Number.isInteger(n) && n > 0 ? n : undefined;
    } catch {
      return undefined;
    }
  };
  const alive = (p: number): boolean => {
    try {
      process.kill(p, 0);
      return true;
    } catch {
      return false;
    }
  };
  const stop = async (graceMs = 20_000): Promise<void> => {
    const p = pid();
    if (p === undefined || !alive(p)) return;
    process.kill(p, 'SIGTERM');
    const until = Date.now() + graceMs;
    while (alive(p) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    if (alive(p)) process.kill(p, 'SIGKILL');
    while (alive(p)) await new Promise((r) => setTimeout(r, 50));
  };
  return {
    address: `127.0.0.1:${port}`,
    async start() {
      await run('bash', [join(ROOT, 'scripts/kafka/start.sh')], { cwd: ROOT, env, timeout: 120_000 });
    },
    stop,
    async dispose() {
      await stop(5000);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
