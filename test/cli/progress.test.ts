/**
 * The progress bar of `score` on a real terminal: the command runs under `script` (util-linux), which gives
 * it a pseudo-terminal as stderr while stdout goes to a file. The bar must show done/total traces, a rate
 * and an ETA, must be gone at the end, and stdout must still hold exactly the records.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDataset } from '../../bench/lib/dataset.js';
import { cliEnv, ROOT } from './run-cli.js';

const SCRIPT = '/usr/bin/script';
const TRACES = 3000;
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tj-progress-'));
  const ds = buildDataset('progress', TRACES, 256, { seed: 77, messageSize: 'small' });
  writeFileSync(join(dir, 'big.jsonl'), ds.json.map((b) => b.toString('utf8')).join('\n'));
  writeFileSync(join(dir, 'p.yaml'), ['scorers:', '  similarity: { type: content-similarity }', ''].join('\n'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const quote = (a: string): string => `'${a.replace(/'/g, `'\\''`)}'`;

describe.skipIf(!existsSync(SCRIPT))(`score's progress bar on a terminal (skipped without ${SCRIPT})`, () => {
  it('shows done/total traces with rate and ETA on the terminal, and leaves stdout to the records', async () => {
    const out = join(dir, 'out.jsonl');
    const cli = [process.execPath, '--import', 'tsx', 'src/cli/main.ts', 'score', '--all', '-c', join(dir, 'p.yaml'), join(dir, 'big.jsonl')].map(quote).join(' ');
    const child = spawn(SCRIPT, ['-qefc', `${cli} > ${quote(out)}`, '/dev/null'], { cwd: ROOT, env: { ...cliEnv('warn'), COLUMNS: '120' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let tty = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (tty += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 110_000);
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    clearTimeout(timer);
    expect(code, tty.slice(-2000)).toBe(0);
    // The frames, without the cursor and line control sequences.
    // eslint-disable-next-line no-control-regex
    const plain = tty.replace(/\u001b\[[0-9;?]*[A-Za-z]|\u001b[78]/g, '\n');
    const frames = plain.split(/[\r\n]+/).filter((l) => l.startsWith('score ['));
    expect(frames.length, plain.slice(0, 2000)).toBeGreaterThan(0);
    const last = frames[frames.length - 1] ?? '';
    expect(last).toMatch(new RegExp(`^score \\[[=\\- ]+\\] \\d+/${TRACES} traces  \\d+%  [\\d.]+/s  ETA \\S+`));
    // The summary follows on stderr (the terminal); stdout got only the records.
    expect(plain).toMatch(/summary: \d+ run\(s\)/);
    const lines = readFileSync(out, 'utf8').split('\n').filter((l) => l !== '');
    expect(lines.length).toBeGreaterThanOrEqual(TRACES);
    for (const l of lines) expect(l.startsWith('{"evaluationId":')).toBe(true);
  }, 120_000);
});
