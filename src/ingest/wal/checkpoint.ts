/**
 * The checkpoint file: the low watermark of the write-ahead log (every record with a smaller sequence
 * number has settled). Written atomically (temporary file, fsync, rename, fsync of the directory), so a
 * crash leaves either the old or the new checkpoint, never a torn one.
 */
import { closeSync, fsyncSync, openSync, readFileSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { join } from 'node:path';

const CHECKPOINT_FILE = 'checkpoint.json';

/** The saved low watermark, 0 when there is none; `problem` says why a file present could not be used. */
export function readCheckpoint(dir: string): { lowWatermark: number; problem?: string } {
  let text: string;
  try {
    text = readFileSync(join(dir, CHECKPOINT_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { lowWatermark: 0 };
    return { lowWatermark: 0, problem: `cannot read: ${(err as Error).message}` };
  }
  try {
    const parsed = JSON.parse(text) as { version?: unknown; lowWatermark?: unknown };
    const w = parsed.lowWatermark;
    if (parsed.version === 1 && typeof w === 'number' && Number.isSafeInteger(w) && w >= 0) return { lowWatermark: w };
  } catch {
    // fall through
  }
  return { lowWatermark: 0, problem: 'not a valid checkpoint' };
}

function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some filesystems cannot fsync a directory; the rename is still atomic.
  }
}

/** Replace the checkpoint with `lowWatermark`. */
export async function writeCheckpoint(dir: string, lowWatermark: number): Promise<void> {
  const tmp = join(dir, `${CHECKPOINT_FILE}.tmp`);
  const file = await open(tmp, 'w');
  try {
    await file.writeFile(`${JSON.stringify({ version: 1, lowWatermark })}\n`);
    await file.datasync();
  } finally {
    await file.close();
  }
  await rename(tmp, join(dir, CHECKPOINT_FILE));
  syncDir(dir);
}
