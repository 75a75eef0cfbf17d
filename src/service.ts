/**
 * The long-running service (`tracejudge serve`): sources → assembler → pipeline (extract → sample →
 * score) → emitters, plus `/metrics`, `/healthz`, `/readyz` and config hot reload.
 *
 * Lifecycle: `startService` builds every component from the frozen config and binds the sources last.
 * `stop()` stops intake first (OTLP receivers refuse then close, Kafka stops fetching), flushes the
 * assembler so every held trace is decided and scored, flushes the emitters, commits Kafka offsets of
 * what was handled and leaves the group, all bounded by `deadline`. `stop()` is safe to call twice.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from './config/schema.js';
import { createEmitters } from './emit/create-emitters.js';
import type { Emitter } from './model/score-record.js';
import { errorMessage } from './errors.js';
import { TraceAssembler, type TraceHandler } from './ingest/assembler.js';
import { createOtlpGrpcReceiver } from './ingest/grpc/receiver.js';
import { createOtlpHttpReceiver } from './ingest/http/receiver.js';
import { createKafkaSource, type KafkaSource } from './ingest/kafka/source.js';
import type { OtlpReceiver } from './ingest/otlp/receiver.js';
import { replayWal } from './ingest/wal/replay.js';
import { WriteAheadLog } from './ingest/wal/log.js';
import { logger } from './telemetry/log.js';
import { scorersFromConfig } from './pipeline/from-config.js';
import { createPipeline, pipelineOptionsFromConfig, type Pipeline } from './pipeline/pipeline.js';
import { boostSignalScorers } from './sampling/boost-signals.js';
import { PolicyHolder } from './sampling/holder.js';
import { createSamplingPolicy } from './sampling/policy.js';
import { logConfigError, watchConfig, type ConfigWatcher } from './sampling/reload.js';
import { trajectoryFromRun } from './scorers/trajectory/from-trace.js';
import { startMetrics, type MetricsHandle } from './telemetry/metrics.js';

export interface ServiceOptions {
  /** The config file, for hot reload (SIGHUP or a change of the file) and relative scorer modules. */
  configPath?: string;
  /** Replace the scoring pipeline with another per-trace handler (tests). */
  handleTrace?: TraceHandler;
  /** Replace the configured emitters (tests). */
  emitter?: Emitter;
}

export interface RunningService {
  readonly assembler: TraceAssembler;
  readonly pipeline: Pipeline | undefined;
  /** Bound ports of the started listeners (useful with port 0). */
  readonly ports: { http?: number; grpc?: number; metrics?: number };
  readonly policy: PolicyHolder;
  /** Stop intake, flush and commit, within `deadline` (ms since epoch; default now + shutdownTimeoutMs). Never rejects. */
  stop(deadline?: number): Promise<void>;
}

const log = logger.child({ component: 'service' });

export async function startService(config: Config, options: ServiceOptions = {}): Promise<RunningService> {
  let running = false;
  const isReady = (): boolean => running;
  const health = (ok: () => boolean) => (_req: IncomingMessage, res: ServerResponse) => {
    const up = ok();
    res.writeHead(up ? 200 : 503, { 'content-type': 'text/plain' }).end(up ? 'ok\n' : 'not ready\n');
  };
  const metrics: MetricsHandle = await startMetrics(config, { routes: { '/healthz': health(() => true), '/readyz': health(isReady) } });

  const { scorers, kinds, economics, judge } = await scorersFromConfig(config, { configPath: options.configPath });
  const policy = new PolicyHolder(createSamplingPolicy(config.sampling, kinds));
  let signals = boostSignalScorers(config.sampling);
  const emitter = options.emitter ?? createEmitters(config);
  const pipeline = options.handleTrace
    ? undefined
    : createPipeline({
        ...pipelineOptionsFromConfig(config),
        scorers,
        policy: () => policy.current(),
        signalScorers: () => signals,
        emitter,
        source: 'otlp',
        trajectoryOf: (context, traceSpans) => trajectoryFromRun(context, traceSpans),
        ...(economics ? { economics } : {}),
      });
  const handleTrace: TraceHandler = options.handleTrace ?? ((trace) => (pipeline as Pipeline).handleTrace(trace));
  const assembler = new TraceAssembler({ config: config.assembly, onTrace: handleTrace });

  const receivers: { name: 'http' | 'grpc'; receiver: OtlpReceiver }[] = [];
  const { http, grpc } = config.sources.otlp;
  const wal = config.sources.otlp.wal.enabled ? new WriteAheadLog(config.sources.otlp.wal) : undefined;
  const bearerToken = config.sources.otlp.auth.bearerToken;
  if (http.enabled) {
    receivers.push({
      name: 'http',
      receiver: createOtlpHttpReceiver({ host: http.host, port: http.port, maxBodyBytes: http.maxBodyBytes, bearerToken, sink: assembler, isReady, wal }),
    });
  }
  if (grpc.enabled) {
    receivers.push({
      name: 'grpc',
      receiver: createOtlpGrpcReceiver({ host: grpc.host, port: grpc.port, maxMessageBytes: grpc.maxMessageBytes, bearerToken, sink: assembler, wal }),
    });
  }
  const kafka: KafkaSource | undefined = config.sources.kafka.enabled ? createKafkaSource({ config: config.sources.kafka, sink: assembler }) : undefined;

  const metricsPort = metrics.prometheusUrl ? Number(new URL(metrics.prometheusUrl).port) : undefined;
  const ports: { http?: number; grpc?: number; metrics?: number } = metricsPort !== undefined ? { metrics: metricsPort } : {};
  try {
    if (wal) {
      // Acknowledged-but-unscored requests from before a crash are scored before new traffic is taken.
      assembler.start();
      const { replayed, skipped, left } = await replayWal(wal, assembler);
      log.info({ dir: config.sources.otlp.wal.dir, replayed, skipped, left }, 'write-ahead log replayed');
    }
    // Each receiver logs its own "listening" line with the bound port.
    for (const { name, receiver } of receivers) ports[name] = await receiver.start();
    await kafka?.start();
  } catch (err) {
    await Promise.allSettled(receivers.map((r) => r.receiver.shutdown()));
    await kafka?.shutdown(Date.now() + 5000);
    await wal?.close();
    await metrics.shutdown(Date.now() + 2000);
    throw err;
  }
  assembler.start();
  running = true;

  let watcher: ConfigWatcher | undefined;
  if (options.configPath) {
    watcher = watchConfig(
      options.configPath,
      (next) => {
        // Only the sampling policy is swapped live; other sections take effect at the next start.
        policy.swap(createSamplingPolicy(next.sampling, kinds));
        signals = boostSignalScorers(next.sampling);
        log.info({ file: options.configPath, version: policy.version }, 'sampling policy reloaded');
      },
      (err) => logConfigError(err, options.configPath as string),
    );
  }
  log.info(
    { ports, scorers: scorers.map((s) => `${s.name}:${s.type}`), kafka: kafka ? config.sources.kafka.topic : undefined, decisionWaitMs: config.assembly.decisionWaitMs },
    'tracejudge started',
  );

  let stopping: Promise<void> | undefined;
  const stop = (deadline = Date.now() + config.telemetry.shutdownTimeoutMs): Promise<void> => {
    stopping ??= (async () => {
      running = false;
      watcher?.close();
      log.info('stopping intake');
      const results = await Promise.allSettled([...receivers.map((r) => r.receiver.shutdown()), kafka?.stop()]);
      for (const r of results) if (r.status === 'rejected') log.error({ err: errorMessage(r.reason) }, 'source shutdown failed');
      log.info({ bufferedTraces: assembler.bufferedTraces }, 'flushing the assembler');
      // Judge calls still running (or waiting) close to the deadline are aborted, so a hanging judge cannot
      // hold the shutdown past it: they end as error records, and the emitters keep time to flush them.
      const reserveMs = Math.min(2000, Math.max(0, (deadline - Date.now()) / 4));
      const abortJudge = judge
        ? setTimeout(() => {
            log.warn('judge calls still running near the shutdown deadline; aborting them');
            judge.close();
          }, Math.max(0, deadline - Date.now() - reserveMs))
        : undefined;
      await assembler.close();
      await pipeline?.idle();
      clearTimeout(abortJudge);
      judge?.close();
      await emitter.shutdown(deadline).catch((err: unknown) => log.error({ err: errorMessage(err) }, 'emitter shutdown failed'));
      // After the flush: the final checkpoint covers everything handled, and what was not is replayed next time.
      await wal?.close().catch((err: unknown) => log.error({ err: errorMessage(err) }, 'write-ahead log close failed'));
      await kafka?.shutdown(deadline);
      await metrics.shutdown(deadline).catch((err: unknown) => log.error({ err: errorMessage(err) }, 'metrics shutdown failed'));
      log.info({ ...assembler.stats, ...(pipeline ? { pipeline: pipeline.stats() } : {}) }, 'tracejudge stopped');
    })();
    return stopping;
  };
  return { assembler, pipeline, ports, policy, stop };
}
