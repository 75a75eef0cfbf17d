/**
 * The settings of one service: made once by the entry point (`serve`, `score`, `extract`, the benches)
 * and handed to every factory. They hold the logger, the instruments (on this service's own
 * MeterProvider), the clock, the judge resolver, the scorer registry, the string interner and the table
 * of attribute-key families extraction keeps; two services built in one process share none of them.
 */
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type { DetectedResourceAttributes, Resource, ResourceDetector } from '@opentelemetry/resources';
import type { Logger } from 'pino';
import type { ComponentSettings } from '../component.js';
import type { Env } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { KeyFlagTable } from '../extract/key-flags.js';
import { Interner } from '../ingest/otlp/intern.js';
import { JudgeResolver } from '../judge/resolver.js';
import { markJudgeFetch } from '../judge/self-mark.js';
import { createScorerRegistry, type ScorerRegistry } from '../scorers/registry.js';
import { Telemetry } from '../telemetry/instruments.js';
import { createLogger, resolveLogFormat, Secrets } from '../telemetry/log.js';
import { createMeters, type Meters } from '../telemetry/metrics.js';
import { packageVersion } from './version.js';

export interface Settings extends ComponentSettings {
  /** The environment the config and the judge were resolved against. */
  readonly env: Env;
  /** The resource of everything this service exports (its own metrics, carrier spans, log events). */
  readonly resource: Resource;
  /** The MeterProvider behind `telemetry` (its readers: Prometheus, OTLP). */
  readonly meters: Meters;
  /** Turns judge model values into ports, for the built-in judge scorers and custom modules alike. */
  readonly judges: JudgeResolver;
  readonly scorers: ScorerRegistry;
  /** Short strings shared by this service's decoders. */
  readonly interner: Interner;
  /** Convention families of attribute keys, remembered across the traces this service extracts. */
  readonly keyFlags: KeyFlagTable;
}

export interface CreateSettingsOptions {
  env?: Env;
  /** Default: JSON lines on stderr at `TRACEJUDGE_LOG_LEVEL`, else `telemetry.logLevel`. */
  logger?: Logger;
  /** The secrets `logger` scrubs (pass them with your own logger; default: new). */
  secrets?: Secrets;
  now?: () => number;
  /** Read metrics for a Prometheus endpoint (default: `emit.prometheus.enabled`; `score` has none). */
  prometheus?: boolean;
  /** Replaces `fetch` for judge calls (default: `fetch` with the self-exclusion marks). */
  fetch?: typeof globalThis.fetch;
  /** Replaces the scorer registry (default: every built-in type). */
  scorers?: ScorerRegistry;
}

// The resource (and the OpenTelemetry SDK packages behind it) is made when something exports: OTLP output,
// Prometheus' target_info. An offline command that writes JSON lines never loads them.
const require = createRequire(import.meta.url);
const loadResources = (): typeof import('@opentelemetry/resources') => require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');

/** Longest key or value `OTEL_RESOURCE_ATTRIBUTES` may hold (the SDK's envDetector limit). */
const MAX_RESOURCE_ENV_LENGTH = 255;

/**
 * `OTEL_RESOURCE_ATTRIBUTES` (`key=value,…`, percent-encoded) and `OTEL_SERVICE_NAME` read from `env` with the
 * rules of the SDK's `envDetector` (which reads only `process.env`): a malformed variable is ignored as a
 * whole; `OTEL_SERVICE_NAME` wins over a `service.name` in the list.
 */
function envObjectDetector(env: Env): ResourceDetector {
  return {
    detect() {
      const attributes: DetectedResourceAttributes = {};
      const raw = env.OTEL_RESOURCE_ATTRIBUTES;
      if (raw !== undefined && raw.trim() !== '') {
        const parsed: Record<string, string> = {};
        let valid = true;
        for (const item of raw.split(',').filter((a) => a.trim() !== '')) {
          const kv = item.split('=');
          const key = kv[0]?.trim() ?? '';
          let k: string;
          let v: string;
          try {
            k = decodeURIComponent(key);
            v = decodeURIComponent(kv[1]?.trim() ?? '');
          } catch {
            valid = false;
            break;
          }
          if (kv.length !== 2 || key === '' || k.length > MAX_RESOURCE_ENV_LENGTH || v.length > MAX_RESOURCE_ENV_LENGTH) {
            valid = false;
            break;
          }
          parsed[k] = v;
        }
        if (valid) Object.assign(attributes, parsed);
      }
      const name = env.OTEL_SERVICE_NAME;
      if (name !== undefined && name.trim() !== '') attributes['service.name'] = name;
      return { attributes };
    },
  };
}

/**
 * The resource of everything this service exports: its own metrics (OTLP and the Prometheus `target_info`),
 * evaluation carrier spans and log events. Built with the SDK's resource detectors, later ones winning:
 * the SDK defaults (`telemetry.sdk.*`), then tracejudge's own `service.name=tracejudge`, `service.version`
 * (the package version) and `service.instance.id` (a random UUID per service, so replicas and restarts can be
 * told apart), then `processDetector` (`process.pid`, `process.runtime.*`, …), then the environment:
 * `OTEL_RESOURCE_ATTRIBUTES` and `OTEL_SERVICE_NAME` (`envDetector`), which may also set a stable
 * `service.instance.id` or any other attribute. No detector is asynchronous, so the attributes are settled
 * before the first export (the Prometheus exporter does not wait for pending ones).
 */
export function serviceResource(env: Env): Resource {
  const { defaultResource, detectResources, envDetector, processDetector, resourceFromAttributes } = loadResources();
  const own = resourceFromAttributes({ 'service.name': 'tracejudge', 'service.version': packageVersion(), 'service.instance.id': randomUUID() });
  const detected = detectResources({ detectors: [processDetector, env === process.env ? envDetector : envObjectDetector(env)] });
  return defaultResource().merge(own).merge(detected);
}

/**
 * Settings for a service running `config`.
 *
 * @example
 * ```ts
 * const settings = createSettings(config);
 * const service = await buildService(config, settings, { source: { kind: 'configured' } });
 * ```
 */
export function createSettings(config: Config, options: CreateSettingsOptions = {}): Settings {
  const env = options.env ?? process.env;
  const secrets = options.secrets ?? new Secrets();
  // Unset everywhere: createLogger's default (info; silent under vitest).
  const level = env.TRACEJUDGE_LOG_LEVEL ?? config.telemetry.logLevel;
  const format = resolveLogFormat(config.telemetry.logFormat, env);
  const logger = options.logger ?? createLogger({ env, secrets, format, ...(level ? { level } : {}) });
  // Made on first use, once per service (its service.instance.id is this service's).
  let resource: Resource | undefined;
  const resourceOf = (): Resource => (resource ??= serviceResource(env));
  const meters = createMeters({ emit: config.emit, env, resource: resourceOf, logger, ...(options.prometheus !== undefined ? { prometheus: options.prometheus } : {}) });
  const telemetry = new Telemetry(meters.provider.getMeter('tracejudge'), { maxAgents: config.emit.metrics.maxAgents, allowAgents: config.emit.metrics.allowAgents }, meters.exemplars, options.now ?? Date.now);
  if (config.live.enabled && config.live.publicUrl !== undefined) telemetry.observeLiveUrl(config.live.publicUrl);
  const base: ComponentSettings = { logger, telemetry, secrets, now: options.now ?? Date.now };
  // Judge calls carry a marker header and user agent, so a host app that traces them never gets them scored.
  const judges = new JudgeResolver({ section: config.judge, env, settings: base, fetch: options.fetch ?? markJudgeFetch() });
  const scorers = options.scorers ?? createScorerRegistry();
  return {
    ...base,
    env,
    get resource() {
      return resourceOf();
    },
    meters,
    judges,
    scorers,
    interner: new Interner(),
    keyFlags: new KeyFlagTable(),
  };
}
