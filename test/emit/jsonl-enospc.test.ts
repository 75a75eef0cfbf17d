/**
 * A full disk under the JSON-lines emitter: the fault is injected at the file handle (a write that puts part
 * of its data on disk and then fails with ENOSPC, as a real full disk does), the rest is real (files, the
 * BufferedEmitter's retries). Every line must parse, and every acknowledged record must be in the file.
 */
import { mkdtemp, open, readFile, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BufferedEmitter } from '../../src/emit/buffered-emitter.js';
import { JsonlFileSender } from '../../src/emit/jsonl-file.js';
import type { ScoreRecord } from '../../src/model/score-record.js';
import { writeResult } from '../reliability/helpers/results.js';
import { emitSettings } from './emit-settings.js';
import { scoreRecord } from './records.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});
async function tempPath(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'tj-enospc-'));
  dirs.push(d);
  return join(d, 'scores.jsonl');
}

/** A disk that can be made full: while `full`, a write lands half its bytes and fails with ENOSPC. */
class FlakyDisk {
  full = false;
  failures = 0;
  open = async (path: string): Promise<FileHandle> => {
    const handle = await open(path, 'a+');
    const realAppend = handle.appendFile.bind(handle);
    handle.appendFile = async (data: string | Uint8Array, options?: unknown): Promise<void> => {
      if (!this.full) return realAppend(data, options as BufferEncoding);
      const bytes = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data);
      await handle.write(bytes.subarray(0, Math.max(1, bytes.length >> 1)));
      this.failures++;
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
    };
    return handle;
  };
}

const parseAll = (text: string): ScoreRecord[] =>
  text
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as ScoreRecord);

describe('JSON-lines file on a full disk', () => {
  it('cuts a failed write back to the last whole line and answers retryable', async () => {
    const path = await tempPath();
    const disk = new FlakyDisk();
    const sender = new JsonlFileSender({ path, maxBytes: 1_000_000, maxFiles: 2, openFile: disk.open });
    expect(await sender.send([scoreRecord({ scorer: 'a' })])).toEqual({ code: 'success' });
    disk.full = true;
    const failed = await sender.send([scoreRecord({ scorer: 'b' }), scoreRecord({ scorer: 'c' })]);
    expect(failed.code).toBe('retryable');
    expect(failed.code !== 'success' && failed.error.message).toContain('ENOSPC');
    // The file holds exactly the one whole line written before the fault.
    expect(parseAll(await readFile(path, 'utf8')).map((r) => r.scorer)).toEqual(['a']);
    disk.full = false;
    expect(await sender.send([scoreRecord({ scorer: 'b' }), scoreRecord({ scorer: 'c' })])).toEqual({ code: 'success' });
    await sender.close();
    const text = await readFile(path, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(parseAll(text).map((r) => r.scorer)).toEqual(['a', 'b', 'c']);
  });

  it('cuts a partial last line left by a crash when it opens the file', async () => {
    const path = await tempPath();
    const whole = `${JSON.stringify(scoreRecord({ scorer: 'a' }))}\n`;
    await writeFile(path, `${whole}{"evaluationId":"half`);
    const sender = new JsonlFileSender({ path, maxBytes: 1_000_000, maxFiles: 2 });
    expect(await sender.send([scoreRecord({ scorer: 'b' })])).toEqual({ code: 'success' });
    await sender.close();
    expect(parseAll(await readFile(path, 'utf8')).map((r) => r.scorer)).toEqual(['a', 'b']);
  });

  it('through the buffered emitter: a disk full for a while loses nothing and every line parses', async () => {
    const path = await tempPath();
    const disk = new FlakyDisk();
    const sender = new JsonlFileSender({ path, maxBytes: 1_000_000, maxFiles: 2, openFile: disk.open });
    const emitter = new BufferedEmitter(sender, { maxRecords: 1000, maxBytes: 10_000_000, maxBatchRecords: 8, initialBackoffMs: 10, maxBackoffMs: 40, maxElapsedMs: 30_000 }, emitSettings());
    const sent: string[] = [];
    const acknowledged = new Set<string>();
    const results: Promise<void>[] = [];
    for (let i = 0; i < 200; i++) {
      // The disk fills after 50 records and frees after 150; the retries ride over it.
      if (i === 50) disk.full = true;
      if (i === 150) setTimeout(() => (disk.full = false), 300);
      const record = scoreRecord({ scorer: `s${i}` });
      sent.push(record.evaluationId);
      results.push(emitter.emit([record]).then((r) => void (r.code === 'success' && acknowledged.add(record.evaluationId))));
      if (i % 10 === 0) await new Promise((r) => setTimeout(r, 5));
    }
    await Promise.all(results);
    await emitter.shutdown(Date.now() + 2000);
    const text = await readFile(path, 'utf8');
    const lines = text.split('\n').filter(Boolean);
    const written = parseAll(text).map((r) => r.evaluationId);
    const delivered = new Set(written);
    const lost = [...acknowledged].filter((id) => !delivered.has(id));
    const duplicated = written.length - delivered.size;
    writeResult('jsonl-enospc', { sent: sent.length, acknowledged: acknowledged.size, delivered: delivered.size, lost: lost.length, duplicated, failedWrites: disk.failures, lines: lines.length });
    expect(disk.failures).toBeGreaterThan(0);
    expect(acknowledged.size).toBe(sent.length);
    expect(lost).toEqual([]);
    expect(delivered.size).toBe(sent.length);
  });
});
