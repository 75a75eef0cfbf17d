/**
 * OTLP/HTTP receiver on node:http: POST /v1/traces and /v1/logs (protobuf or JSON, optionally gzip),
 * GET /healthz and /readyz. Status codes follow the OTLP specification: 400 malformed, 401 bad token,
 * 413 over the (decompressed) body limit, 415 other content types, 429/503 + Retry-After when the sink
 * refuses, 200 with partialSuccess when some items were rejected.
 */
import { closeGracefully } from '../otlp/close-gracefully.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DecodeError, errorMessage } from '../../errors.js';
import type { ComponentSettings } from '../../component.js';
import { ThrottledLog } from '../../telemetry/log.js';
import type { IngestOutcome, OtlpIngest, OtlpSignal } from '../otlp/ingest.js';
import { bearerMatches, receiverOf, type OtlpReceiver } from '../otlp/receiver.js';
import { encodeExportResponse, encodeStatus, RpcCode, type OtlpEncoding } from '../otlp/responses.js';
import { BodyError, readBody } from './body.js';
import { component, remainingMs } from '../../component.js';

export interface OtlpHttpReceiverOptions {
  host: string;
  /** 0 picks a free port (see `start()`). */
  port: number;
  /** Body limit after decompression; larger bodies get 413. */
  maxBodyBytes: number;
  /** When set, requests must carry `Authorization: Bearer <token>` (401 otherwise). */
  bearerToken?: string;
  /** Decodes, logs (write-ahead) and offers request bodies. */
  ingest: OtlpIngest;
  settings: ComponentSettings;
  /** `/readyz` answers 200 only while this returns true (and the receiver is not shutting down). */
  isReady: () => boolean;
  /** How long `shutdown()` waits for in-flight requests before closing connections; default 5000. */
  shutdownGraceMs?: number;
}

const CONTENT_TYPES: Record<OtlpEncoding, string> = { json: 'application/json', protobuf: 'application/x-protobuf' };

/**
 * Answer a retryable refusal only once the request body has been drained (not buffered, not decoded):
 * answering mid-upload makes Node close the keep-alive connection, and the client sees ECONNRESET instead
 * of the 429/503 it could retry.
 */
function afterBody(req: IncomingMessage, then: () => void): void {
  req.once('end', then);
  req.resume();
}

/** Creates the OTLP/HTTP receiver; nothing listens until `start()`. */
export function createOtlpHttpReceiver(options: OtlpHttpReceiverOptions): OtlpReceiver {
  const log = options.settings.logger.child({ component: 'otlp-http' });
  const badRequests = new ThrottledLog(log, 'rejected malformed OTLP/HTTP requests');
  let server: Server | undefined;
  let boundPort = options.port;
  let shuttingDown = false;

  function send(res: ServerResponse, status: number, encoding: OtlpEncoding, body: Buffer, headers: Record<string, string> = {}): void {
    if (res.headersSent) return;
    res.writeHead(status, { 'content-type': CONTENT_TYPES[encoding], 'content-length': String(body.length), ...headers });
    res.end(body);
  }

  function fail(res: ServerResponse, status: number, encoding: OtlpEncoding, code: number, message: string, headers: Record<string, string> = {}): void {
    send(res, status, encoding, encodeStatus(encoding, code, message), headers);
  }

  function answer(res: ServerResponse, signal: OtlpSignal, encoding: OtlpEncoding, outcome: IngestOutcome): void {
    if (outcome.kind === 'wal_failed') {
      fail(res, 503, encoding, RpcCode.UNAVAILABLE, outcome.message, { 'retry-after': '1' });
      return;
    }
    if (outcome.kind === 'accepted') {
      send(res, 200, encoding, encodeExportResponse(signal, encoding, outcome.rejected, outcome.message));
      return;
    }
    const retryAfter = String(Math.max(1, Math.ceil(outcome.retryAfterMs / 1000)));
    const status = outcome.reason === 'shutting_down' ? 503 : 429;
    const code = outcome.reason === 'shutting_down' ? RpcCode.UNAVAILABLE : RpcCode.RESOURCE_EXHAUSTED;
    fail(res, status, encoding, code, `${outcome.reason === 'shutting_down' ? 'shutting down' : 'buffers are full'}; retry after ${retryAfter}s`, { 'retry-after': retryAfter });
  }

  async function handleExport(req: IncomingMessage, res: ServerResponse, signal: OtlpSignal): Promise<void> {
    const mediaType = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    const encoding: OtlpEncoding | undefined = mediaType === 'application/json' ? 'json' : mediaType === 'application/x-protobuf' ? 'protobuf' : undefined;
    if (encoding === undefined) {
      req.resume();
      fail(res, 415, 'json', RpcCode.INVALID_ARGUMENT, `unsupported Content-Type ${JSON.stringify(mediaType.slice(0, 60))}; use application/x-protobuf or application/json`);
      return;
    }
    if (options.bearerToken !== undefined && !bearerMatches(req.headers.authorization, options.bearerToken)) {
      req.resume();
      fail(res, 401, encoding, RpcCode.UNAUTHENTICATED, 'missing or invalid bearer token', { 'www-authenticate': 'Bearer' });
      return;
    }
    if (shuttingDown) {
      afterBody(req, () => answer(res, signal, encoding, { kind: 'refused', reason: 'shutting_down', retryAfterMs: 1000 }));
      return;
    }
    // Saturated: answer before reading and decoding the body, so overload costs as little as possible.
    const pressure = options.ingest.pressure(signal);
    if (pressure) {
      afterBody(req, () => answer(res, signal, encoding, { kind: 'refused', reason: pressure.reason, retryAfterMs: pressure.retryAfterMs }));
      return;
    }
    let body: Buffer;
    try {
      body = await readBody(req, options.maxBodyBytes);
    } catch (err) {
      if (!(err instanceof BodyError)) throw err;
      if (err.kind === 'aborted') return;
      const status = err.kind === 'too_large' ? 413 : err.kind === 'unsupported_encoding' ? 415 : 400;
      fail(res, status, encoding, RpcCode.INVALID_ARGUMENT, err.message, err.kind === 'too_large' ? { connection: 'close' } : {});
      badRequests.hit(1, { status });
      return;
    }
    let outcome: IngestOutcome;
    try {
      outcome = await options.ingest.accept(signal, encoding, body);
    } catch (err) {
      if (!(err instanceof DecodeError)) throw err;
      fail(res, 400, encoding, RpcCode.INVALID_ARGUMENT, err.message);
      badRequests.hit(1, { status: 400 });
      return;
    }
    answer(res, signal, encoding, outcome);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/v1/traces' || path === '/v1/logs') {
      if (req.method !== 'POST') {
        req.resume();
        res.writeHead(405, { allow: 'POST', 'content-type': 'text/plain' }).end('method not allowed; use POST\n');
        return;
      }
      await handleExport(req, res, path === '/v1/traces' ? 'traces' : 'logs');
      return;
    }
    req.resume();
    if (req.method === 'GET' && path === '/healthz') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
    } else if (req.method === 'GET' && path === '/readyz') {
      const ready = !shuttingDown && options.isReady();
      res.writeHead(ready ? 200 : 503, { 'content-type': 'text/plain' }).end(ready ? 'ready\n' : shuttingDown ? 'shutting down\n' : 'not ready\n');
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found; OTLP/HTTP accepts POST /v1/traces and /v1/logs\n');
    }
  }

  function onRequest(req: IncomingMessage, res: ServerResponse): void {
    handle(req, res).catch((err: unknown) => {
      log.error({ err: errorMessage(err) }, 'OTLP/HTTP request failed');
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error\n');
      else res.destroy();
    });
  }

  const lifecycle = component('otlp-http', {
    start() {
      const s = createServer({ requestTimeout: 60_000, headersTimeout: 15_000 }, onRequest);
      s.on('clientError', (_err, socket) => {
        if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
        else socket.destroy();
      });
      server = s;
      return new Promise<void>((resolve, reject) => {
        s.once('error', (err) => reject(new Error(`sources.otlp.http: cannot listen on ${options.host}:${options.port}: ${errorMessage(err)}`, { cause: err })));
        s.listen(options.port, options.host, () => {
          s.removeAllListeners('error');
          s.on('error', (err) => log.error({ err: errorMessage(err) }, 'OTLP/HTTP server error'));
          boundPort = (s.address() as AddressInfo).port;
          log.info({ host: options.host, port: boundPort }, 'OTLP/HTTP receiver listening');
          resolve();
        });
      });
    },
    async shutdown(deadline) {
      shuttingDown = true;
      const s = server;
      if (!s?.listening) return;
      await closeGracefully(
        (done) => {
          s.close(() => done());
          s.closeIdleConnections();
        },
        () => s.closeAllConnections(),
        Math.min(options.shutdownGraceMs ?? 5000, remainingMs(deadline)),
      );
      log.info({ port: boundPort }, 'OTLP/HTTP receiver stopped');
    },
  });
  return receiverOf(lifecycle, () => boundPort);
}
