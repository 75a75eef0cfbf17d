/**
 * Every record reaches a pipe before the process exits. A pipe is asynchronous in Node (unlike a file):
 * a process that exits while writes are queued loses them. Here `score` and `extract` write thousands of
 * records into a shell pipe (`| wc -l`) and into a reader that stops reading for a while (back-pressure),
 * and the counts must equal what was written to a file; a reader that goes away early (`| head -1`) ends
 * the command quietly with exit 0.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDataset } from '../../bench/lib/dataset.js';
import { cliEnv, ROOT, startCli } from './run-cli.js';

const TRACES = 5200;
let dir: string;
let input: string;
let config: string;
let jsonl: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tj-pipe-'));
  input = join(dir, 'big.jsonl');
  jsonl = join(dir, 'scores.jsonl');
  config = join(dir, 'pipe.yaml');
  // Generated agent traces (one OTLP/JSON request per line), each holding at least one agent run.
  const ds = buildDataset('pipe', TRACES, 256, { seed: 4242, messageSize: 'small' });
  writeFileSync(input, ds.json.map((b) => b.toString('utf8')).join('\n'));
  writeFileSync(config, ['scorers:', '  similarity: { type: content-similarity }', 'emit:', `  jsonl: { path: ${JSON.stringify(jsonl)} }`, ''].join('\n'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** `sh -c "<cli> | <tail>"` with the CLI as users run it; resolves to the pipeline's stdout and exit code. */
function shellPipe(cliArgs: string[], tail: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cli = [process.execPath, '--import', 'tsx', 'src/cli/main.ts', ...cliArgs].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('bash', ['-o', 'pipefail', '-c', `${cli} | ${tail}`], { cwd: ROOT, env: cliEnv('warn'), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const lines = (path: string): number => readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '').length;

describe('output through a pipe', () => {
  it(
    '`score --all BIG | wc -l` counts every record written to the JSON-lines file (at least 5,000 runs)',
    async () => {
      rmSync(jsonl, { force: true });
      const r = await shellPipe(['score', '--all', '-c', config, input], 'wc -l');
      expect(r.code, r.stderr).toBe(0);
      const inFile = lines(jsonl);
      expect(inFile).toBeGreaterThanOrEqual(5000);
      expect(Number(r.stdout.trim())).toBe(inFile);
      expect(r.stderr).not.toMatch(/Warning|Error/);
    },
    120_000,
  );

  it(
    '`extract BIG | wc -l` counts every run, as many as score found, also when the reader starts late',
    async () => {
      const r = await shellPipe(['extract', input], 'wc -l');
      expect(r.code, r.stderr).toBe(0);
      expect(Number(r.stdout.trim())).toBe(lines(jsonl));
      const late = await shellPipe(['extract', input], '(sleep 2; wc -l)');
      expect(late.code, late.stderr).toBe(0);
      expect(Number(late.stdout.trim())).toBe(lines(jsonl));
      expect(late.stderr).not.toMatch(/Warning|Error/);
    },
    120_000,
  );

  it(
    'a slow reader (stops reading for a while, twice) still gets every record, each one whole',
    async () => {
      rmSync(jsonl, { force: true });
      const child = startCli(['score', '--all', '-c', config, input], cliEnv('warn'));
      child.stdin?.end();
      let stdout = '';
      let stderr = '';
      let pauses = 0;
      const out = child.stdout;
      if (!out) throw new Error('no stdout');
      out.setEncoding('utf8');
      out.on('data', (d: string) => {
        stdout += d;
        // Stop reading twice, long enough for the pipe (64 KiB) and the writer's queue to fill.
        if (pauses < 2 && stdout.length > (pauses + 1) * 200_000) {
          pauses++;
          out.pause();
          setTimeout(() => out.resume(), 1500);
        }
      });
      child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
      expect(code, stderr).toBe(0);
      expect(pauses).toBe(2);
      const records = stdout.split('\n').filter((l) => l !== '');
      expect(records.length).toBe(lines(jsonl));
      for (const l of records) expect(() => JSON.parse(l) as unknown).not.toThrow();
    },
    120_000,
  );

  it('a reader that goes away early (`| head -1`) ends the command quietly, exit 0', async () => {
    const r = await shellPipe(['score', '--all', input], 'head -1');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(r.stdout) as Record<string, unknown>).toHaveProperty('evaluationId');
    // The closing summary (scorer names such as `tool-errors`) is not an error message.
    expect(r.stderr.replace(/^summary: [\s\S]*$/m, '')).not.toMatch(/EPIPE|Error|error/);
    expect(r.stderr).toMatch(/^summary: \d+ run\(s\)/m);
  }, 120_000);
});
