/**
 * OTLP/gRPC receiver (@grpc/grpc-js): TraceService/Export and LogsService/Export, (de)serialised with the
 * project's protobuf descriptor and decoders (no proto-loader). Codes follow the OTLP specification:
 * INVALID_ARGUMENT for malformed data, UNAUTHENTICATED for a bad bearer token, RESOURCE_EXHAUSTED with a
 * google.rpc.RetryInfo detail (grpc-status-details-bin) when the sink or the in-flight budget refuses,
 * UNAVAILABLE while shutting down, DEADLINE_EXCEEDED for a request message that does not arrive within
 * `messageTimeoutMs`, OK with partial_success when some items were rejected. Messages over
 * `maxMessageBytes` (after decompression; grpc-js ≥ 1.10.9 enforces this) get RESOURCE_EXHAUSTED from
 * grpc-js itself.
 *
 * Memory against hostile clients is bounded by an admission interceptor (see {@link admission}): the token,
 * the sink's pressure and the room left in the budget are checked from the call's headers before grpc-js
 * reads a byte of the message;
 * every byte received is reserved in the in-flight budget shared with the HTTP receiver; a message must
 * arrive within `messageTimeoutMs`; and each connection may hold `maxConcurrentStreams` calls.
 *
 * With `tls` the receiver speaks TLS (and, with `tls.clientCaFile`, refuses clients without a certificate
 * signed by that CA); changed certificate files are served to new connections (see tls-credentials.ts).
 */
import { closeGracefully } from '../otlp/close-gracefully.js';
import * as grpc from '@grpc/grpc-js';
import { constants as http2Constants, type ServerHttp2Stream } from 'node:http2';
import { component, remainingMs, type ComponentSettings } from '../../component.js';
import { DecodeError, errorMessage } from '../../errors.js';
import { ThrottledLog } from '../../telemetry/log.js';
import { otlp } from '../../otlp/descriptor.js';
import type { IngestOutcome, OtlpIngest } from '../otlp/ingest.js';
import { tokenAccepts, type TokenCheck } from '../otlp/bearer-auth.js';
import { ADMIT_MIN_BYTES, BUDGET_RETRY_AFTER_MS, InFlightBudget, listensBeyondLoopback, receiverOf, type BudgetReservation, type OtlpReceiver } from '../otlp/receiver.js';
import { encodeStatusWithRetryInfo, RpcCode } from '../otlp/responses.js';
import type { TlsServerConfig } from '../../config/sections/tls.js';
import { TlsReloader } from '../../tls/reloader.js';
import { reloadingServerCredentials } from './tls-credentials.js';

export interface OtlpGrpcReceiverOptions {
  host: string;
  /** 0 picks a free port (see `start()`). */
  port: number;
  /** grpc.max_receive_message_length: the largest (decompressed) request accepted. */
  maxMessageBytes: number;
  /** When set, calls must carry metadata `authorization: Bearer <token>` (UNAUTHENTICATED otherwise). */
  bearerToken?: string | TokenCheck;
  /** Decodes, logs (write-ahead) and offers request messages. */
  ingest: OtlpIngest;
  settings: ComponentSettings;
  /** How long `shutdown()` waits for in-flight calls before forcing; default 5000. */
  shutdownGraceMs?: number;
  /** Request bytes held at once, shared with the HTTP receiver (`sources.otlp.maxInFlightBytes`); default: one of its own, 64 MiB or `maxMessageBytes` if larger. */
  budget?: InFlightBudget;
  /** HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS (`sources.otlp.grpc.maxConcurrentStreams`); default 100. */
  maxConcurrentStreams?: number;
  /** From a call's headers to the end of its request message (`sources.otlp.grpc.messageTimeoutMs`); default 10000. */
  messageTimeoutMs?: number;
  /** grpc.keepalive_time_ms; default 60000. */
  keepaliveTimeMs?: number;
  /** grpc.keepalive_timeout_ms; default 20000. */
  keepaliveTimeoutMs?: number;
  /** grpc.max_connection_idle_ms; default 300000. */
  maxConnectionIdleMs?: number;
  /** grpc.max_connection_age_ms, 0 for none (the default); its grace is `messageTimeoutMs`. */
  maxConnectionAgeMs?: number;
  /** TLS (`sources.otlp.grpc.tls`); absent: plaintext. Its files are read by `start()`, which fails naming a file it cannot use. */
  tls?: TlsServerConfig | undefined;
}

/** The response object handed to the serializer: encoded with the descriptor. */
interface ExportResponse {
  rejected: number;
  message: string;
}

const identity = (b: Buffer): Buffer => b;
const DEFAULT_BUDGET_BYTES = 64 * 1024 * 1024;
/** The gRPC length-prefixed message header: a compressed flag and a 4-byte length. */
const FRAME_HEADER_BYTES = 5;

function serviceDefinition(path: string, responseType: 'traces' | 'logs'): grpc.ServiceDefinition {
  const type = responseType === 'traces' ? otlp().types.ExportTraceServiceResponse : otlp().types.ExportLogsServiceResponse;
  const countField = responseType === 'traces' ? 'rejectedSpans' : 'rejectedLogRecords';
  const serialize = (r: ExportResponse): Buffer => {
    const obj = r.rejected > 0 || r.message ? { partialSuccess: { [countField]: r.rejected, errorMessage: r.message } } : {};
    return Buffer.from(type.encode(type.fromObject(obj)).finish());
  };
  const method: grpc.MethodDefinition<Buffer, ExportResponse> = {
    path,
    requestStream: false,
    responseStream: false,
    // Requests stay bytes here and are decoded in the handler, so malformed data maps to INVALID_ARGUMENT.
    requestSerialize: identity,
    requestDeserialize: identity,
    responseSerialize: serialize,
    responseDeserialize: () => ({ rejected: 0, message: '' }),
  };
  return { Export: method };
}

/**
 * The HTTP/2 stream under a call, when grpc-js lets us reach it. grpc-js (1.14) gives server interceptors
 * no view of the bytes of a message as they arrive: a message reaches them only whole, after it was
 * buffered and decompressed. The first interceptor of the chain receives the `BaseServerInterceptingCall`,
 * which keeps its `http2.ServerHttp2Stream` in a field that is private to TypeScript only; with it the
 * receiver counts every DATA byte against the budget before grpc-js buffers it, and closes a refused
 * stream (RST_STREAM NO_ERROR after the status, RFC 9113 §8.1) so grpc-js drops its partial message. If a
 * later grpc-js hides the field, this returns undefined and memory is bounded less tightly: a message is
 * counted when it is complete, and partly received messages only by `messageTimeoutMs` (the call is then
 * cancelled) and `maxConcurrentStreams` per connection.
 */
function http2StreamOf(call: grpc.ServerInterceptingCallInterface): ServerHttp2Stream | undefined {
  const stream = (call as unknown as { stream?: unknown }).stream;
  if (typeof stream !== 'object' || stream === null) return undefined;
  const s = stream as Partial<ServerHttp2Stream>;
  return typeof s.prependListener === 'function' && typeof s.close === 'function' && typeof s.once === 'function' && 'rstCode' in s ? (stream as ServerHttp2Stream) : undefined;
}

/**
 * Counts the bytes of a call's length-prefixed messages as DATA frames arrive: `onChunk` returns the bytes
 * to reserve for the chunk, including, when it completes a compressed message, room for grpc-js to
 * inflate it (up to `maxMessageBytes`, the most grpc-js lets it grow).
 */
class FrameCounter {
  private header = Buffer.alloc(FRAME_HEADER_BYTES);
  private headerFill = 0;
  private remaining = 0;
  private compressed = false;
  received = 0;

  constructor(private readonly maxMessageBytes: number) {}

  /** Bytes to reserve for this chunk. */
  onChunk(chunk: Buffer): number {
    let extra = 0;
    let at = 0;
    while (at < chunk.length) {
      if (this.remaining === 0 && this.headerFill < FRAME_HEADER_BYTES) {
        const n = Math.min(FRAME_HEADER_BYTES - this.headerFill, chunk.length - at);
        chunk.copy(this.header, this.headerFill, at, at + n);
        this.headerFill += n;
        at += n;
        if (this.headerFill === FRAME_HEADER_BYTES) {
          this.compressed = this.header[0] === 1;
          this.remaining = this.header.readUInt32BE(1);
          if (this.remaining === 0) this.headerFill = 0;
        }
        continue;
      }
      const n = Math.min(this.remaining, chunk.length - at);
      this.remaining -= n;
      at += n;
      if (this.remaining === 0) {
        this.headerFill = 0;
        if (this.compressed) extra += this.maxMessageBytes;
      }
    }
    this.received += chunk.length;
    return chunk.length + extra;
  }
}

/** Creates the OTLP/gRPC receiver; nothing listens until `start()`. */
export function createOtlpGrpcReceiver(options: OtlpGrpcReceiverOptions): OtlpReceiver {
  const log = options.settings.logger.child({ component: 'otlp-grpc' });
  const badRequests = new ThrottledLog(log, 'rejected malformed OTLP/gRPC requests');
  const refusedCalls = new ThrottledLog(log, 'refused OTLP/gRPC calls (in-flight budget, buffers full or message timeout)');
  const budget = options.budget ?? new InFlightBudget(Math.max(DEFAULT_BUDGET_BYTES, options.maxMessageBytes));
  const messageTimeoutMs = options.messageTimeoutMs ?? 10_000;
  let server: grpc.Server | undefined;
  let boundPort = options.port;
  let shuttingDown = false;

  function answer(outcome: IngestOutcome, callback: grpc.sendUnaryData<ExportResponse>): void {
    if (outcome.kind === 'wal_failed') callback({ code: grpc.status.UNAVAILABLE, details: outcome.message });
    else if (outcome.kind === 'refused') callback(refusal(outcome));
    else callback(null, { rejected: outcome.rejected, message: outcome.message });
  }

  function refusal(outcome: Extract<IngestOutcome, { kind: 'refused' }>): grpc.StatusObject {
    const code = outcome.reason === 'shutting_down' ? grpc.status.UNAVAILABLE : grpc.status.RESOURCE_EXHAUSTED;
    const rpcCode = outcome.reason === 'shutting_down' ? RpcCode.UNAVAILABLE : RpcCode.RESOURCE_EXHAUSTED;
    const details = `${outcome.reason === 'shutting_down' ? 'shutting down' : 'buffers are full'}; retry after ${outcome.retryAfterMs}ms`;
    return withRetryInfo(code, rpcCode, details, outcome.retryAfterMs);
  }

  function withRetryInfo(code: grpc.status, rpcCode: number, details: string, retryAfterMs: number): grpc.StatusObject {
    const metadata = new grpc.Metadata();
    metadata.set('grpc-status-details-bin', encodeStatusWithRetryInfo(rpcCode, details, retryAfterMs));
    return { code, details, metadata };
  }

  /**
   * The admission interceptor. grpc-js calls its `onReceiveMetadata` with the call's headers and starts
   * reading the request only when the listener passes them on (the unary handler's `startRead`), so a call
   * with a bad token, or arriving while the sink is saturated or the service stopping, is answered before
   * any byte of its message is read. Admitted calls reserve their bytes as they arrive, must complete their
   * message within `messageTimeoutMs`, and give their reservation back when they end.
   */
  function admission(): grpc.ServerInterceptor {
    return (_method, call) => {
      const stream = http2StreamOf(call);
      let reservation: BudgetReservation | undefined;
      let timer: NodeJS.Timeout | undefined;
      let ended = false;
      const counter = new FrameCounter(options.maxMessageBytes);

      const release = (): void => {
        if (timer) clearTimeout(timer);
        timer = undefined;
        reservation?.release();
      };
      // End the call from here (the handler never saw it): the status, then the stream closed so grpc-js lets go of what it holds.
      const end = (status: grpc.StatusObject): void => {
        if (ended) return;
        ended = true;
        release();
        call.sendStatus(status);
        if (stream && !stream.closed && !stream.destroyed) stream.close(http2Constants.NGHTTP2_NO_ERROR);
      };
      const overBudget = (): void => {
        refusedCalls.hit(1, { code: 'RESOURCE_EXHAUSTED', reason: 'request messages in flight are at sources.otlp.maxInFlightBytes', client: peerOf(call) });
        end(withRetryInfo(grpc.status.RESOURCE_EXHAUSTED, RpcCode.RESOURCE_EXHAUSTED, `request messages in flight are at sources.otlp.maxInFlightBytes; retry after ${BUDGET_RETRY_AFTER_MS}ms`, BUDGET_RETRY_AFTER_MS));
      };
      const onData = (chunk: Buffer): void => {
        if (ended || !reservation) return;
        if (!reservation.grow(counter.onChunk(chunk))) overBudget();
      };

      return new grpc.ServerInterceptingCall(call, {
        start(next) {
          next({
            onReceiveMetadata(metadata, nextMetadata) {
              if (options.bearerToken !== undefined) {
                const auth = metadata.get('authorization')[0];
                if (!tokenAccepts(options.bearerToken, typeof auth === 'string' ? auth : undefined)) {
                  end({ code: grpc.status.UNAUTHENTICATED, details: 'missing or invalid bearer token', metadata: new grpc.Metadata() });
                  return;
                }
              }
              if (shuttingDown) {
                end(refusal({ kind: 'refused', reason: 'shutting_down', retryAfterMs: 1000 }));
                return;
              }
              const pressure = options.ingest.pressure(signalOf(_method.path));
              if (pressure) {
                end(refusal({ kind: 'refused', reason: pressure.reason, retryAfterMs: pressure.retryAfterMs }));
                return;
              }
              // The budget nearly spent: refused before a byte of the message is read.
              if (budget.available() < ADMIT_MIN_BYTES) {
                overBudget();
                return;
              }
              reservation = budget.open();
              timer = setTimeout(() => {
                refusedCalls.hit(1, { code: 'DEADLINE_EXCEEDED', reason: `request message not received within ${messageTimeoutMs}ms (sources.otlp.grpc.messageTimeoutMs)`, client: peerOf(call) });
                end({ code: grpc.status.DEADLINE_EXCEEDED, details: `request message not received within ${messageTimeoutMs}ms (sources.otlp.grpc.messageTimeoutMs)`, metadata: new grpc.Metadata() });
              }, messageTimeoutMs);
              timer.unref();
              if (stream) {
                // Before grpc-js's own listener, so a refused chunk is never buffered or inflated.
                stream.prependListener('data', onData);
                stream.once('close', release);
              }
              nextMetadata(metadata);
            },
            onReceiveMessage(message: Buffer, nextMessage) {
              if (timer) clearTimeout(timer);
              timer = undefined;
              if (ended || !reservation) return;
              // What is held from now on: the message (inflated, when it was compressed) and the bytes received.
              const held = stream ? counter.received + (message.length > counter.received ? message.length : 0) : message.length;
              if (!reservation.resize(held)) {
                overBudget();
                return;
              }
              nextMessage(message);
            },
          });
        },
        sendStatus(status, next) {
          release();
          next(status);
        },
      });
    };
  }

  function handler(signal: 'traces' | 'logs'): grpc.handleUnaryCall<Buffer, ExportResponse> {
    return (call, callback) => {
      try {
        if (shuttingDown) {
          callback(refusal({ kind: 'refused', reason: 'shutting_down', retryAfterMs: 1000 }));
          return;
        }
        const pressure = options.ingest.pressure(signal);
        if (pressure) {
          refusedCalls.hit(1, { code: 'RESOURCE_EXHAUSTED', reason: pressure.reason, client: peerOf(call) });
          callback(refusal({ kind: 'refused', reason: pressure.reason, retryAfterMs: pressure.retryAfterMs }));
          return;
        }
        options.ingest.accept(signal, 'protobuf', call.request).then(
          (outcome) => {
            if (outcome.kind === 'refused') refusedCalls.hit(1, { code: outcome.reason === 'shutting_down' ? 'UNAVAILABLE' : 'RESOURCE_EXHAUSTED', reason: outcome.reason, client: peerOf(call) });
            if (outcome.kind === 'wal_failed') refusedCalls.hit(1, { code: 'UNAVAILABLE', reason: outcome.message.slice(0, 200), client: peerOf(call) });
            answer(outcome, callback);
          },
          (err: unknown) => {
            if (err instanceof DecodeError) {
              badRequests.hit(1, { code: 'INVALID_ARGUMENT', reason: err.message.slice(0, 200), client: peerOf(call) });
              callback({ code: grpc.status.INVALID_ARGUMENT, details: err.message });
              return;
            }
            log.error({ err: errorMessage(err) }, 'OTLP/gRPC call failed');
            callback({ code: grpc.status.INTERNAL, details: 'internal error' });
          },
        );
      } catch (err) {
        log.error({ err: errorMessage(err) }, 'OTLP/gRPC call failed');
        callback({ code: grpc.status.INTERNAL, details: 'internal error' });
      }
    };
  }

  let tls: TlsReloader | undefined;

  const lifecycle = component('otlp-grpc', {
    start() {
      if (options.tls) {
        tls = new TlsReloader(options.tls, 'sources.otlp.grpc.tls', log);
        tls.start();
      } else if (options.bearerToken !== undefined && listensBeyondLoopback(options.host)) {
        log.warn({ host: options.host }, 'sources.otlp.auth.bearerToken crosses the network in clear: set sources.otlp.grpc.tls');
      }
      const credentials = tls ? reloadingServerCredentials(tls) : grpc.ServerCredentials.createInsecure();
      const maxAge = options.maxConnectionAgeMs ?? 0;
      const s = new grpc.Server({
        'grpc.max_receive_message_length': options.maxMessageBytes,
        'grpc.max_send_message_length': 4 * 1024 * 1024,
        'grpc.max_concurrent_streams': options.maxConcurrentStreams ?? 100,
        'grpc.keepalive_time_ms': options.keepaliveTimeMs ?? 60_000,
        'grpc.keepalive_timeout_ms': options.keepaliveTimeoutMs ?? 20_000,
        'grpc.max_connection_idle_ms': options.maxConnectionIdleMs ?? 300_000,
        ...(maxAge > 0 ? { 'grpc.max_connection_age_ms': maxAge, 'grpc.max_connection_age_grace_ms': messageTimeoutMs } : {}),
        interceptors: [admission()],
      });
      s.addService(serviceDefinition('/opentelemetry.proto.collector.trace.v1.TraceService/Export', 'traces'), { Export: handler('traces') });
      s.addService(serviceDefinition('/opentelemetry.proto.collector.logs.v1.LogsService/Export', 'logs'), { Export: handler('logs') });
      server = s;
      return new Promise<void>((resolve, reject) => {
        s.bindAsync(`${options.host.includes(':') ? `[${options.host}]` : options.host}:${options.port}`, credentials, (err, port) => {
          if (err) {
            server = undefined;
            tls?.stop();
            reject(new Error(`sources.otlp.grpc: cannot listen on ${options.host}:${options.port}: ${errorMessage(err)}`, { cause: err }));
            return;
          }
          boundPort = port;
          log.info({ host: options.host, port, tls: tls ? (tls.options.requestCert ? 'mtls' : 'tls') : 'off' }, 'OTLP/gRPC receiver listening');
          resolve();
        });
      });
    },
    async shutdown(deadline) {
      shuttingDown = true;
      tls?.stop();
      // The counts still pending in the throttled lines are written, not lost with the process.
      const flushLogs = (): void => {
        badRequests.flush();
        refusedCalls.flush();
      };
      const s = server;
      if (!s) return flushLogs();
      await closeGracefully((done) => s.tryShutdown(() => done()), () => s.forceShutdown(), Math.min(options.shutdownGraceMs ?? 5000, remainingMs(deadline)));
      flushLogs();
      log.info({ port: boundPort }, 'OTLP/gRPC receiver stopped');
    },
  });
  return receiverOf(lifecycle, () => boundPort);
}

/** The OTLP signal of a method path. */
function signalOf(path: string): 'traces' | 'logs' {
  return path.includes('.logs.') ? 'logs' : 'traces';
}

/** The caller's address for a log line (`ipv4:10.0.0.7:51234` → `10.0.0.7:51234`); undefined when grpc-js has none. */
function peerOf(call: { getPeer?: () => string }): string | undefined {
  try {
    return call.getPeer?.().replace(/^ipv[46]:/, '');
  } catch {
    return undefined;
  }
}
