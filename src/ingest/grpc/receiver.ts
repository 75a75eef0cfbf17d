/**
 * OTLP/gRPC receiver (@grpc/grpc-js): TraceService/Export and LogsService/Export, (de)serialised with the
 * project's protobuf descriptor and decoders (no proto-loader). Codes follow the OTLP specification:
 * INVALID_ARGUMENT for malformed data, UNAUTHENTICATED for a bad bearer token, RESOURCE_EXHAUSTED with a
 * google.rpc.RetryInfo detail (grpc-status-details-bin) when the sink refuses, UNAVAILABLE while shutting
 * down, OK with partial_success when some items were rejected. Messages over `maxMessageBytes` (after
 * decompression; grpc-js ≥ 1.10.9 enforces this) get RESOURCE_EXHAUSTED from grpc-js itself.
 */
import { closeGracefully } from '../otlp/close-gracefully.js';
import * as grpc from '@grpc/grpc-js';
import { component, remainingMs, type ComponentSettings } from '../../component.js';
import { DecodeError, errorMessage } from '../../errors.js';
import { ThrottledLog } from '../../telemetry/log.js';
import { otlp } from '../../otlp/descriptor.js';
import type { IngestOutcome, OtlpIngest } from '../otlp/ingest.js';
import { bearerMatches, receiverOf, type OtlpReceiver } from '../otlp/receiver.js';
import { encodeStatusWithRetryInfo, RpcCode } from '../otlp/responses.js';

export interface OtlpGrpcReceiverOptions {
  host: string;
  /** 0 picks a free port (see `start()`). */
  port: number;
  /** grpc.max_receive_message_length: the largest (decompressed) request accepted. */
  maxMessageBytes: number;
  /** When set, calls must carry metadata `authorization: Bearer <token>` (UNAUTHENTICATED otherwise). */
  bearerToken?: string;
  /** Decodes, logs (write-ahead) and offers request messages. */
  ingest: OtlpIngest;
  settings: ComponentSettings;
  /** How long `shutdown()` waits for in-flight calls before forcing; default 5000. */
  shutdownGraceMs?: number;
}

/** The response object handed to the serializer: encoded with the descriptor. */
interface ExportResponse {
  rejected: number;
  message: string;
}

const identity = (b: Buffer): Buffer => b;

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


/** Creates the OTLP/gRPC receiver; nothing listens until `start()`. */
export function createOtlpGrpcReceiver(options: OtlpGrpcReceiverOptions): OtlpReceiver {
  const log = options.settings.logger.child({ component: 'otlp-grpc' });
  const badRequests = new ThrottledLog(log, 'rejected malformed OTLP/gRPC requests');
  let server: grpc.Server | undefined;
  let boundPort = options.port;
  let shuttingDown = false;

  function answer(outcome: IngestOutcome, callback: grpc.sendUnaryData<ExportResponse>): void {
    if (outcome.kind === 'wal_failed') callback({ code: grpc.status.UNAVAILABLE, details: outcome.message });
    else if (outcome.kind === 'refused') callback(refusal(outcome));
    else callback(null, { rejected: outcome.rejected, message: outcome.message });
  }

  function refusal(outcome: Extract<IngestOutcome, { kind: 'refused' }>): Partial<grpc.StatusObject> {
    const code = outcome.reason === 'shutting_down' ? grpc.status.UNAVAILABLE : grpc.status.RESOURCE_EXHAUSTED;
    const rpcCode = outcome.reason === 'shutting_down' ? RpcCode.UNAVAILABLE : RpcCode.RESOURCE_EXHAUSTED;
    const details = `${outcome.reason === 'shutting_down' ? 'shutting down' : 'buffers are full'}; retry after ${outcome.retryAfterMs}ms`;
    const metadata = new grpc.Metadata();
    metadata.set('grpc-status-details-bin', encodeStatusWithRetryInfo(rpcCode, details, outcome.retryAfterMs));
    return { code, details, metadata };
  }

  function handler(signal: 'traces' | 'logs'): grpc.handleUnaryCall<Buffer, ExportResponse> {
    return (call, callback) => {
      try {
        if (options.bearerToken !== undefined) {
          const auth = call.metadata.get('authorization')[0];
          if (!bearerMatches(typeof auth === 'string' ? auth : undefined, options.bearerToken)) {
            callback({ code: grpc.status.UNAUTHENTICATED, details: 'missing or invalid bearer token' });
            return;
          }
        }
        if (shuttingDown) {
          callback(refusal({ kind: 'refused', reason: 'shutting_down', retryAfterMs: 1000 }));
          return;
        }
        const pressure = options.ingest.pressure(signal);
        if (pressure) {
          callback(refusal({ kind: 'refused', reason: pressure.reason, retryAfterMs: pressure.retryAfterMs }));
          return;
        }
        options.ingest.accept(signal, 'protobuf', call.request).then(
          (outcome) => answer(outcome, callback),
          (err: unknown) => {
            if (err instanceof DecodeError) {
              badRequests.hit();
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

  const lifecycle = component('otlp-grpc', {
    start() {
      const s = new grpc.Server({
        'grpc.max_receive_message_length': options.maxMessageBytes,
        'grpc.max_send_message_length': 4 * 1024 * 1024,
      });
      s.addService(serviceDefinition('/opentelemetry.proto.collector.trace.v1.TraceService/Export', 'traces'), { Export: handler('traces') });
      s.addService(serviceDefinition('/opentelemetry.proto.collector.logs.v1.LogsService/Export', 'logs'), { Export: handler('logs') });
      server = s;
      return new Promise<void>((resolve, reject) => {
        s.bindAsync(`${options.host.includes(':') ? `[${options.host}]` : options.host}:${options.port}`, grpc.ServerCredentials.createInsecure(), (err, port) => {
          if (err) {
            server = undefined;
            reject(new Error(`sources.otlp.grpc: cannot listen on ${options.host}:${options.port}: ${errorMessage(err)}`, { cause: err }));
            return;
          }
          boundPort = port;
          log.info({ host: options.host, port }, 'OTLP/gRPC receiver listening');
          resolve();
        });
      });
    },
    async shutdown(deadline) {
      shuttingDown = true;
      const s = server;
      if (!s) return;
      await closeGracefully((done) => s.tryShutdown(() => done()), () => s.forceShutdown(), Math.min(options.shutdownGraceMs ?? 5000, remainingMs(deadline)));
      log.info({ port: boundPort }, 'OTLP/gRPC receiver stopped');
    },
  });
  return receiverOf(lifecycle, () => boundPort);
}
