/**
 * The long-running service (`tracejudge serve`): the assembler fed by the OTLP receivers, with one
 * pluggable per-trace handler (the coordinator plugs extract → sample → score → emit into it).
 *
 * Lifecycle: `startService` binds every enabled receiver and starts the assembler's tick; `stop()`
 * stops intake first (receivers refuse, then close), then flushes the assembler so every held trace
 * is decided and handled. `stop()` is safe to call twice.
 */
import type { Config } from './config/schema.js';
import { errorMessage } from './errors.js';
import { TraceAssembler, type TraceHandler } from './ingest/assembler.js';
import { createOtlpGrpcReceiver } from './ingest/grpc/receiver.js';
import { createOtlpHttpReceiver } from './ingest/http/receiver.js';
import type { OtlpReceiver } from './ingest/otlp/receiver.js';
import { logger } from './logging.js';

export interface ServiceOptions {
  /** What happens to each assembled trace; defaults to a no-op that only counts. */
  handleTrace?: TraceHandler;
}

export interface RunningService {
  readonly assembler: TraceAssembler;
  /** Bound ports of the started receivers (useful with port 0). */
  readonly ports: { http?: number; grpc?: number };
  /** Stop intake, flush the assembler, wait for every handler. Never rejects. */
  stop(): Promise<void>;
}

const log = logger.child({ component: 'service' });

const noopHandler: TraceHandler = () => Promise.resolve();

export async function startService(config: Config, options: ServiceOptions = {}): Promise<RunningService> {
  const assembler = new TraceAssembler({ config: config.assembly, onTrace: options.handleTrace ?? noopHandler });
  let running = true;
  const isReady = (): boolean => running;
  const receivers: { name: 'http' | 'grpc'; receiver: OtlpReceiver }[] = [];
  const { http, grpc } = config.sources.otlp;
  const bearerToken = config.sources.otlp.auth.bearerToken;
  if (http.enabled) {
    receivers.push({
      name: 'http',
      receiver: createOtlpHttpReceiver({ host: http.host, port: http.port, maxBodyBytes: http.maxBodyBytes, bearerToken, sink: assembler, isReady }),
    });
  }
  if (grpc.enabled) {
    receivers.push({
      name: 'grpc',
      receiver: createOtlpGrpcReceiver({ host: grpc.host, port: grpc.port, maxMessageBytes: grpc.maxMessageBytes, bearerToken, sink: assembler }),
    });
  }

  const ports: { http?: number; grpc?: number } = {};
  try {
    // Each receiver logs its own "listening" line with the bound port.
    for (const { name, receiver } of receivers) ports[name] = await receiver.start();
  } catch (err) {
    await Promise.allSettled(receivers.map((r) => r.receiver.shutdown()));
    throw err;
  }
  assembler.start();
  log.info({ ports, decisionWaitMs: config.assembly.decisionWaitMs, maxBufferedTraces: config.assembly.maxBufferedTraces }, 'tracejudge started');

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      running = false;
      log.info('stopping intake');
      const results = await Promise.allSettled(receivers.map((r) => r.receiver.shutdown()));
      for (const r of results) if (r.status === 'rejected') log.error({ err: errorMessage(r.reason) }, 'receiver shutdown failed');
      log.info({ bufferedTraces: assembler.bufferedTraces }, 'flushing the assembler');
      await assembler.close();
      log.info({ ...assembler.stats }, 'tracejudge stopped');
    })();
    return stopping;
  };
  return { assembler, ports, stop };
}
