/**
 * A scenario run in a fresh child process (bench/scenarios/scenario-child.ts, measuring dist/ as the parent
 * does): its figures do not depend on what the bench process did before it (the scorer engine rows leave
 * `compromise`, worker pools and datasets in the parent's heap, and a larger heap makes allocation-heavy
 * rows pay more for garbage collection). A service runs in a process of its own too.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { USE_DIST } from '../lib/use-dist-path.js';
import type { Row } from '../lib/results.js';
import type { Scenario } from './context.js';
import type { ScenarioChildResult } from './scenario-child.js';

const CHILD = fileURLToPath(new URL('./scenario-child.ts', import.meta.url));

/** The scenario exported as `exportName` by `module`, run in a child process. */
export function isolated(module: URL, exportName: string): Scenario {
  return (ctx) =>
    new Promise<Row[]>((resolve, reject) => {
      const child = fork(CHILD, [fileURLToPath(module), exportName, ctx.quick ? '1' : '0'], {
        execArgv: ['--import', 'tsx', '--import', USE_DIST],
        env: { ...process.env, TRACEJUDGE_LOG_LEVEL: process.env.TRACEJUDGE_LOG_LEVEL ?? 'warn' },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      let result: ScenarioChildResult | undefined;
      child.on('message', (m) => {
        result = m as ScenarioChildResult;
      });
      child.on('error', reject);
      child.on('exit', (code, signal) => {
        if (result === undefined) {
          reject(new Error(`${exportName}: its child process ended (${signal ?? `exit code ${code}`}) without results`));
          return;
        }
        ctx.notes.push(...result.notes);
        resolve(result.rows);
      });
    });
}
