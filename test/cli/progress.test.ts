/**
 * The progress bar of `score` on a real terminal: the command runs under `script` (util-linux), which gives
 * it a pseudo-terminal as stderr while stdout goes to a file. The bar must show done/total traces, a rate
 * and an ETA, must be gone at the end, and stdout must still hold exactly the records.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDataset } from '../../bench/lib/dataset.js';
import { haveScript, runOnTerminal, SCRIPT } from './terminal.js';

const TRACES = 3000;
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tj-progress-'));
  const ds = buildDataset('progress', TRACES, 256, { seed: 77, messageSize: 'small' });
  writeFileSync(join(dir, 'big.jsonl'), ds.json.map((b) => b.toString('utf8')).join('\n'));
  writeFileSync(join(dir, 'p.yaml'), ['scorers:', '  similarity: { type: content-similarity }', ''].join('\n'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!haveScript)(`score's progress bar on a terminal (skipped without ${SCRIPT})`, () => {
  it('shows done/total traces with rate and ETA on the terminal, and leaves stdout to the records', async () => {
    const out = join(dir, 'out.jsonl');
    const { code, plain, frames } = await runOnTerminal(['score', '--all', '-c', join(dir, 'p.yaml'), join(dir, 'big.jsonl')], out, 110_000);
    expect(code, plain.slice(-2000)).toBe(0);
    expect(frames.length, plain.slice(0, 2000)).toBeGreaterThan(0);
    const last = frames[frames.length - 1] ?? '';
    // A rate and an ETA once a second has passed (\`-/s  ETA ?\` before: test/cli/progress-format.test.ts).
    expect(last).toMatch(new RegExp(`^score \\[[=\\- ]+\\] \\d+/${TRACES} traces  \\d+%  (?:[\\d.]+/s  ETA \\S+|-/s  ETA \\?)`));
    // The summary follows on stderr (the terminal); stdout got only the records.
    expect(plain).toMatch(/summary: \d+ run\(s\)/);
    const lines = readFileSync(out, 'utf8').split('\n').filter((l) => l !== '');
    expect(lines.length).toBeGreaterThanOrEqual(TRACES);
    for (const l of lines) expect(l.startsWith('{"evaluationId":')).toBe(true);
  }, 120_000);
});
