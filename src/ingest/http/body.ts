/**
 * Reads a request body with a byte limit that applies AFTER decompression: gzip is inflated as a stream
 * and stopped as soon as the inflated size passes the limit, so a gzip bomb never allocates its full size.
 */
import type { IncomingMessage } from 'node:http';
import { createGunzip, type Gunzip } from 'node:zlib';

/** Why a body could not be read; the receiver maps each kind to a status code. */
export class BodyError extends Error {
  constructor(
    readonly kind: 'too_large' | 'bad_encoding' | 'unsupported_encoding' | 'aborted',
    message: string,
  ) {
    super(message);
    this.name = 'BodyError';
  }
}

/** `identity` or `gzip`, from the Content-Encoding header; anything else throws `unsupported_encoding`. */
function contentEncodingOf(req: IncomingMessage): 'identity' | 'gzip' {
  const raw = (req.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (raw === '' || raw === 'identity') return 'identity';
  if (raw === 'gzip' || raw === 'x-gzip') return 'gzip';
  throw new BodyError('unsupported_encoding', `unsupported Content-Encoding ${JSON.stringify(raw.slice(0, 40))} (use gzip or none)`);
}

/** Reads the whole (decompressed) body, failing with `too_large` past `maxBytes`. */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const encoding = contentEncodingOf(req);
  const declared = Number(req.headers['content-length']);
  if (encoding === 'identity' && Number.isFinite(declared) && declared > maxBytes) {
    req.resume();
    return Promise.reject(new BodyError('too_large', `request body of ${declared} bytes exceeds the limit of ${maxBytes} bytes`));
  }
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    let gunzip: Gunzip | undefined;
    const finish = (err: BodyError | undefined): void => {
      if (done) return;
      done = true;
      if (err) {
        if (gunzip) {
          req.unpipe(gunzip);
          gunzip.destroy();
        }
        // Discard the rest of the upload so the response can still be read by the client.
        req.resume();
        reject(err);
      } else resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer): void => {
      if (done) return;
      size += chunk.length;
      if (size > maxBytes) {
        finish(new BodyError('too_large', `request body exceeds the limit of ${maxBytes} bytes${encoding === 'gzip' ? ' after decompression' : ''}`));
        return;
      }
      chunks.push(chunk);
    };
    req.on('aborted', () => finish(new BodyError('aborted', 'client aborted the request')));
    req.on('error', (err) => finish(new BodyError('aborted', `request stream failed: ${err.message}`)));
    if (encoding === 'gzip') {
      gunzip = createGunzip();
      gunzip.on('data', onData);
      gunzip.on('error', (err) => finish(new BodyError('bad_encoding', `invalid gzip body: ${err.message}`)));
      gunzip.on('end', () => finish(undefined));
      req.pipe(gunzip);
    } else {
      req.on('data', onData);
      req.on('end', () => finish(undefined));
    }
  });
}
