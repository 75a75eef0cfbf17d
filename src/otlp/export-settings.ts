/**
 * Where OTLP results go: `emit.otlp.endpoint` when set, else `TRACEJUDGE_OTLP_ENDPOINT` (tracejudge's own
 * export, apart from the app's variables in the same shell), else the standard `OTEL_EXPORTER_OTLP_*` variables
 * (read by the official exporters themselves), else nowhere.
 */
import type { EmitConfig } from '../config/sections/emit.js';
import type { Logger } from 'pino';
import { ErrorCodes, TracejudgeError } from '../errors.js';

export type OtlpProtocol = 'http/protobuf' | 'http/json' | 'grpc';
export type OtlpSignal = 'TRACES' | 'LOGS' | 'METRICS';

export interface OtlpSettings {
  /** Base endpoint from config; undefined when the exporters read `OTEL_EXPORTER_OTLP_*` themselves. */
  endpoint: string | undefined;
  protocols: Record<OtlpSignal, OtlpProtocol>;
  headers: Record<string, string> | undefined;
  /** From config; with env configuration `OTEL_EXPORTER_OTLP_TIMEOUT` still applies when this is the default. */
  timeoutMs: number;
  traces: boolean;
  logs: boolean;
  metricsIntervalMs: number;
}

const PROTOCOLS: readonly OtlpProtocol[] = ['http/protobuf', 'http/json', 'grpc'];
type Env = Readonly<Record<string, string | undefined>>;

function envProtocol(env: Env, name: string, fallback: OtlpProtocol, logger: Logger | undefined): OtlpProtocol {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if ((PROTOCOLS as readonly string[]).includes(raw)) return raw as OtlpProtocol;
  logger?.warn({ variable: name, value: raw, using: fallback }, `${name}: unsupported OTLP protocol, expected one of ${PROTOCOLS.join(', ')}`);
  return fallback;
}

/** Resolve OTLP export settings, or undefined when OTLP export is off; an unsupported protocol variable is logged on `logger`. */
export function resolveOtlpSettings(otlp: EmitConfig['otlp'], env: Env = process.env, logger?: Logger): OtlpSettings | undefined {
  const base = { headers: otlp.headers, timeoutMs: otlp.timeoutMs, traces: otlp.traces, logs: otlp.logs, metricsIntervalMs: otlp.metricsIntervalMs };
  if (otlp.endpoint) {
    return { ...base, endpoint: otlp.endpoint, protocols: { TRACES: otlp.protocol, LOGS: otlp.protocol, METRICS: otlp.protocol } };
  }
  const own = env.TRACEJUDGE_OTLP_ENDPOINT?.trim();
  if (own) {
    if (!/^https?:\/\/[^/]/i.test(own) || !URL.canParse(own)) {
      throw new TracejudgeError(ErrorCodes.CONFIG_INVALID, `TRACEJUDGE_OTLP_ENDPOINT: must be an http:// or https:// URL, got ${JSON.stringify(own)}`);
    }
    return { ...base, endpoint: own, protocols: { TRACES: otlp.protocol, LOGS: otlp.protocol, METRICS: otlp.protocol } };
  }
  const has = (name: string): boolean => Boolean(env[name]?.trim());
  if (!has('OTEL_EXPORTER_OTLP_ENDPOINT') && !has('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') && !has('OTEL_EXPORTER_OTLP_LOGS_ENDPOINT')) {
    return undefined;
  }
  const general = envProtocol(env, 'OTEL_EXPORTER_OTLP_PROTOCOL', otlp.protocol, logger);
  const signal = (s: OtlpSignal): OtlpProtocol => envProtocol(env, `OTEL_EXPORTER_OTLP_${s}_PROTOCOL`, general, logger);
  return {
    ...base,
    endpoint: undefined,
    protocols: { TRACES: signal('TRACES'), LOGS: signal('LOGS'), METRICS: signal('METRICS') },
    traces: base.traces && (has('OTEL_EXPORTER_OTLP_ENDPOINT') || has('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT')),
    logs: base.logs && (has('OTEL_EXPORTER_OTLP_ENDPOINT') || has('OTEL_EXPORTER_OTLP_LOGS_ENDPOINT')),
  };
}

/** The per-signal URL for an exporter: `<base>/v1/<signal>` over HTTP, the base itself over gRPC. */
export function signalUrl(settings: OtlpSettings, signal: OtlpSignal): string | undefined {
  if (!settings.endpoint) return undefined;
  if (settings.protocols[signal] === 'grpc') return settings.endpoint;
  return `${settings.endpoint.replace(/\/+$/, '')}/v1/${signal.toLowerCase()}`;
}
