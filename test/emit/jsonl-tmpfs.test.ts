/**
 * A real full disk under the JSON-lines emitter: a 128 KiB tmpfs mounted in a private user and mount namespace
 * (`unshare -r -m`, no privileges needed where unprivileged user namespaces are allowed; skipped elsewhere). The
 * child writes until the kernel answers ENOSPC, frees space and writes on. Every line of the file, at the failure
 * and at the end, must parse, and every acknowledged record must be in it.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ScoreRecord } from '../../src/model/score-record.js';
import { writeResult } from '../reliability/helpers/results.js';
import { ROOT } from '../reliability/helpers/serve-process.js';

const canUnshare = spawnSync('unshare', ['-r', '-m', 'true'], { timeout: 10_000 }).status === 0;
const work = mkdtempSync(join(tmpdir(), 'tj-jsonl-tmpfs-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function parseLines(text: string): { records: ScoreRecord[]; bad: number } {
  let bad = 0;
  const records: ScoreRecord[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      records.push(JSON.parse(line) as ScoreRecord);
    } catch {
      bad++;
    }
  }
  return { records, bad };
}

describe.skipIf(!canUnshare)('JSON-lines file on a real full tmpfs', () => {
  it('cuts the failed write back to whole lines on ENOSPC, and loses nothing acknowledged', { timeout: 60_000 }, () => {
    const mount = join(work, 'disk');
    mkdirSync(mount);
    const out = join(work, 'scores.jsonl');
    const child = join(ROOT, 'test/emit/helpers/jsonl-tmpfs-child.ts');
    const script = `mount -t tmpfs -o size=128k tmpfs "$1" && exec "$2" --import tsx "$3" "$1" "$4"`;
    const run = spawnSync('unshare', ['-r', '-m', 'sh', '-c', script, 'sh', mount, process.execPath, child, out], { cwd: ROOT, timeout: 50_000, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const summary = JSON.parse(readFileSync(`${out}.json`, 'utf8')) as { sent: number; acknowledged: string[]; enospc: number };
    const atFailure = readFileSync(`${out}.at-enospc`, 'utf8');
    const final = parseLines(readFileSync(out, 'utf8'));
    const snapshot = parseLines(atFailure);
    const written = new Set(final.records.map((r) => r.evaluationId));
    const lost = summary.acknowledged.filter((id) => !written.has(id)).length;
    writeResult('jsonl-tmpfs-enospc', {
      sent: summary.sent,
      acknowledged: summary.acknowledged.length,
      delivered: written.size,
      lost,
      duplicated: final.records.length - written.size,
      enospc: summary.enospc,
      badLinesAtFailure: snapshot.bad,
      badLinesAtEnd: final.bad,
    });
    expect(summary.enospc).toBe(1);
    expect(atFailure.endsWith('\n')).toBe(true);
    expect(snapshot.bad).toBe(0);
    expect(final.bad).toBe(0);
    expect(lost).toBe(0);
    expect(summary.acknowledged.length).toBe(summary.sent);
  });
});
