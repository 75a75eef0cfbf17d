/**
 * The service's MeterProvider: a Prometheus reader served on `emit.prometheus` (`/metrics`, default
 * 127.0.0.1:9464) and, when OTLP export is on, a periodic OTLP metric reader. Installs the real meter into
 * `telemetry()` and applies the agent-name bound of `emit.metrics`.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { AggregationType, MeterProvider, PeriodicExportingMetricReader, type IMetricReader } from '@opentelemetry/sdk-metrics';
import type { Config } from '../config/schema.js';
import { createMetricExporter } from '../otlp/exporters.js';
import { TRACEJUDGE_RESOURCE } from '../emit/otlp/otlp-sender.js';
import { resolveOtlpSettings } from '../otlp/export-settings.js';
import { errorMessage } from '../errors.js';
import { logger } from './log.js';
import { SCORE_BUCKETS, useMeter } from './instruments.js';
import { setAgentLimits } from './record-score.js';

/** Judge latency buckets in seconds (the GenAI duration advice, 0.01 … 81.92). */
export const JUDGE_DURATION_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];

export interface StartMetricsOptions {
  /** Extra routes on the metrics server, e.g. `/healthz` and `/readyz` from the service. */
  routes?: Record<string, RequestListener>;
  /** Environment for `OTEL_EXPORTER_OTLP_*` (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
}

export interface MetricsHandle {
  readonly meterProvider: MeterProvider;
  /** `http://host:port/metrics` when the Prometheus endpoint is on (the real port when 0 was configured). */
  readonly prometheusUrl: string | undefined;
  /** Push OTLP metrics now (no-op without OTLP). */
  forceFlush(): Promise<void>;
  /** Final OTLP push and server close, bounded by `deadline` (ms since epoch). Safe to call twice. */
  shutdown(deadline: number): Promise<void>;
}

function listen(server: Server, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** Build and install the MeterProvider; rejects when the Prometheus port cannot be bound. */
export async function startMetrics(config: Config, options: StartMetricsOptions = {}): Promise<MetricsHandle> {
  const emit = config.emit;
  setAgentLimits({ maxAgents: emit.metrics.maxAgents, allowAgents: emit.metrics.allowAgents });
  const readers: IMetricReader[] = [];
  let prometheus: PrometheusExporter | undefined;
  if (emit.prometheus.enabled) {
    prometheus = new PrometheusExporter({ preventServerStart: true });
    readers.push(prometheus);
  }
  const otlp = resolveOtlpSettings(emit.otlp, options.env ?? process.env);
  if (otlp) {
    readers.push(
      new PeriodicExportingMetricReader({
        exporter: createMetricExporter(otlp),
        exportIntervalMillis: otlp.metricsIntervalMs,
        exportTimeoutMillis: Math.min(otlp.timeoutMs, otlp.metricsIntervalMs),
      }),
    );
  }
  const meterProvider = new MeterProvider({
    resource: TRACEJUDGE_RESOURCE,
    readers,
    views: [
      { instrumentName: 'tracejudge.evaluation.score', aggregation: { type: AggregationType.EXPLICIT_BUCKET_HISTOGRAM, options: { boundaries: SCORE_BUCKETS } } },
      { instrumentName: 'tracejudge.judge.duration', aggregation: { type: AggregationType.EXPLICIT_BUCKET_HISTOGRAM, options: { boundaries: JUDGE_DURATION_BUCKETS } } },
    ],
  });
  useMeter(meterProvider.getMeter('tracejudge'));

  let server: Server | undefined;
  let prometheusUrl: string | undefined;
  if (prometheus) {
    const exporter = prometheus;
    const routes = options.routes ?? {};
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      if (path === '/metrics' && (req.method === 'GET' || req.method === 'HEAD')) exporter.getMetricsRequestHandler(req, res);
      else if (routes[path]) routes[path](req, res);
      else {
        res.statusCode = 404;
        res.end('not found\n');
      }
    });
    try {
      const address = await listen(server, emit.prometheus.host, emit.prometheus.port);
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      prometheusUrl = `http://${host}:${address.port}/metrics`;
      logger.info({ url: prometheusUrl }, 'metrics endpoint listening');
    } catch (err) {
      await meterProvider.shutdown().catch(() => undefined);
      throw new Error(`emit.prometheus: cannot listen on ${emit.prometheus.host}:${emit.prometheus.port}: ${errorMessage(err)}`, { cause: err });
    }
  }

  let closing: Promise<void> | undefined;
  return {
    meterProvider,
    prometheusUrl,
    forceFlush: () => meterProvider.forceFlush(),
    shutdown(deadline: number): Promise<void> {
      closing ??= (async () => {
        const timeoutMillis = Math.max(1, deadline - Date.now());
        await meterProvider.shutdown({ timeoutMillis }).catch((err: unknown) => logger.warn({ err: errorMessage(err) }, 'metrics shutdown failed'));
        if (server) {
          const s = server;
          s.closeAllConnections();
          await new Promise<void>((resolve) => s.close(() => resolve()));
        }
      })();
      return closing;
    },
  };
}
