/**
 * Score records as JSON lines in a file, rotated by size: `path` is the active file, `path.1` … `path.<maxFiles-1>`
 * the older ones (`path.1` newest). A rotation happens before a line that would push the active file past
 * `maxBytes`; a single line longer than `maxBytes` still gets a file of its own.
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
  private handle: FileHandle | undefined;
  private size = 0;

  constructor(private readonly options: JsonlFileOptions) {}

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
      // A partial batch may have been written; a retry duplicates those lines (at-least-once).
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
    const handle = await open(this.options.path, 'a');
    this.size = (await handle.stat()).size;
    this.handle = handle;
  }

  private async write(chunk: string, bytes: number): Promise<void> {
    if (!chunk || !this.handle) return;
    await this.handle.appendFile(chunk, 'utf8');
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

async function renameIfExists(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'ENOENT') throw err;
  }
}
