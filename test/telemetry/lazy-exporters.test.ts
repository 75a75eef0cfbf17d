/**
 * The exporter packages load only when configured: a MeterProvider without Prometheus and OTLP (offline
 * commands) loads none of them, and one with OTLP over a protocol loads that protocol's exporter only.
 * Each case runs in a fresh node process so the module cache starts empty.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PACKAGES = [
  '@opentelemetry/exporter-prometheus',
  '@opentelemetry/exporter-metrics-otlp-grpc',
  '@opentelemetry/exporter-metrics-otlp-http',
  '@opentelemetry/exporter-metrics-otlp-proto',
  '@grpc/grpc-js',
];

/** The packages of {@link PACKAGES} loaded after `createMeters` with `emit` (a partial emit section). */
function loadedAfterCreateMeters(emit: object): string[] {
  const script = `
    import { createRequire } from 'node:module';
    import { emitSection } from './src/config/sections/emit.ts';
    import { createMeters } from './src/telemetry/metrics.ts';
    import { resourceFromAttributes } from '@opentelemetry/resources';
    const meters = createMeters({ emit: emitSection.parse(${JSON.stringify(emit)}), env: {}, resource: resourceFromAttributes({}) });
    const cache = Object.keys(createRequire(import.meta.url).cache);
    const loaded = ${JSON.stringify(PACKAGES)}.filter((p) => cache.some((f) => f.includes('/node_modules/' + p + '/')));
    await meters.provider.shutdown();
    process.stdout.write(JSON.stringify(loaded));
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return JSON.parse(out) as string[];
}

describe('exporters load only when configured', () => {
  it('loads no exporter package without Prometheus and OTLP', () => {
    expect(loadedAfterCreateMeters({ prometheus: { enabled: false } })).toEqual([]);
  });

  it('loads the configured protocol only', () => {
    expect(loadedAfterCreateMeters({ prometheus: { enabled: false }, otlp: { endpoint: 'http://127.0.0.1:4318', protocol: 'http/json' } })).toEqual([
      '@opentelemetry/exporter-metrics-otlp-http',
    ]);
    // The gRPC metric exporter builds on the http one (its own dependency); the protobuf one stays unloaded.
    const grpc = loadedAfterCreateMeters({ prometheus: { enabled: true }, otlp: { endpoint: 'http://127.0.0.1:4317', protocol: 'grpc' } });
    expect(grpc).toContain('@opentelemetry/exporter-prometheus');
    expect(grpc).toContain('@opentelemetry/exporter-metrics-otlp-grpc');
    expect(grpc).not.toContain('@opentelemetry/exporter-metrics-otlp-proto');
  });
});
