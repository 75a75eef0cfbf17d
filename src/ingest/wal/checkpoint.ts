/**
 * The checkpoint file: which records of the write-ahead log still need replaying. Version 2 holds `next`
 * (the sequence number the log was at) and `unsettled`, the ranges of records below it that were not yet
 * settled: every other record below `next` has settled. `lowWatermark` (the oldest unsettled record, or
 * `next`) is kept for segment deletion and for readers of version 1, which held only it (every record at or
 * above it was replayed). Written atomically (temporary file, fsync, rename, fsync of the directory), so a
 * crash leaves either the old or the new checkpoint, never a torn one.
 */
import { closeSync, fsyncSync, openSync, readFileSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { inRanges, type SeqRanges } from './settle-tracker.js';

const CHECKPOINT_FILE = 'checkpoint.json';

export interface Checkpoint {
  /** Every record below it has settled. */
  lowWatermark: number;
  /** Records at or above it are replayed. */
  next: number;
  /** Records below `next` that had not settled (inclusive ranges, increasing). */
  unsettled: SeqRanges;
}

/** Whether record `seq` must be replayed under `checkpoint`. */
export function needsReplay(checkpoint: Checkpoint, seq: number): boolean {
  if (seq < checkpoint.lowWatermark) return false;
  return seq >= checkpoint.next || inRanges(checkpoint.unsettled, seq);
}

const EMPTY: Checkpoint = { lowWatermark: 0, next: 0, unsettled: [] };

function isSeq(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

function validRanges(v: unknown, next: number): v is SeqRanges {
  if (!Array.isArray(v)) return false;
  let prev = -1;
  for (const r of v) {
    if (!Array.isArray(r) || r.length !== 2 || !isSeq(r[0]) || !isSeq(r[1]) || r[0] > r[1] || r[0] <= prev || r[1] >= next) return false;
    prev = r[1];
  }
  return true;
}

/** The saved checkpoint (nothing settled when there is none); `problem` says why a file present could not be used. */
export function readCheckpoint(dir: string): Checkpoint & { problem?: string } {
  let text: string;
  try {
    text = readFileSync(join(dir, CHECKPOINT_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { ...EMPTY };
    return { ...EMPTY, problem: `cannot read: ${(err as Error).message}` };
  }
  try {
    const parsed = JSON.parse(text) as { version?: unknown; lowWatermark?: unknown; next?: unknown; unsettled?: unknown };
    const w = parsed.lowWatermark;
    if (parsed.version === 1 && isSeq(w)) return { lowWatermark: w, next: w, unsettled: [] };
    if (parsed.version === 2 && isSeq(w) && isSeq(parsed.next) && w <= parsed.next && validRanges(parsed.unsettled, parsed.next)) {
      const first = parsed.unsettled[0];
      // The watermark is the oldest unsettled record: a file that says otherwise is not trusted beyond it.
      return { lowWatermark: first ? Math.min(w, first[0]) : w, next: parsed.next, unsettled: parsed.unsettled };
    }
  } catch {
    // fall through
  }
  return { ...EMPTY, problem: 'not a valid checkpoint' };
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

/** The file's text for `checkpoint` (compared by the log to skip writing an unchanged one). */
export function checkpointText(checkpoint: Checkpoint): string {
  return `${JSON.stringify({ version: 2, lowWatermark: checkpoint.lowWatermark, next: checkpoint.next, unsettled: checkpoint.unsettled })}\n`;
}

/** Replace the checkpoint with `text` (from {@link checkpointText}). */
export async function writeCheckpoint(dir: string, text: string): Promise<void> {
  const tmp = join(dir, `${CHECKPOINT_FILE}.tmp`);
  const file = await open(tmp, 'w');
  try {
    await file.writeFile(text);
    await file.datasync();
  } finally {
    await file.close();
  }
  await rename(tmp, join(dir, CHECKPOINT_FILE));
  syncDir(dir);
}
