/**
 * Reads one input (a path, or `-` for stdin) into memory and gunzips it when it is gzip data
 * (recognised by its magic bytes, whatever the file is called).
 */
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { ErrorCodes, TracejudgeError } from '../../errors.js';

/** Decompressed inputs larger than this are refused (protects against gzip bombs). */
const MAX_INPUT_BYTES = 1024 * 1024 * 1024;

/** An input read into memory. */
export interface InputBytes {
  /** How messages name it: the path as given, or `<stdin>`. */
  name: string;
  /** The path without `.gz`, used to pick the format by extension; `''` for stdin. */
  formatHint: string;
  bytes: Uint8Array;
  /** Whether `bytes` came out of gunzip (offsets then refer to the decompressed data). */
  decompressed: boolean;
}

function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

async function readStream(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    total += b.length;
    if (total > MAX_INPUT_BYTES) throw new TracejudgeError(ErrorCodes.INPUT_UNREADABLE, `<stdin>: input larger than ${MAX_INPUT_BYTES} bytes`);
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

/** Read `path` (or stdin for `-`); throws `TracejudgeError` (INPUT_UNREADABLE) naming the input. */
export async function readInputBytes(path: string, stdin: NodeJS.ReadableStream = process.stdin): Promise<InputBytes> {
  const name = path === '-' ? '<stdin>' : path;
  let raw: Buffer;
  try {
    raw = path === '-' ? await readStream(stdin) : await readFile(path);
  } catch (err) {
    if (err instanceof TracejudgeError) throw err;
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : code === 'EACCES' ? 'permission denied' : code;
    throw new TracejudgeError(ErrorCodes.INPUT_UNREADABLE, `${name}: cannot read input (${why})`, { cause: err });
  }
  const hasGzSuffix = /\.gz$/i.test(path);
  const formatHint = path === '-' ? '' : path.replace(/\.gz$/i, '');
  if (!isGzip(raw)) {
    if (hasGzSuffix) throw new TracejudgeError(ErrorCodes.INPUT_UNREADABLE, `${name}: not gzip data (no gzip magic bytes at byte offset 0)`);
    return { name, formatHint, bytes: raw, decompressed: false };
  }
  try {
    return { name, formatHint, bytes: gunzipSync(raw, { maxOutputLength: MAX_INPUT_BYTES }), decompressed: true };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ERR_BUFFER_TOO_LARGE' ? `decompresses to more than ${MAX_INPUT_BYTES} bytes` : (err as Error).message;
    throw new TracejudgeError(ErrorCodes.INPUT_UNREADABLE, `${name}: invalid gzip data (${why})`, { cause: err });
  }
}
