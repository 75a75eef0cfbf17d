/**
 * Reads a request body with a byte limit that applies AFTER decompression: gzip is inflated as a stream
 * and stopped as soon as the inflated size passes the limit, so a gzip bomb never allocates its full size.
 * Every byte held is first reserved in the shared in-flight budget; a body whose next chunk does not fit
 * stops there. After any refusal the rest of the upload is discarded (read and dropped, never held) by
 * {@link discardBody}, so the client gets the answer instead of a reset connection.
 */
import type { IncomingMessage } from 'node:http';
import { createGunzip, type Gunzip } from 'node:zlib';
import type { BudgetReservation } from '../otlp/receiver.js';

export type BodyErrorKind = 'too_large' | 'bad_encoding' | 'unsupported_encoding' | 'aborted' | 'over_budget' | 'timeout';

/** Why a body could not be read; the receiver maps each kind to a status code. */
export class BodyError extends Error {
  constructor(
    readonly kind: BodyErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'BodyError';
  }
}

export interface ReadBodyOptions {
  /** The limit after decompression; a larger body fails with `too_large`. */
  maxBytes: number;
  /** Grown by every chunk held; a chunk that does not fit fails the read with `over_budget`. */
  reservation?: BudgetReservation;
  /** Aborting it (the receiver's body timer) fails the read with `timeout`. */
  signal?: AbortSignal;
}

/** `identity` or `gzip`, from the Content-Encoding header; anything else throws `unsupported_encoding`. */
export function contentEncodingOf(req: IncomingMessage): 'identity' | 'gzip' {
  const raw = (req.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (raw === '' || raw === 'identity') return 'identity';
  if (raw === 'gzip' || raw === 'x-gzip') return 'gzip';
  throw new BodyError('unsupported_encoding', `unsupported Content-Encoding ${JSON.stringify(raw.slice(0, 40))} (use gzip or none)`);
}

/** The Content-Length header as a number, or undefined when absent or not a number. */
export function declaredLength(req: IncomingMessage): number | undefined {
  const raw = req.headers['content-length'];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/**
 * Reads the whole (decompressed) body. Fails with `too_large` past `maxBytes`, `over_budget` when the
 * reservation cannot grow, `bad_encoding` for corrupt gzip, `aborted` when the client goes away and
 * `timeout` when `signal` aborts. After a failure nothing of the body is held, and the request stream is
 * left for the caller to discard.
 */
export function readBody(req: IncomingMessage, options: ReadBodyOptions): Promise<Buffer> {
  const encoding = contentEncodingOf(req);
  const { maxBytes, reservation, signal } = options;
  const declared = declaredLength(req);
  if (encoding === 'identity' && declared !== undefined && declared > maxBytes) {
    return Promise.reject(new BodyError('too_large', `request body of ${declared} bytes exceeds the limit of ${maxBytes} bytes`));
  }
  return new Promise<Buffer>((resolve, reject) => {
    let chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    let gunzip: Gunzip | undefined;
    const cleanup = (): void => {
      signal?.removeEventListener('abort', onAbort);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('aborted', onAborted);
      req.off('error', onError);
      req.off('close', onClose);
      if (gunzip) {
        req.unpipe(gunzip);
        gunzip.removeAllListeners('data');
        gunzip.on('error', () => undefined);
        gunzip.destroy();
      }
    };
    const finish = (err: BodyError | undefined): void => {
      if (done) return;
      done = true;
      cleanup();
      if (err) {
        chunks = [];
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
      if (reservation && !reservation.grow(chunk.length)) {
        finish(new BodyError('over_budget', 'request bodies in flight are at sources.otlp.maxInFlightBytes'));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => finish(undefined);
    const onAborted = (): void => finish(new BodyError('aborted', 'client aborted the request'));
    const onError = (err: Error): void => finish(new BodyError('aborted', `request stream failed: ${err.message}`));
    // Closed before its last byte arrived: the client went away (a complete gzip body may still be inflating).
    const onClose = (): void => {
      if (!req.complete) finish(new BodyError('aborted', 'connection closed before the request body ended'));
    };
    const onAbort = (): void => finish(new BodyError('timeout', 'request body not received in time'));
    if (signal?.aborted) {
      onAbort();
      return;
    }
    signal?.addEventListener('abort', onAbort);
    req.on('aborted', onAborted);
    req.on('error', onError);
    req.on('close', onClose);
    if (encoding === 'gzip') {
      const g = createGunzip();
      gunzip = g;
      g.on('data', onData);
      g.on('error', (err) => finish(new BodyError('bad_encoding', `invalid gzip body: ${err.message}`)));
      g.on('end', onEnd);
      req.pipe(g);
    } else {
      req.on('data', onData);
      req.on('end', onEnd);
    }
  });
}

/** How {@link discardBody} ended. */
export type DiscardOutcome = 'ended' | 'limit' | 'aborted' | 'timeout';

/**
 * Read the rest of the request and drop it: `ended` once the client has sent it all (the connection is
 * then clean, and the answer reaches the client), `limit` after `maxBytes` more bytes (the caller answers
 * and closes), `aborted` when the client went away, `timeout` when `signal` aborts.
 */
export function discardBody(req: IncomingMessage, maxBytes: number, signal?: AbortSignal): Promise<DiscardOutcome> {
  if (req.complete || req.readableEnded) {
    req.resume();
    return Promise.resolve('ended');
  }
  if (req.destroyed) return Promise.resolve('aborted');
  return new Promise<DiscardOutcome>((resolve) => {
    let seen = 0;
    let done = false;
    const finish = (outcome: DiscardOutcome): void => {
      if (done) return;
      done = true;
      signal?.removeEventListener('abort', onAbort);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('aborted', onAborted);
      req.off('error', onAborted);
      req.off('close', onClose);
      if (outcome !== 'ended') req.pause();
      resolve(outcome);
    };
    const onData = (chunk: Buffer): void => {
      seen += chunk.length;
      if (seen > maxBytes) finish('limit');
    };
    const onEnd = (): void => finish('ended');
    const onAborted = (): void => finish('aborted');
    const onClose = (): void => finish(req.complete ? 'ended' : 'aborted');
    const onAbort = (): void => finish('timeout');
    if (signal?.aborted) {
      finish('timeout');
      return;
    }
    signal?.addEventListener('abort', onAbort);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('aborted', onAborted);
    req.on('error', onAborted);
    req.on('close', onClose);
    req.resume();
  });
}
