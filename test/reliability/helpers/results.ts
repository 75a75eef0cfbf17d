/**
 * Measured numbers of the reliability scenarios, written as JSON next to the test run (default
 * `<tmpdir>/tracejudge-reliability/<scenario>.json`, or `TRACEJUDGE_RELIABILITY_OUT`), so the figures quoted
 * in docs/reliability.md can be reproduced and checked.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const RESULTS_DIR = process.env.TRACEJUDGE_RELIABILITY_OUT ?? join(tmpdir(), 'tracejudge-reliability');

/** Write one scenario's measurements; returns the file path. */
export function writeResult(scenario: string, data: Record<string, unknown>): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const path = join(RESULTS_DIR, `${scenario}.json`);
  writeFileSync(path, `${JSON.stringify({ scenario, at: new Date().toISOString(), ...data }, null, 2)}\n`);
  return path;
}
