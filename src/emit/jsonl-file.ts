/**
 * Score records as JSON lines in a file, rotated by size: `path` is the active file, `path.1` … `path.<maxFiles-1>`
 * the older ones (`path.1` newest). A rotation happens before a line that would push the active file past
 * `maxBytes`; a single line longer than `maxBytes` still gets a file of its own.
 *
 * Every write is whole or absent: a write that fails (a full disk, `ENOSPC`) is cut back to the size the file
 * had before it, like the write-ahead log does, so every line of the file always parses and the next write
 * does not glue onto a partial record. A full disk answers `retryable`.
 */
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errorMessage } from '../errors.js';
import type { RecordSender } from './buffered-emitter.js';
import type { ScoreRecord } from '../model/score-record.js';
import type { EmitResult } from './emitter.js';

export interface JsonlFileOptions {
  path: string;
  maxBytes: number;
  /** Files kept in total, the active one included (1 = truncate in place). */
  maxFiles: number;
  /** Opens the active file for appending (default `fs.promises.open(path, 'a+')`); tests inject write faults here. */
  openFile?: (path: string) => Promise<FileHandle>;
}

const RETRYABLE_FS: ReadonlySet<string> = new Set(['ENOSPC', 'EAGAIN', 'EMFILE', 'ENFILE', 'EBUSY', 'EIO', 'EDQUOT']);

function fsFailure(err: unknown, what: string): EmitResult {
  const code = (err as { code?: unknown }).code;
  const error = new Error(`${what}: ${errorMessage(err)}`);
  return typeof code === 'string' && RETRYABLE_FS.has(code) ? { code: 'retryable', error } : { code: 'permanent', error };
}

/** One JSON line per record: the record exactly as docs/records.md describes it. */
export function toJsonLine(record: ScoreRecord): string {
  return `${JSON.stringify(record)}\n`;
}

export class JsonlFileSender implements RecordSender {
  readonly name = 'jsonl';
  readonly destination: string;
  private handle: FileHandle | undefined;
  private size = 0;

  constructor(private readonly options: JsonlFileOptions) {
    this.destination = options.path;
  }

  async send(records: readonly ScoreRecord[]): Promise<EmitResult> {
    try {
      await this.ensureOpen();
    } catch (err) {
      return fsFailure(err, `cannot open ${this.options.path}`);
    }
    let chunk = '';
    let chunkBytes = 0;
    try {
      for (const record of records) {
        const line = toJsonLine(record);
        const bytes = Buffer.byteLength(line);
        if (this.size + chunkBytes > 0 && this.size + chunkBytes + bytes > this.options.maxBytes) {
          await this.write(chunk, chunkBytes);
          chunk = '';
          chunkBytes = 0;
          await this.rotate();
        }
        chunk += line;
        chunkBytes += bytes;
      }
      await this.write(chunk, chunkBytes);
      return { code: 'success' };
    } catch (err) {
      // Chunks written before a rotation stay (whole lines); a retry duplicates them (at-least-once).
      await this.closeHandle();
      return fsFailure(err, `cannot write ${this.options.path}`);
    }
  }

  async close(): Promise<void> {
    await this.closeHandle();
  }

  private async ensureOpen(): Promise<void> {
    if (this.handle) return;
    await mkdir(dirname(this.options.path), { recursive: true });
    const handle = await (this.options.openFile ?? ((path: string) => open(path, 'a+')))(this.options.path);
    try {
      this.size = await cutPartialLine(handle, (await handle.stat()).size);
    } catch (err) {
      await handle.close().catch(() => undefined);
      throw err;
    }
    this.handle = handle;
  }

  /** Appends whole lines, or nothing: on failure the file is truncated back to its size before the write. */
  private async write(chunk: string, bytes: number): Promise<void> {
    const handle = this.handle;
    if (!chunk || !handle) return;
    const before = this.size;
    try {
      await handle.appendFile(chunk, 'utf8');
    } catch (err) {
      // If even the truncation fails, the next open cuts the partial line (the caller closes the handle).
      await handle.truncate(before).catch(() => undefined);
      throw err;
    }
    this.size += bytes;
  }

  private async rotate(): Promise<void> {
    await this.closeHandle();
    const { path, maxFiles } = this.options;
    if (maxFiles <= 1) {
      await rm(path, { force: true });
    } else {
      await rm(`${path}.${maxFiles - 1}`, { force: true });
      for (let i = maxFiles - 2; i >= 1; i--) await renameIfExists(`${path}.${i}`, `${path}.${i + 1}`);
      await renameIfExists(path, `${path}.1`);
    }
    await this.ensureOpen();
  }

  private async closeHandle(): Promise<void> {
    const h = this.handle;
    this.handle = undefined;
    this.size = 0;
    if (h) await h.close().catch(() => undefined);
  }
}

/**
 * A file that does not end with a newline ends with a partial record (a crash, or a failed truncation after a
 * failed write): cut it back to its last whole line. Returns the size after the cut.
 */
async function cutPartialLine(handle: FileHandle, size: number): Promise<number> {
  if (size === 0) return 0;
  const tail = Buffer.alloc(Math.min(size, 64 * 1024));
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - tail.length);
    const { bytesRead } = await handle.read(tail, 0, end - start, start);
    const nl = tail.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (nl >= 0) {
      const whole = start + nl + 1;
      if (whole < size) await handle.truncate(whole);
      return whole;
    }
    end = start;
  }
  await handle.truncate(0);
  return 0;
}

async function renameIfExists(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'ENOENT') throw err;
  }
}
