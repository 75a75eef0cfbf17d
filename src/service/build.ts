/**
 * The one graph builder: sources → assembler → pipeline → emitters, from a frozen config and the service
 * settings. `serve`, `score` (files, `--dataset`, `--kafka` replay), `extract` and the benchmarks all build
 * their service here, so they cannot drift: `score` writes to every configured emitter exactly as `serve`
 * does (stdout, JSON lines, OTLP, Kafka, metrics).
 *
 * The edges say who hands work to whom; start and shutdown order follow from them (src/component-graph.ts).
 * Two sources acknowledge what they took only once it has been scored and emitted, so they are split in
 * two components: the Kafka source's `fetch` feeds the assembler while its `offsets` come after the
 * emitters (commit, leave the group); the write-ahead log's replay feeds the assembler while the log
 * itself comes after the emitters (final checkpoint). The receivers start after the replay.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { component, type Component } from '../component.js';
import { loadConfig } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { createEmitters } from '../emit/create-emitters.js';
import type { RecordSender } from '../emit/buffered-emitter.js';
import type { Emitter } from '../emit/emitter.js';
import { FanoutEmitter } from '../emit/fanout.js';
import { ErrorCodes, TracejudgeError, errorMessage } from '../errors.js';
import { TraceAssembler, type TraceHandler } from '../ingest/assembler.js';
import type { DatasetItem, DatasetSource } from '../ingest/files/dataset-source.js';
import type { KafkaReplayOptions } from '../ingest/kafka/replay.js';
import type { KafkaSource } from '../ingest/kafka/source.js';
import type { OtlpReceiver } from '../ingest/otlp/receiver.js';
import type { LiveRing } from '../live/ring.js';
import { createPipeline, pipelineOptionsFromConfig, type Pipeline, type RunObserver } from '../pipeline/pipeline.js';
import { boostSignalScorers } from '../sampling/boost-signals.js';
import { PolicyHolder } from '../sampling/holder.js';
import { createSamplingPolicy } from '../sampling/policy.js';
import type { ElementCache } from '../scorers/code/completeness/element-cache.js';
import type { ConfiguredScorer } from '../scorers/descriptor.js';
import { trajectoryFromRun } from '../scorers/trajectory/from-trace.js';
import { createMetricsEndpoint, type MetricsEndpoint } from '../telemetry/metrics.js';
import { ComponentGraph } from '../component-graph.js';
import { buildServiceScorers, samplingKinds } from './scorers.js';
import { BearerAuth } from '../ingest/otlp/bearer-auth.js';
import { JudgeFailureLog } from '../pipeline/judge-failures.js';
import { emitterHealth, holdsRecords, isHealthReporter, observeServiceState, readiness, type ConfigInfo, type HealthReporter } from './health.js';
import { configHash, logReload, planReload } from './reload.js';
import { findSelfLoop, selfLoopMessage } from './self-loop.js';
import type { Settings } from './settings.js';

/** Where the runs come from. */
export type SourcePlan =
  /** `serve`: the OTLP receivers (with the write-ahead log when on) and the Kafka source, as configured. */
  | { kind: 'configured' }
  /** No source: the caller offers batches to `service.assembler` (or traces to `service.pipeline`) itself. */
  | { kind: 'manual' }
  /** `score FILE…` / `extract FILE…`: OTLP files (or `-` for stdin). */
  | { kind: 'files'; paths: readonly string[]; stdin?: NodeJS.ReadableStream }
  /** `score --kafka TOPIC`: a replay of the topic in a consumer group of its own. */
  | { kind: 'kafka-replay'; replay: KafkaReplayOptions }
  /** `score --dataset FILE`: items scored as agent runs, without assembly. */
  | { kind: 'dataset'; file: string; items: readonly DatasetItem[] };

export interface BuildOptions {
  source: SourcePlan;
  /** Score every run, ignoring sampling (`score --all`; datasets always). */
  sampleAll?: boolean;
  /** The config file: hot reload of the sampling policy (`serve`) and relative scorer module paths. */
  configPath?: string;
  /** Watch the config file and reload the sampling policy on change or SIGHUP (default: `configured` sources). */
  watchConfig?: boolean;
  /** Replaces the stdout sender when `emit.stdout` is on (`score --format table`, datasets). */
  stdout?: RecordSender;
  /** Replace the pipeline with another per-trace handler (`extract`, tests): no scorers, no emitters. */
  handleTrace?: TraceHandler;
  /** Replace the configured emitters (tests, benches). */
  emitters?: Emitter[];
  /** Told about every scored run, after its records were emitted (`score --format table` and its summary). */
  observers?: RunObserver[];
}

export interface Service {
  readonly settings: Settings;
  readonly graph: ComponentGraph;
  readonly assembler: TraceAssembler;
  readonly pipeline: Pipeline | undefined;
  readonly policy: PolicyHolder;
  readonly scorers: readonly ConfiguredScorer[];
  /** The dataset source, for `score --dataset` (maps trace ids back to lines). */
  readonly dataset: DatasetSource | undefined;
  /** The completeness scorers' shared element cache, when one is configured (hit counts). */
  readonly elementCache: ElementCache | undefined;
  /** The live page's in-memory ring (`configured` sources with `live.enabled`; docs/live-page.md). */
  readonly live: LiveRing | undefined;
  /** Bound ports of the started listeners (useful with port 0). */
  ports(): { http?: number; grpc?: number; metrics?: number };
  /** Start every component (consumers before producers). Rejects, after shutting down what started, when one fails. */
  start(): Promise<void>;
  /**
   * Resolves with the error when a component gives up after `start()` resolved (the Kafka source whose
   * brokers did not answer within `sources.kafka.startupTimeoutMs`); never otherwise. `serve` then stops.
   */
  failed(): Promise<Error>;
  /** Resolves when every finite source (files, replay, dataset) has handed on everything; never for `configured` or `manual`. */
  done(): Promise<void>;
  /**
   * Decide every trace the assembler holds and wait, without a deadline, until every evaluation was handed
   * to the emitters: what offline commands do once their sources are done, before the bounded shutdown.
   */
  drain(): Promise<void>;
  /**
   * Stop intake, flush and commit, within `deadline` (ms since epoch; default now + shutdownTimeoutMs).
   * Never rejects; resolves to whether everything taken in was handled by the deadline. Safe twice.
   */
  shutdown(deadline?: number): Promise<ShutdownResult>;
}

export interface ShutdownResult {
  /** True when no trace and no evaluation was left unfinished at the deadline. */
  complete: boolean;
  /** Traces still held, queued or being handled when the shutdown ended. */
  unfinishedTraces: number;
  /** Evaluations still running or queued when the shutdown ended. */
  pendingEvaluations: number;
}

const never = new Promise<void>(() => undefined);

/**
 * Run a service whose sources end by themselves (files, a dataset, a replay to the end) to its end: start,
 * wait for the sources, drain every evaluation, then the bounded shutdown, which runs also when a step failed.
 */
export async function runToEnd(service: Service): Promise<void> {
  try {
    await service.start();
    await service.done();
    await service.drain();
  } finally {
    await service.shutdown();
  }
}

/** Build the service graph for `config` and `settings`; nothing starts until `start()`. */
export async function buildService(config: Config, settings: Settings, options: BuildOptions): Promise<Service> {
  // Refused before anything is built: results exported to the service's own receivers come back as input.
  const loop = options.source.kind === 'configured' && !options.emitters && !options.handleTrace ? findSelfLoop(config, settings.env) : undefined;
  if (loop) throw new TracejudgeError(ErrorCodes.CONFIG_INVALID, selfLoopMessage(loop));
  const log = settings.logger.child({ component: 'service' });
  const graph = new ComponentGraph({
    onShutdownError: (c, _phase, err) => log.error({ component: c.name, err: errorMessage(err) }, 'component shutdown failed'),
  });
  let running = false;
  let stopping = false;
  let fail: (err: Error) => void = () => undefined;
  const failure = new Promise<Error>((resolve) => (fail = resolve));

  // Scoring: scorers, sampling, pipeline, emitters.
  const built = options.handleTrace ? { scorers: [], economics: undefined, elementPool: undefined, elementCache: undefined } : await buildServiceScorers(config, settings, options.configPath);
  const kinds = samplingKinds(built.scorers);
  const policy = new PolicyHolder(createSamplingPolicy(config.sampling, kinds, settings.now(), settings));
  let signals = boostSignalScorers(config.sampling);
  const emitters = options.handleTrace ? [] : (options.emitters ?? createEmitters(config, { settings, ...(options.stdout ? { stdout: options.stdout } : {}) }));
  // The live page's ring (serve, demo): every scored run, in memory only, served on the metrics listener.
  const live =
    !options.handleTrace && options.source.kind === 'configured' && config.live.enabled
      ? new (await import('../live/ring.js')).LiveRing({
          config: config.live,
          now: settings.now,
          scorers: built.scorers.map((s) => ({ name: s.name, kind: s.kind, threshold: s.threshold, direction: s.direction })),
          ...(built.economics ? { economics: built.economics } : {}),
        })
      : undefined;
  const liveAssets = live && settings.meters.prometheus ? await (await import('../live/assets.js')).loadLiveAssets() : undefined;
  // The token of the receivers and the live page: a reload rotates it (src/service/reload.ts).
  const auth = new BearerAuth(config.sources.otlp.auth.bearerToken, settings.now);
  const liveRoutes = live && liveAssets ? (await import('../live/routes.js')).liveRoutes({ ring: live, assets: liveAssets, bearerToken: auth }) : {};
  const judgeFailures = new JudgeFailureLog({ logger: log, intervalMs: config.telemetry.health.judgeFailureLogIntervalMs, now: settings.now });
  const observers: RunObserver[] = [...(live ? [live] : []), judgeFailures, ...(options.observers ?? [])];
  const pipeline = options.handleTrace
    ? undefined
    : createPipeline({
        ...pipelineOptionsFromConfig(config),
        scorers: built.scorers,
        ...(options.sampleAll || options.source.kind === 'dataset' ? {} : { policy: () => policy.current(), signalScorers: () => signals }),
        emitter: new FanoutEmitter(emitters),
        source: sourceKindOf(options.source),
        trajectoryOf: (context, traceSpans) => trajectoryFromRun(context, traceSpans),
        settings,
        keyFlags: settings.keyFlags,
        judges: settings.judges,
        abortJudges: () => settings.judges.close(),
        ...(built.economics ? { economics: built.economics } : {}),
        ...(observers.length > 0 ? { observers } : {}),
      });
  for (const e of emitters) graph.add(e);
  // What /readyz and tracejudge.component.state report on (src/service/health.ts).
  const reporters: HealthReporter[] = [];
  for (const e of emitters) {
    if (isHealthReporter(e)) reporters.push(e);
    else if (holdsRecords(e)) reporters.push(emitterHealth(e, config.telemetry.health.maxEmitHeldMs, settings.now));
  }
  if (pipeline) {
    graph.add(pipeline, live ? [...emitters, live] : emitters);
    if (built.elementPool) graph.add(built.elementPool);
    if (built.elementPool) graph.link(pipeline, built.elementPool);
  }
  const handleTrace: TraceHandler = options.handleTrace ?? ((trace) => (pipeline as Pipeline).handleTrace(trace));
  const assembler = graph.add(new TraceAssembler({ config: config.assembly, onTrace: handleTrace, settings }), pipeline ? [pipeline] : []);
  /** Where acknowledgements go once records are out: after every emitter (or the assembler without them). */
  const acknowledged = (c: Component): void => {
    graph.add(c);
    for (const from of emitters.length > 0 ? emitters : [assembler]) graph.link(from, c);
  };

  // Sources.
  const receivers: { name: 'http' | 'grpc'; receiver: OtlpReceiver }[] = [];
  const finite: Promise<unknown>[] = [];
  let dataset: DatasetSource | undefined;
  const plan = options.source;
  if (plan.kind === 'configured') {
    // What only `serve` (and the demo) runs is loaded here: receivers, gRPC, the write-ahead log.
    const [{ OtlpIngest }, { InFlightBudget }, { WriteAheadLog }, { replayWal }] = await Promise.all([
      import('../ingest/otlp/ingest.js'),
      import('../ingest/otlp/receiver.js'),
      import('../ingest/wal/log.js'),
      import('../ingest/wal/replay.js'),
    ]);
    const otlp = config.sources.otlp;
    const wal = otlp.wal.enabled ? new WriteAheadLog(otlp.wal, settings) : undefined;
    const ingest = new OtlpIngest({ sink: assembler, wal, settings });
    const afterReplay: Component[] = [];
    if (wal) {
      acknowledged(wal);
      // Acknowledged-but-unscored requests from before a crash are scored before new traffic is taken.
      const replay = component('wal-replay', {
        async start() {
          const { replayed, skipped, left } = await replayWal(wal, ingest, settings);
          log.info({ dir: otlp.wal.dir, replayed, skipped, left }, 'write-ahead log replayed');
        },
      });
      graph.add(replay, [assembler, wal]);
      afterReplay.push(replay);
    }
    const bearerToken = auth;
    const isReady = (): boolean => running && !stopping;
    // One budget for the request bytes both receivers hold at once (sources.otlp.maxInFlightBytes).
    const budget = new InFlightBudget(otlp.maxInFlightBytes);
    if (otlp.http.enabled) {
      const { createOtlpHttpReceiver } = await import('../ingest/http/receiver.js');
      const { host, port, maxBodyBytes, bodyTimeoutMs, keepAliveTimeoutMs, tls } = otlp.http;
      receivers.push({ name: 'http', receiver: createOtlpHttpReceiver({ host, port, maxBodyBytes, bodyTimeoutMs, keepAliveTimeoutMs, budget, bearerToken, ingest, settings, isReady, tls }) });
    }
    if (otlp.grpc.enabled) {
      const { createOtlpGrpcReceiver } = await import('../ingest/grpc/receiver.js');
      const { host, port, maxMessageBytes, maxConcurrentStreams, messageTimeoutMs, keepaliveTimeMs, keepaliveTimeoutMs, maxConnectionIdleMs, maxConnectionAgeMs } = otlp.grpc;
      const limits = { maxMessageBytes, maxConcurrentStreams, messageTimeoutMs, keepaliveTimeMs, keepaliveTimeoutMs, maxConnectionIdleMs, maxConnectionAgeMs };
      receivers.push({ name: 'grpc', receiver: createOtlpGrpcReceiver({ host, port, ...limits, budget, bearerToken, ingest, settings, tls: otlp.grpc.tls }) });
    }
    for (const { receiver } of receivers) graph.add(receiver, [assembler, ...afterReplay]);
    if (config.sources.kafka.enabled) {
      // Loaded only when configured: kafkajs is ~14 MiB a service without Kafka never needs.
      const { createKafkaSource } = await import('../ingest/kafka/source.js');
      const kafka: KafkaSource = createKafkaSource({ config: config.sources.kafka, sink: assembler, settings, onFatal: (err) => fail(err) });
      graph.add(kafka.fetch, [assembler]);
      acknowledged(kafka.offsets);
      reporters.push(kafka);
    }
    finite.push(never);
  } else if (plan.kind === 'manual') {
    finite.push(never);
  } else if (plan.kind === 'files') {
    const { createFileSource } = await import('../ingest/files/file-source.js');
    const files = graph.add(createFileSource({ paths: plan.paths, sink: assembler, settings, ...(plan.stdin ? { stdin: plan.stdin } : {}) }), [assembler]);
    finite.push(files.done);
  } else if (plan.kind === 'kafka-replay') {
    const { createKafkaReplay } = await import('../ingest/kafka/replay.js');
    const replay = createKafkaReplay({ ...plan.replay, sink: assembler, settings, assembled: () => assembler.stats.tracesAssembled });
    graph.add(replay.fetch, [assembler]);
    acknowledged(replay.offsets);
    finite.push(replay.fetch.done);
  } else {
    const scorePipeline = pipeline;
    if (!scorePipeline) throw new Error('a dataset needs the scoring pipeline');
    const { createDatasetSource } = await import('../ingest/files/dataset-source.js');
    dataset = graph.add(
      createDatasetSource({ file: plan.file, items: plan.items, concurrency: config.judge.concurrency, score: (c) => scorePipeline.scoreRuns(c, 'file'), now: settings.now }),
      [scorePipeline],
    );
    finite.push(dataset.done);
  }

  // Hot reload: the sampling policy and the bearer token are applied live; every other changed key is named
  // in a warn line as needing a restart (src/service/reload.ts).
  let current = config;
  let configInfo: ConfigInfo = { hash: configHash(config), loadedAtMs: settings.now() };
  const configPath = options.configPath;
  if (configPath && (options.watchConfig ?? plan.kind === 'configured')) {
    const { watchConfig } = await import('../sampling/reload.js');
    let watcher: ReturnType<typeof watchConfig> | undefined;
    const reloader = component('config-watcher', {
      start() {
        watcher = watchConfig(
          configPath,
          (next) => {
            const changes = planReload(config, current, next);
            policy.swap(createSamplingPolicy(next.sampling, kinds, settings.now(), settings));
            signals = boostSignalScorers(next.sampling);
            auth.rotate(next.sources.otlp.auth.bearerToken, next.sources.otlp.auth.previousTokenGraceMs);
            current = next;
            configInfo = { hash: configHash(next), loadedAtMs: settings.now() };
            logReload(log, configPath, changes);
          },
          () => undefined,
          { env: settings.env, logger: settings.logger, load: (file, env) => loadConfig(file, env, { scorers: settings.scorers }) },
        );
      },
      shutdown() {
        watcher?.close();
      },
    });
    graph.add(reloader, pipeline ? [pipeline] : []);
  }

  // Own telemetry: first up, last down (everything reports to it).
  const health = (ok: () => boolean) => (_req: IncomingMessage, res: ServerResponse) => {
    const up = ok();
    res.writeHead(up ? 200 : 503, { 'content-type': 'text/plain' }).end(up ? 'ok\n' : 'not ready\n');
  };
  const ready = (_req: IncomingMessage, res: ServerResponse): void => {
    const r = running && !stopping ? readiness(reporters) : { ready: false, reasons: [stopping ? 'stopping' : 'starting'] };
    res.writeHead(r.ready ? 200 : 503, { 'content-type': 'text/plain' }).end(r.ready ? 'ok\n' : `not ready\n${r.reasons.join('\n')}\n`);
  };
  const metrics: MetricsEndpoint = createMetricsEndpoint({
    meters: settings.meters,
    host: config.emit.prometheus.host,
    port: config.emit.prometheus.port,
    tls: config.emit.prometheus.tls,
    routes: {
      '/healthz': health(() => true),
      '/readyz': ready,
      ...liveRoutes,
    },
    logger: settings.logger,
  });
  // The bounded tables of this service on /metrics (tracejudge.memory.table.{bytes,entries}).
  const elementCache = built.elementCache;
  const unobserveTables = settings.telemetry.observeTables(() => [...settings.interner.tables(), ...settings.keyFlags.tables(), ...(elementCache ? elementCache.tables() : [])]);
  const unobserveState = observeServiceState(settings.meters.provider.getMeter('tracejudge'), () => reporters, () => configInfo);
  const others = graph.components();
  graph.add(metrics);
  for (const c of others) graph.link(c, metrics);

  let stopped: Promise<ShutdownResult> | undefined;
  const service: Service = {
    settings,
    graph,
    assembler,
    pipeline,
    policy,
    scorers: built.scorers,
    dataset,
    elementCache: built.elementCache,
    live,
    ports() {
      const out: { http?: number; grpc?: number; metrics?: number } = {};
      for (const { name, receiver } of receivers) out[name] = receiver.port;
      if (metrics.port !== undefined) out.metrics = metrics.port;
      return out;
    },
    async start() {
      await graph.start(() => Date.now() + 5000);
      running = true;
      log.info(
        {
          ports: service.ports(),
          ...(liveAssets && metrics.url ? { livePage: metrics.url.replace(/\/metrics$/, '/') } : {}),
          scorers: built.scorers.map((s) => `${s.name}:${s.type}`),
          kafka: plan.kind === 'configured' && config.sources.kafka.enabled ? config.sources.kafka.topic : undefined,
          decisionWaitMs: config.assembly.decisionWaitMs,
        },
        'tracejudge started',
      );
    },
    failed: () => failure,
    done: () => Promise.all(finite).then(() => undefined),
    async drain() {
      await assembler.close();
      await pipeline?.idle();
    },
    shutdown(deadline = Date.now() + config.telemetry.shutdownTimeoutMs) {
      stopped ??= (async () => {
        stopping = true;
        log.info({ bufferedTraces: assembler.bufferedTraces }, 'stopping intake, then flushing');
        // The judge clock starts now, not when the pipeline's turn comes: calls still running near the
        // deadline are aborted in time for their error records to be emitted.
        pipeline?.abortNear(deadline);
        await graph.shutdown(deadline);
        unobserveTables();
        unobserveState();
        const result: ShutdownResult = { complete: true, unfinishedTraces: assembler.unfinishedTraces, pendingEvaluations: pipeline?.pending() ?? 0 };
        result.complete = result.unfinishedTraces === 0 && result.pendingEvaluations === 0;
        log.info({ ...assembler.stats, ...(pipeline ? { pipeline: pipeline.stats() } : {}), ...result }, 'tracejudge stopped');
        return result;
      })();
      return stopped;
    },
  };
  return service;
}

function sourceKindOf(plan: SourcePlan): 'otlp' | 'kafka' | 'file' {
  if (plan.kind === 'configured' || plan.kind === 'manual') return 'otlp';
  if (plan.kind === 'kafka-replay') return 'kafka';
  return 'file';
}
