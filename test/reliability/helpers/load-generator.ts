/**
 * The overload scenario's load generator: `generators` child processes (load-child.ts, run with
 * `node --import tsx`), so the client does not share an event loop with the test or with vitest, each
 * offering an equal share of `tracesPerSec`. Resolves once every generator has had every answer.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LoadChildConfig, LoadChildResult } from './load-child.js';
import { ROOT } from './serve-process.js';

const CHILD = fileURLToPath(new URL('./load-child.ts', import.meta.url));

export interface LoadOptions {
  url: string;
  nonceHex: string;
  tracesPerSec: number;
  tracesPerRequest: number;
  durationMs: number;
  generators: number;
  /** Per generator. */
  maxInFlight: number;
}

type FromChild = { type: 'ready' } | { type: 'result'; result: LoadChildResult } | { type: 'failed'; error: string };

function waitFor<T extends FromChild['type']>(child: ChildProcess, type: T, timeoutMs: number): Promise<Extract<FromChild, { type: T }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`load generator ${child.pid ?? '?'}: no "${type}" within ${timeoutMs} ms`));
    }, timeoutMs);
    const onMessage = (m: FromChild): void => {
      if (m.type === 'failed') {
        cleanup();
        reject(new Error(`load generator failed: ${m.error}`));
      } else if (m.type === type) {
        cleanup();
        resolve(m as Extract<FromChild, { type: T }>);
      }
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
      cleanup();
      reject(new Error(`load generator exited (${code ?? signal ?? '?'}) before "${type}"`));
    };
    const cleanup = (): void => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

/** Run the load; every child is killed if anything goes wrong. */
export async function runLoad(options: LoadOptions): Promise<LoadChildResult[]> {
  const children = Array.from({ length: options.generators }, () => fork(CHILD, [], { cwd: ROOT, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] }));
  try {
    const ready = children.map((c) => waitFor(c, 'ready', 60_000));
    children.forEach((c, gen) => {
      const config: LoadChildConfig = {
        url: options.url,
        gen,
        nonceHex: options.nonceHex,
        tracesPerSec: options.tracesPerSec / options.generators,
        tracesPerRequest: options.tracesPerRequest,
        durationMs: options.durationMs,
        maxInFlight: options.maxInFlight,
      };
      c.send({ type: 'start', config });
    });
    await Promise.all(ready);
    const results = children.map((c) => waitFor(c, 'result', options.durationMs + 120_000));
    for (const c of children) c.send({ type: 'go' });
    return (await Promise.all(results)).map((m) => m.result);
  } finally {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  }
}
