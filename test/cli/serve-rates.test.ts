/**
 * `tracejudge serve` logs the effective sampling rate of every scorer at start, one info line each, so a
 * judge scorer sampled at the built-in 10 % is visible (and a custom scorer without judge steps at 1).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEnv, startCli } from './run-cli.js';

const custom = fileURLToPath(new URL('../sampling/fixtures/custom/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'tj-serve-rates-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('serve at start', () => {
  it('logs one "sampling rate" line per scorer with its kind, rate and source', async () => {
    const config = join(dir, 'serve.yaml');
    writeFileSync(
      config,
      [
        'sources: { otlp: { http: { port: 0 }, grpc: { port: 0 } } }',
        'emit: { prometheus: { port: 0 } }',
        'scorers:',
        '  tone: { type: tone }',
        `  plain: { type: custom, module: ${JSON.stringify(join(custom, 'function-only.ts'))} }`,
        `  judged: { type: custom, module: ${JSON.stringify(join(custom, 'judged.ts'))} }`,
        'sampling: { agents: { "billing-*": { rate: 0.05 } } }',
        '',
      ].join('\n'),
    );
    const proc = startCli(['serve', '-c', config], cliEnv('info'));
    let stderr = '';
    proc.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
    const lines = (): Record<string, unknown>[] =>
      stderr
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((l) => l.msg === 'sampling rate');
    const started = Date.now();
    while (lines().length < 3 && Date.now() - started < 30_000 && proc.exitCode === null) await new Promise((r) => setTimeout(r, 50));
    proc.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(lines().map((l) => [l.scorer, l.kind, l.rate, l.source, l.agents, l.level])).toEqual([
      ['tone', 'code', 1, 'built-in (code scorer)', { 'billing-*': 0.05 }, 30],
      ['plain', 'code', 1, 'built-in (code scorer)', { 'billing-*': 0.05 }, 30],
      ['judged', 'judge', 0.1, 'built-in (judge scorer)', { 'billing-*': 0.05 }, 30],
    ]);
  }, 60_000);
});
