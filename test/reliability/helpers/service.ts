/**
 * The real service (`buildService` with the configured sources) in this process, on ephemeral ports, with
 * its emitters replaced by the metrics emitter plus a recording emitter, so a test sees every score record
 * and `/metrics`.
 */
import { parseConfig } from '../../../src/config/load.js';
import type { Config } from '../../../src/config/schema.js';
import { MetricsEmitter } from '../../../src/emit/metrics-emitter.js';
import { createScorerRegistry } from '../../../src/scorers/registry.js';
import { buildService, type Service } from '../../../src/service/build.js';
import { createSettings } from '../../../src/service/settings.js';
import { createLogger, Secrets } from '../../../src/telemetry/log.js';
import { RecordingEmitter } from './recording-emitter.js';

export interface TestService {
  service: Service;
  config: Config;
  recorder: RecordingEmitter;
  httpUrl: string;
  grpcPort: number;
  metricsUrl: string;
  /** The Prometheus text exposition of `/metrics`. */
  scrape(): Promise<string>;
}

type Raw = Record<string, unknown>;

function merge(base: Raw, over: Raw): Raw {
  const out: Raw = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] = b && typeof b === 'object' && !Array.isArray(b) && v && typeof v === 'object' && !Array.isArray(v) ? merge(b as Raw, v as Raw) : v;
  }
  return out;
}

/** Base config: both receivers and metrics on 127.0.0.1 port 0, stdout emitter off. `overrides` merge deeply. */
export async function startTestService(overrides: Raw = {}): Promise<TestService> {
  const raw = merge(
    {
      sources: { otlp: { http: { port: 0 }, grpc: { port: 0 } } },
      emit: { stdout: { enabled: false }, prometheus: { port: 0 } },
      sampling: { default: { rate: 1 } },
    },
    overrides,
  );
  const scorers = createScorerRegistry();
  const config = parseConfig(raw, 'reliability-test', {}, { scorers });
  const recorder = new RecordingEmitter();
  // Logs as the service's own default does in tests: silent under vitest unless TRACEJUDGE_LOG_LEVEL says otherwise.
  const secrets = new Secrets();
  const settings = createSettings(config, { env: process.env, scorers, secrets, logger: createLogger({ secrets }) });
  const service = await buildService(config, settings, { source: { kind: 'configured' }, emitters: [new MetricsEmitter(settings.telemetry), recorder] });
  await service.start();
  const ports = service.ports();
  const metricsUrl = `http://127.0.0.1:${ports.metrics ?? 0}/metrics`;
  return {
    service,
    config,
    recorder,
    httpUrl: `http://127.0.0.1:${ports.http ?? 0}`,
    grpcPort: ports.grpc ?? 0,
    metricsUrl,
    scrape: async () => (await fetch(metricsUrl)).text(),
  };
}

/** Sum of the samples of a Prometheus metric whose labels include every `labels` pair. */
export function metricSum(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const m = /^([^{\s]+)(?:\{([^}]*)\})?\s+(\S+)/.exec(line);
    if (!m || m[1] !== name) continue;
    const found: Record<string, string> = {};
    for (const pair of (m[2] ?? '').matchAll(/([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) found[pair[1] as string] = pair[2] as string;
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) sum += Number(m[3]);
  }
  return sum;
}

/** Poll `check` every `everyMs` until it returns true or `timeoutMs` passes; resolves to the last result. */
export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 50): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() >= until) return false;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
