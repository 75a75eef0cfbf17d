/**
 * OTLP/HTTP receiver on node:http: POST /v1/traces and /v1/logs (protobuf or JSON, optionally gzip),
 * GET /healthz and /readyz. Status codes follow the OTLP specification: 400 malformed, 401 bad token,
 * 408 body too slow, 413 over the (decompressed) body limit, 415 other content types, 429/503 +
 * Retry-After when the sink or the in-flight budget refuses, 200 with partialSuccess when some items were
 * rejected.
 *
 * Memory: the bearer token is checked from the headers before a byte of the body is read; every byte held
 * is reserved in the in-flight budget shared with the gRPC receiver; a body must arrive within
 * `bodyTimeoutMs`. A refused request's body is read to its end and dropped (up to `discardBytes`, 1 MiB
 * for a retryable refusal, within the same timeout) before the answer, so a client still uploading gets
 * the answer rather than EPIPE or ECONNRESET from a connection closed under it.
 *
 * With `tls` it is an HTTPS server (with `tls.clientCaFile`, a client without a certificate signed by that
 * CA fails the handshake); changed certificate files go to `setSecureContext`, for new connections.
 */
import { closeGracefully } from '../otlp/close-gracefully.js';
import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { DecodeError, errorMessage } from '../../errors.js';
import type { ComponentSettings } from '../../component.js';
import { ThrottledLog } from '../../telemetry/log.js';
import type { IngestOutcome, OtlpIngest, OtlpSignal } from '../otlp/ingest.js';
import { tokenAccepts, type TokenCheck } from '../otlp/bearer-auth.js';
import { ADMIT_MIN_BYTES, BUDGET_RETRY_AFTER_MS, InFlightBudget, listensBeyondLoopback, receiverOf, type BudgetReservation, type OtlpReceiver } from '../otlp/receiver.js';
import { encodeExportResponse, encodeStatus, RpcCode, type OtlpEncoding } from '../otlp/responses.js';
import { BodyError, contentEncodingOf, declaredLength, discardBody, readBody } from './body.js';
import { component, remainingMs } from '../../component.js';
import type { TlsServerConfig } from '../../config/sections/tls.js';
import { TlsReloader } from '../../tls/reloader.js';

export interface OtlpHttpReceiverOptions {
  host: string;
  /** 0 picks a free port (see `start()`). */
  port: number;
  /** Body limit after decompression; larger bodies get 413. */
  maxBodyBytes: number;
  /** When set, requests must carry `Authorization: Bearer <token>` (401 otherwise). */
  bearerToken?: string | TokenCheck;
  /** Decodes, logs (write-ahead) and offers request bodies. */
  ingest: OtlpIngest;
  settings: ComponentSettings;
  /** `/readyz` answers 200 only while this returns true (and the receiver is not shutting down). */
  isReady: () => boolean;
  /** How long `shutdown()` waits for in-flight requests before closing connections; default 5000. */
  shutdownGraceMs?: number;
  /** Request bytes held at once, shared with the gRPC receiver (`sources.otlp.maxInFlightBytes`); default: one of its own, 64 MiB or `maxBodyBytes` if larger. */
  budget?: InFlightBudget;
  /** From the request's headers to the last byte of its body (`sources.otlp.http.bodyTimeoutMs`); default 10000. */
  bodyTimeoutMs?: number;
  /** Idle keep-alive connections are closed after this long (`sources.otlp.http.keepAliveTimeoutMs`); default 65000. */
  keepAliveTimeoutMs?: number;
  /** After a refusal, at most this many bytes are read and dropped waiting for the client to finish; default 4 × `maxBodyBytes`. */
  discardBytes?: number;
  /** TLS (`sources.otlp.http.tls`); absent: plaintext. Its files are read by `start()`, which fails naming a file it cannot use. */
  tls?: TlsServerConfig | undefined;
}

const CONTENT_TYPES: Record<OtlpEncoding, string> = { json: 'application/json', protobuf: 'application/x-protobuf' };
const DEFAULT_BUDGET_BYTES = 64 * 1024 * 1024;
const HEADERS_TIMEOUT_MS = 15_000;
/** google.rpc.Code DEADLINE_EXCEEDED (the body came too slowly). */
const DEADLINE_EXCEEDED = 4;

/**
 * After a retryable refusal (429, 503) at most this much of the body is read and dropped before the answer:
 * a client cut off gets a connection reset instead, which OTLP clients retry as well, and a flood of large
 * refused uploads costs little. Refusals a client must see to stop retrying (401, 413, 415) read up to
 * `discardBytes`.
 */
const RETRYABLE_DISCARD_BYTES = 1024 * 1024;

/** One answer: status, `google.rpc.Status` code and message, extra headers. */
interface Refusal {
  status: number;
  code: number;
  message: string;
  headers?: Record<string, string>;
  /** Close the connection after the answer even when the body was read to its end (413). */
  close?: boolean;
}

/** Creates the OTLP/HTTP receiver; nothing listens until `start()`. */
export function createOtlpHttpReceiver(options: OtlpHttpReceiverOptions): OtlpReceiver {
  const log = options.settings.logger.child({ component: 'otlp-http' });
  const badRequests = new ThrottledLog(log, 'rejected malformed OTLP/HTTP requests');
  const refusedRequests = new ThrottledLog(log, 'refused OTLP/HTTP requests (in-flight budget, buffers full, body timeout or write-ahead log)');
  const refusedHandshakes = new ThrottledLog(log, 'refused TLS handshakes on OTLP/HTTP (no or untrusted client certificate, plaintext, or no common protocol version)');
  /** Log a refused request (throttled, with the count) with its status, the reason the client was given and its address. */
  const rejected = (which: ThrottledLog, req: IncomingMessage, status: number, reason: string): void =>
    which.hit(1, { status, reason: reason.slice(0, 200), client: clientOf(req) });
  const budget = options.budget ?? new InFlightBudget(Math.max(DEFAULT_BUDGET_BYTES, options.maxBodyBytes));
  const bodyTimeoutMs = options.bodyTimeoutMs ?? 10_000;
  const discardBytes = options.discardBytes ?? 4 * options.maxBodyBytes;
  let server: Server | HttpsServer | undefined;
  let tls: TlsReloader | undefined;
  let boundPort = options.port;
  let shuttingDown = false;

  function send(res: ServerResponse, status: number, encoding: OtlpEncoding, body: Buffer, headers: Record<string, string> = {}): void {
    if (res.headersSent || res.destroyed) return;
    res.writeHead(status, { 'content-type': CONTENT_TYPES[encoding], 'content-length': String(body.length), ...headers });
    res.end(body);
  }

  function fail(res: ServerResponse, encoding: OtlpEncoding, r: Refusal, close = false): void {
    send(res, r.status, encoding, encodeStatus(encoding, r.code, r.message), { ...(r.headers ?? {}), ...(close || r.close ? { connection: 'close' } : {}) });
  }

  function retryable(status: 429 | 503, message: string, retryAfterMs: number): Refusal {
    const retryAfter = String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
    return { status, code: status === 503 ? RpcCode.UNAVAILABLE : RpcCode.RESOURCE_EXHAUSTED, message: `${message}; retry after ${retryAfter}s`, headers: { 'retry-after': retryAfter } };
  }

  function sinkRefusal(reason: 'buffer_full' | 'shutting_down', retryAfterMs: number): Refusal {
    return reason === 'shutting_down' ? retryable(503, 'shutting down', retryAfterMs) : retryable(429, 'buffers are full', retryAfterMs);
  }

  function answer(res: ServerResponse, signal: OtlpSignal, encoding: OtlpEncoding, outcome: IngestOutcome): void {
    if (outcome.kind === 'wal_failed') {
      fail(res, encoding, { status: 503, code: RpcCode.UNAVAILABLE, message: outcome.message, headers: { 'retry-after': '1' } });
      return;
    }
    if (outcome.kind === 'accepted') {
      send(res, 200, encoding, encodeExportResponse(signal, encoding, outcome.rejected, outcome.message));
      return;
    }
    fail(res, encoding, sinkRefusal(outcome.reason, outcome.retryAfterMs));
  }

  /**
   * Refuse without holding the body: read the rest of it and drop it (up to `discardBytes`, within the body
   * timer), then answer. When the client has sent everything the connection stays usable (or is closed
   * after the answer, for `close`); when it sends more than that or too slowly, the answer goes out with
   * `Connection: close` and the connection is closed after it.
   */
  async function refuse(req: IncomingMessage, res: ServerResponse, encoding: OtlpEncoding, timer: BodyTimer, r: Refusal): Promise<void> {
    const declared = declaredLength(req);
    const limit = r.status === 429 || r.status === 503 ? Math.min(discardBytes, RETRYABLE_DISCARD_BYTES) : discardBytes;
    // A body that will not end within the bound is not read at all: answer and close at once.
    const outcome = declared !== undefined && declared > limit ? 'limit' : await discardBody(req, limit, timer.signal);
    timer.clear();
    if (outcome === 'aborted') return;
    fail(res, encoding, r, outcome !== 'ended');
  }

  async function handleExport(req: IncomingMessage, res: ServerResponse, signal: OtlpSignal): Promise<void> {
    const timer = new BodyTimer(bodyTimeoutMs);
    const reservation = budget.open();
    try {
      await exchange(req, res, signal, timer, reservation);
    } finally {
      timer.clear();
      reservation.release();
    }
  }

  async function exchange(req: IncomingMessage, res: ServerResponse, signal: OtlpSignal, timer: BodyTimer, reservation: BudgetReservation): Promise<void> {
    const mediaType = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    const encoding: OtlpEncoding | undefined = mediaType === 'application/json' ? 'json' : mediaType === 'application/x-protobuf' ? 'protobuf' : undefined;
    // The token first (401 before 415), from the headers alone: nothing of the body is read before it.
    if (!tokenAccepts(options.bearerToken, req.headers.authorization)) {
      rejected(badRequests, req, 401, 'missing or invalid bearer token');
      await refuse(req, res, encoding ?? 'json', timer, { status: 401, code: RpcCode.UNAUTHENTICATED, message: 'missing or invalid bearer token', headers: { 'www-authenticate': 'Bearer' } });
      return;
    }
    if (encoding === undefined) {
      rejected(badRequests, req, 415, `unsupported Content-Type ${JSON.stringify(mediaType.slice(0, 60))}`);
      await refuse(req, res, 'json', timer, {
        status: 415,
        code: RpcCode.INVALID_ARGUMENT,
        message: `unsupported Content-Type ${JSON.stringify(mediaType.slice(0, 60))}; use application/x-protobuf or application/json`,
      });
      return;
    }
    if (shuttingDown) {
      await refuse(req, res, encoding, timer, sinkRefusal('shutting_down', 1000));
      return;
    }
    // Saturated: answer before reading and decoding the body, so overload costs as little as possible.
    const pressure = options.ingest.pressure(signal);
    if (pressure) {
      const refusal = sinkRefusal(pressure.reason, pressure.retryAfterMs);
      rejected(refusedRequests, req, refusal.status, refusal.message);
      await refuse(req, res, encoding, timer, refusal);
      return;
    }
    let body: Buffer;
    try {
      // Refused before reading when it cannot fit now: its declared length, or (gzip or chunked) a first window.
      // (A declared length over the limit is left to readBody: 413 whatever the budget.)
      const declared = declaredLength(req);
      const identity = contentEncodingOf(req) === 'identity';
      const tooLarge = identity && declared !== undefined && declared > options.maxBodyBytes;
      const needs = identity && declared !== undefined ? declared : ADMIT_MIN_BYTES;
      if (!tooLarge && needs > budget.available()) throw new BodyError('over_budget', 'request bodies in flight are at sources.otlp.maxInFlightBytes');
      body = await readBody(req, { maxBytes: options.maxBodyBytes, reservation, signal: timer.signal });
      timer.clear();
    } catch (err) {
      if (!(err instanceof BodyError)) throw err;
      reservation.release();
      await bodyFailed(req, res, encoding, timer, err);
      return;
    }
    let outcome: IngestOutcome;
    try {
      outcome = await options.ingest.accept(signal, encoding, body);
    } catch (err) {
      if (!(err instanceof DecodeError)) throw err;
      fail(res, encoding, { status: 400, code: RpcCode.INVALID_ARGUMENT, message: err.message });
      rejected(badRequests, req, 400, err.message);
      return;
    }
    if (outcome.kind === 'refused') rejected(refusedRequests, req, outcome.reason === 'shutting_down' ? 503 : 429, outcome.reason === 'shutting_down' ? 'shutting down' : 'buffers are full');
    if (outcome.kind === 'wal_failed') rejected(refusedRequests, req, 503, outcome.message);
    answer(res, signal, encoding, outcome);
  }

  async function bodyFailed(req: IncomingMessage, res: ServerResponse, encoding: OtlpEncoding, timer: BodyTimer, err: BodyError): Promise<void> {
    switch (err.kind) {
      case 'aborted':
        return;
      case 'timeout':
        rejected(refusedRequests, req, 408, err.message);
        fail(res, encoding, { status: 408, code: DEADLINE_EXCEEDED, message: `${err.message} (sources.otlp.http.bodyTimeoutMs: ${bodyTimeoutMs})` }, true);
        return;
      case 'over_budget':
        rejected(refusedRequests, req, 429, err.message);
        await refuse(req, res, encoding, timer, retryable(429, err.message, BUDGET_RETRY_AFTER_MS));
        return;
      case 'too_large':
        rejected(badRequests, req, 413, err.message);
        await refuse(req, res, encoding, timer, { status: 413, code: RpcCode.INVALID_ARGUMENT, message: err.message, close: true });
        return;
      case 'unsupported_encoding':
        rejected(badRequests, req, 415, err.message);
        await refuse(req, res, encoding, timer, { status: 415, code: RpcCode.INVALID_ARGUMENT, message: err.message });
        return;
      case 'bad_encoding':
        rejected(badRequests, req, 400, err.message);
        await refuse(req, res, encoding, timer, { status: 400, code: RpcCode.INVALID_ARGUMENT, message: err.message });
        return;
    }
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
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain', connection: 'close' }).end('internal error\n');
      else res.destroy();
    });
  }

  const lifecycle = component('otlp-http', {
    start() {
      const httpOptions: ServerOptions = {
        // Backstops behind the receiver's own body timer; checked every second, not every 30 s.
        headersTimeout: HEADERS_TIMEOUT_MS,
        requestTimeout: HEADERS_TIMEOUT_MS + bodyTimeoutMs + 5000,
        connectionsCheckingInterval: 1000,
        keepAliveTimeout: options.keepAliveTimeoutMs ?? 65_000,
      };
      let s: Server | HttpsServer;
      if (options.tls) {
        const reloader = new TlsReloader(options.tls, 'sources.otlp.http.tls', log);
        const https = createHttpsServer({ ...httpOptions, ...reloader.options }, onRequest);
        reloader.onReload((next) => https.setSecureContext(next));
        reloader.start();
        https.on('tlsClientError', (err, socket) => refusedHandshakes.hit(1, { reason: err.message.slice(0, 200), client: socket.remoteAddress }));
        tls = reloader;
        s = https;
      } else {
        s = createServer(httpOptions, onRequest);
        if (options.bearerToken !== undefined && listensBeyondLoopback(options.host)) {
          log.warn({ host: options.host }, 'sources.otlp.auth.bearerToken crosses the network in clear: set sources.otlp.http.tls');
        }
      }
      s.on('clientError', onClientError);
      server = s;
      return new Promise<void>((resolve, reject) => {
        s.once('error', (err) => {
          tls?.stop();
          reject(new Error(`sources.otlp.http: cannot listen on ${options.host}:${options.port}: ${errorMessage(err)}`, { cause: err }));
        });
        s.listen({ port: options.port, host: options.host, backlog: 4096 }, () => {
          s.removeAllListeners('error');
          s.on('error', (err) => log.error({ err: errorMessage(err) }, 'OTLP/HTTP server error'));
          boundPort = (s.address() as AddressInfo).port;
          log.info({ host: options.host, port: boundPort, tls: tls ? (tls.options.requestCert ? 'mtls' : 'tls') : 'off' }, 'OTLP/HTTP receiver listening');
          resolve();
        });
      });
    },
    async shutdown(deadline) {
      shuttingDown = true;
      tls?.stop();
      // The counts still pending in the throttled lines are written, not lost with the process.
      const flushLogs = (): void => {
        for (const l of [badRequests, refusedRequests, refusedHandshakes]) l.flush();
      };
      const s = server;
      if (!s?.listening) return flushLogs();
      await closeGracefully(
        (done) => {
          s.close(() => done());
          s.closeIdleConnections();
        },
        () => s.closeAllConnections(),
        Math.min(options.shutdownGraceMs ?? 5000, remainingMs(deadline)),
      );
      flushLogs();
      log.info({ port: boundPort }, 'OTLP/HTTP receiver stopped');
    },
  });
  return receiverOf(lifecycle, () => boundPort);
}

/** The client's address for a log line: `10.0.0.7` (IPv4-mapped IPv6 shown as IPv4). */
function clientOf(req: IncomingMessage): string | undefined {
  const a = req.socket.remoteAddress;
  return a?.startsWith('::ffff:') ? a.slice(7) : a;
}

/** A request that cannot be parsed (or whose headers come too slowly): a plain answer, then the connection closes. */
function onClientError(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : '400 Bad Request';
  socket.end(`HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
}

/** The per-request body timer: its signal aborts the body read or discard when the body is late. */
class BodyTimer {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;

  constructor(ms: number) {
    this.timer = setTimeout(() => this.controller.abort(), ms);
    this.timer.unref();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
