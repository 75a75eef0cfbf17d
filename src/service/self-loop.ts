/**
 * Self-loop detection: tracejudge's own OTLP export (`emit.otlp.endpoint`, `TRACEJUDGE_OTLP_ENDPOINT` or the
 * standard `OTEL_EXPORTER_OTLP_*` variables) pointed at one of its own receivers. Its evaluation spans would
 * come back as input, and each would be logged as late spans of a decided trace. `OTEL_EXPORTER_OTLP_ENDPOINT`
 * is meant for the instrumented app; set in the shell that runs `serve`, it is read by tracejudge too.
 *
 * Only the host and the port are compared: localhost, 127.x, 0.0.0.0, ::1, ::, this machine's host name, and
 * the receiver's own listen host count as this host; a receiver on port 0 cannot be pointed at in advance.
 */
import { hostname } from 'node:os';
import type { Config } from '../config/schema.js';

type Env = Readonly<Record<string, string | undefined>>;

/** An export endpoint that is one of this service's receivers. */
export interface SelfLoop {
  /** Where the endpoint was set: a config key or an environment variable. */
  source: string;
  endpoint: string;
  /** The receiver's config key (`sources.otlp.http` or `sources.otlp.grpc`). */
  receiver: string;
  address: string;
}

const THIS_HOST = new Set(['localhost', '0.0.0.0', '::1', '::', '']);

function isThisHost(host: string, receiverHost: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return THIS_HOST.has(h) || h.startsWith('127.') || h === receiverHost.toLowerCase() || h === hostname().toLowerCase();
}

/** Host and port of an endpoint URL (a gRPC endpoint may be written `host:port`), or undefined when it does not parse. */
function hostPort(endpoint: string): { host: string; port: number } | undefined {
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(endpoint) ? endpoint : `http://${endpoint}`);
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    return { host: url.hostname, port };
  } catch {
    return undefined;
  }
}

/** The export endpoints in effect, each with where it was set (the same precedence as resolveOtlpSettings). */
function exportEndpoints(config: Config, env: Env): { source: string; endpoint: string }[] {
  if (config.emit.otlp.endpoint) return [{ source: 'emit.otlp.endpoint', endpoint: config.emit.otlp.endpoint }];
  const own = env.TRACEJUDGE_OTLP_ENDPOINT?.trim();
  if (own) return [{ source: 'TRACEJUDGE_OTLP_ENDPOINT', endpoint: own }];
  const names = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_LOGS_ENDPOINT'];
  return names.flatMap((name) => {
    const value = env[name]?.trim();
    return value ? [{ source: name, endpoint: value }] : [];
  });
}

/** The first export endpoint that is one of the configured receivers, or undefined. */
export function findSelfLoop(config: Config, env: Env): SelfLoop | undefined {
  const { http, grpc } = config.sources.otlp;
  const receivers = [
    ...(http.enabled && http.port > 0 ? [{ receiver: 'sources.otlp.http', host: http.host, port: http.port }] : []),
    ...(grpc.enabled && grpc.port > 0 ? [{ receiver: 'sources.otlp.grpc', host: grpc.host, port: grpc.port }] : []),
  ];
  for (const { source, endpoint } of exportEndpoints(config, env)) {
    const at = hostPort(endpoint);
    if (!at) continue;
    const hit = receivers.find((r) => r.port === at.port && isThisHost(at.host, r.host));
    if (hit) return { source, endpoint, receiver: hit.receiver, address: `${hit.host}:${hit.port}` };
  }
  return undefined;
}

/** The one-line refusal for a {@link SelfLoop}, with how to fix it. */
export function selfLoopMessage(loop: SelfLoop): string {
  const fix =
    loop.source === 'emit.otlp.endpoint' || loop.source === 'TRACEJUDGE_OTLP_ENDPOINT'
      ? `point ${loop.source} at your Collector or backend instead`
      : `${loop.source} is for the app you instrument: unset it in the shell that runs tracejudge, and set emit.otlp.endpoint or TRACEJUDGE_OTLP_ENDPOINT for tracejudge's own export`;
  return `${loop.source}=${loop.endpoint} points at tracejudge's own receiver ${loop.receiver} (${loop.address}): its results would come back to it as input; ${fix}`;
}
