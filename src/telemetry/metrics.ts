/**
 * A service's MeterProvider and its metrics endpoint. The provider has a Prometheus reader when
 * `emit.prometheus` is on and, when OTLP export is on, a periodic OTLP metric reader. The endpoint is a
 * component: `start` listens on `emit.prometheus` (`/metrics`, plus routes such as `/healthz` and
 * `/readyz`), `shutdown` makes the final OTLP push and closes the listener. `/metrics` answers in the
 * exporter's text format, or in OpenMetrics with exemplars when `Accept` asks for it (openmetrics.ts).
 */
import { createRequire } from 'node:module';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { createNoopMeter, type MeterProvider as ApiMeterProvider } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { IMetricReader } from '@opentelemetry/sdk-metrics';
import type { Logger } from 'pino';
import { remainingMs, type Component } from '../component.js';
import type { EmitConfig } from '../config/sections/emit.js';
import { errorMessage } from '../errors.js';
import { resolveOtlpSettings } from '../otlp/export-settings.js';
import { createMetricExporter } from '../otlp/exporters.js';
import { ExemplarStore } from './exemplars.js';
import { SCORE_BUCKETS } from './instruments.js';
import { acceptsOpenMetrics, OPENMETRICS_CONTENT_TYPE, toOpenMetrics } from './openmetrics.js';
import type { TlsServerConfig } from '../config/sections/tls.js';
import { TlsReloader } from '../tls/reloader.js';

// The Prometheus exporter is required only when a reader is configured (offline commands configure none);
// the OTLP metric exporters are loaded the same way by ../otlp/exporters.ts.
const require = createRequire(import.meta.url);
const loadPrometheus = (): typeof import('@opentelemetry/exporter-prometheus') => require('@opentelemetry/exporter-prometheus') as typeof import('@opentelemetry/exporter-prometheus');
const loadSdk = (): typeof import('@opentelemetry/sdk-metrics') => require('@opentelemetry/sdk-metrics') as typeof import('@opentelemetry/sdk-metrics');

/** Judge latency buckets in seconds (the GenAI duration advice, 0.01 … 81.92). */
const JUDGE_DURATION_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];

export interface MeterProviderOptions {
  emit: EmitConfig;
  /** Environment for `OTEL_EXPORTER_OTLP_*`. */
  env: Readonly<Record<string, string | undefined>>;
  /** The resource of the service's metrics; read only when something reads the metrics. */
  resource: Resource | (() => Resource);
  logger?: Logger;
  /** Read for a Prometheus endpoint (default: `emit.prometheus.enabled`). */
  prometheus?: boolean;
}

/** What the service needs of a MeterProvider: its meter, a final push and a shutdown (both safe to repeat). */
export interface ServiceMeterProvider extends ApiMeterProvider {
  forceFlush(): Promise<void>;
  shutdown(options?: { timeoutMillis?: number }): Promise<void>;
}

export interface Meters {
  /**
   * The SDK's MeterProvider when something reads the metrics; with no reader (offline commands, a service
   * with Prometheus and OTLP metrics off) a no-op one: recording into an SDK provider that nobody collects
   * would hash every record's attributes for nothing, and the SDK would be loaded only for that.
   */
  readonly provider: ServiceMeterProvider;
  /** The Prometheus reader, when there is one (the endpoint serves it). */
  readonly prometheus: PrometheusExporter | undefined;
  /** The last trace id per result series, for the OpenMetrics exposition; only with a Prometheus reader. */
  readonly exemplars: ExemplarStore | undefined;
}

/** The MeterProvider with its readers and views (score and judge-latency buckets). */
export function createMeters(options: MeterProviderOptions): Meters {
  const readers: IMetricReader[] = [];
  let prometheus: PrometheusExporter | undefined;
  let exemplars: ExemplarStore | undefined;
  if (options.prometheus ?? options.emit.prometheus.enabled) {
    prometheus = new (loadPrometheus().PrometheusExporter)({ preventServerStart: true });
    readers.push(prometheus);
    exemplars = new ExemplarStore(SCORE_BUCKETS);
  }
  const otlp = resolveOtlpSettings(options.emit.otlp, options.env, options.logger);
  if (otlp) {
    readers.push(
      new (loadSdk().PeriodicExportingMetricReader)({
        exporter: createMetricExporter(otlp),
        exportIntervalMillis: otlp.metricsIntervalMs,
        exportTimeoutMillis: Math.min(otlp.timeoutMs, otlp.metricsIntervalMs),
      }),
    );
  }
  if (readers.length === 0) {
    const meter = createNoopMeter();
    return { provider: { getMeter: () => meter, forceFlush: () => Promise.resolve(), shutdown: () => Promise.resolve() }, prometheus, exemplars };
  }
  const { MeterProvider, AggregationType } = loadSdk();
  const provider = new MeterProvider({
    resource: typeof options.resource === 'function' ? options.resource() : options.resource,
    readers,
    views: [
      { instrumentName: 'tracejudge.evaluation.score', aggregation: { type: AggregationType.EXPLICIT_BUCKET_HISTOGRAM, options: { boundaries: SCORE_BUCKETS } } },
      { instrumentName: 'tracejudge.judge.duration', aggregation: { type: AggregationType.EXPLICIT_BUCKET_HISTOGRAM, options: { boundaries: JUDGE_DURATION_BUCKETS } } },
    ],
  });
  return { provider, prometheus, exemplars };
}

export interface MetricsEndpointOptions {
  meters: Meters;
  /** Where `/metrics` listens (only when the meters have a Prometheus reader). */
  host: string;
  port: number;
  /** Extra routes, e.g. `/healthz` and `/readyz` from the service. */
  routes?: Record<string, RequestListener>;
  logger: Logger;
  /** HTTPS (`emit.prometheus.tls`), with client certificates required when it has `clientCaFile`; absent: HTTP. */
  tls?: TlsServerConfig | undefined;
}

/** The metrics endpoint component. */
export interface MetricsEndpoint extends Component {
  /** `http://host:port/metrics` once listening (the real port when 0 was configured). */
  readonly url: string | undefined;
  /** The bound port once listening. */
  readonly port: number | undefined;
  /** Push OTLP metrics now (no-op without OTLP). */
  forceFlush(): Promise<void>;
}

/**
 * `/metrics` as OpenMetrics with exemplars (openmetrics.ts): the exporter's collection, serialized as the
 * exporter serializes it (same defaults, so the same bytes as the plain format), then rewritten.
 */
function serveOpenMetrics(exporter: PrometheusExporter, s: Serializer, exemplars: ExemplarStore | undefined, res: ServerResponse, logger: Logger): void {
  exporter.collect().then(
    ({ resourceMetrics, errors }) => {
      if (errors.length > 0) logger.warn({ errors: errors.map(errorMessage) }, 'metrics collection errors');
      res.statusCode = 200;
      res.setHeader('content-type', OPENMETRICS_CONTENT_TYPE);
      res.end(toOpenMetrics(s.serialize(resourceMetrics), exemplars));
    },
    (err: unknown) => {
      res.statusCode = 500;
      res.end(`# failed to export metrics: ${errorMessage(err)}\n`);
    },
  );
}
type Serializer = InstanceType<typeof import('@opentelemetry/exporter-prometheus').PrometheusSerializer>;

function listen(server: Server, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** The endpoint over `meters`: see the module comment. Shutting it down shuts the provider down. */
export function createMetricsEndpoint(options: MetricsEndpointOptions): MetricsEndpoint {
  const { meters, logger } = options;
  let server: Server | undefined;
  let tls: TlsReloader | undefined;
  let url: string | undefined;
  let port: number | undefined;
  let stopping: Promise<void> | undefined;
  let started: Promise<void> | undefined;

  async function start(): Promise<void> {
    const exporter = meters.prometheus;
    if (!exporter) return;
    const routes = options.routes ?? {};
    let serializer: Serializer | undefined;
    const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      if (path === '/metrics' && (req.method === 'GET' || req.method === 'HEAD')) {
        if (acceptsOpenMetrics(req.headers.accept)) serveOpenMetrics(exporter, (serializer ??= new (loadPrometheus().PrometheusSerializer)()), meters.exemplars, res, logger);
        else exporter.getMetricsRequestHandler(req, res);
      }
      else if (routes[path]) routes[path](req, res);
      else {
        res.statusCode = 404;
        res.end('not found\n');
      }
    };
    let s: Server;
    if (options.tls) {
      const reloader = new TlsReloader(options.tls, 'emit.prometheus.tls', logger.child({ component: 'metrics-endpoint' }));
      const https = createHttpsServer(reloader.options, onRequest);
      reloader.onReload((next) => https.setSecureContext(next));
      reloader.start();
      tls = reloader;
      s = https;
    } else {
      s = createServer(onRequest);
    }
    server = s;
    try {
      const address = await listen(s, options.host, options.port);
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      port = address.port;
      url = `${tls ? 'https' : 'http'}://${host}:${address.port}/metrics`;
      logger.info({ url }, 'metrics endpoint listening');
    } catch (err) {
      server = undefined;
      tls?.stop();
      throw new Error(`emit.prometheus: cannot listen on ${options.host}:${options.port}: ${errorMessage(err)}`, { cause: err });
    }
  }

  return {
    name: 'metrics-endpoint',
    get url() {
      return url;
    },
    get port() {
      return port;
    },
    start() {
      started ??= start();
      return started;
    },
    forceFlush: () => meters.provider.forceFlush(),
    shutdown(deadline) {
      stopping ??= (async () => {
        await started?.catch(() => undefined);
        tls?.stop();
        await meters.provider.shutdown({ timeoutMillis: remainingMs(deadline) }).catch((err: unknown) => logger.warn({ err: errorMessage(err) }, 'metrics shutdown failed'));
        const s = server;
        if (s) {
          s.closeAllConnections();
          await new Promise<void>((resolve) => s.close(() => resolve()));
        }
      })();
      return stopping;
    },
  };
}
