/**
 * The settings of one service: made once by the entry point (`serve`, `score`, `extract`, the benches)
 * and handed to every factory. They hold the logger, the instruments (on this service's own
 * MeterProvider), the clock, the judge resolver, the scorer registry and the string interner; two services
 * built in one process share none of them.
 */
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import type { Logger } from 'pino';
import type { ComponentSettings } from '../component.js';
import type { Env } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { Interner } from '../ingest/otlp/intern.js';
import { JudgeResolver } from '../judge/resolver.js';
import { markJudgeFetch } from '../judge/self-mark.js';
import { createScorerRegistry, type ScorerRegistry } from '../scorers/registry.js';
import { Telemetry } from '../telemetry/instruments.js';
import { createLogger, Secrets } from '../telemetry/log.js';
import { createMeters, type Meters } from '../telemetry/metrics.js';

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

/** The resource of the service: `service.name` (`OTEL_SERVICE_NAME`, default `tracejudge`). */
function serviceResource(env: Env): Resource {
  const name = env.OTEL_SERVICE_NAME?.trim();
  return resourceFromAttributes({ 'service.name': name ? name : 'tracejudge' });
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
  const logger = options.logger ?? createLogger({ env, secrets, level: env.TRACEJUDGE_LOG_LEVEL ?? config.telemetry.logLevel });
  const resource = serviceResource(env);
  const meters = createMeters({ emit: config.emit, env, resource, logger, ...(options.prometheus !== undefined ? { prometheus: options.prometheus } : {}) });
  const telemetry = new Telemetry(meters.provider.getMeter('tracejudge'), { maxAgents: config.emit.metrics.maxAgents, allowAgents: config.emit.metrics.allowAgents });
  const base: ComponentSettings = { logger, telemetry, secrets, now: options.now ?? Date.now };
  // Judge calls carry a marker header and user agent, so a host app that traces them never gets them scored.
  const judges = new JudgeResolver({ section: config.judge, env, settings: base, fetch: options.fetch ?? markJudgeFetch() });
  return { ...base, env, resource, meters, judges, scorers: options.scorers ?? createScorerRegistry(), interner: new Interner() };
}
