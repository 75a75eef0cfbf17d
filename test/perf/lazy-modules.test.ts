/**
 * The heavy modules load only when the configuration needs them (issue 18, idle footprint): building the
 * service with the embedded default scorers loads neither `compromise` (completeness, grounding), nor the
 * AI SDK (`ai`, `@ai-sdk/openai`: judge scorers), nor `kafkajs` (Kafka source or emit), and starts no
 * completeness workers. Each case runs in a fresh process with a preload that records every package loaded.
 * The offline `extract` command loads no scorer implementation and nothing only `serve` needs, and, without
 * a config file, no YAML parser; OTLP/JSON input needs no protobuf reflection.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PRELOAD = fileURLToPath(new URL('./fixtures/loaded-packages.mjs', import.meta.url));
const HEAVY = ['compromise', 'ai', '@ai-sdk/openai', 'kafkajs'];

/** Builds (does not start) the service for `config` in a child process; returns the packages loaded, and the size of the completeness worker pool in its graph (null: none). */
async function packagesLoadedBuilding(config: Record<string, unknown>, afterBuild = ''): Promise<{ packages: string[]; pool: number | null }> {
  const script = `
    const { parseConfig } = await import('./src/config/load.ts');
    const { createSettings } = await import('./src/service/settings.ts');
    const { buildService } = await import('./src/service/build.ts');
    const { silentLogger } = await import('./src/telemetry/log.ts');
    const config = parseConfig(${JSON.stringify(config)}, '<test>', {});
    const settings = createSettings(config, { env: {}, logger: silentLogger(), prometheus: false });
    const service = await buildService(config, settings, { source: { kind: 'manual' } });
    ${afterBuild}
    process.stdout.write(JSON.stringify({ packages: globalThis.__loadedPackages(), pool: service.graph.components().find((c) => c.name === 'completeness-workers')?.size ?? null }));
    process.exit(0);
  `;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--import', PRELOAD, '--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { ...process.env, TRACEJUDGE_LOG_LEVEL: 'silent' },
    timeout: 60_000,
  });
  return JSON.parse(stdout) as { packages: string[]; pool: number | null };
}

const quiet = { emit: { stdout: { enabled: false }, prometheus: { enabled: false } } };

describe('lazy loading of heavy modules', () => {
  it('the embedded default scorers load no NLP, AI SDK or Kafka module and no worker pool', async () => {
    const { packages, pool } = await packagesLoadedBuilding(quiet);
    // The preload sees packages: the service's own ones are there.
    expect(packages).toContain('zod');
    expect(packages.filter((p) => HEAVY.includes(p))).toEqual([]);
    expect(pool).toBeNull();
  }, 90_000);

  it('Kafka emit configured: kafkajs still loads only with the first send', async () => {
    const { packages } = await packagesLoadedBuilding({ emit: { ...quiet.emit, kafka: { enabled: true, brokers: ['127.0.0.1:1'], topic: 't' } } });
    expect(packages).not.toContain('kafkajs');
  }, 90_000);

  it('a completeness scorer loads compromise when it parses, and sizes the pool from its workers', async () => {
    const config = { ...quiet, scorers: { completeness: { type: 'completeness', workers: 2 } } };
    const built = await packagesLoadedBuilding(config);
    expect(built.pool).toBe(2);
    expect(built.packages).not.toContain('compromise');
    const parsed = await packagesLoadedBuilding(
      { ...quiet, scorers: { completeness: { type: 'completeness', workers: 0 } } },
      `const { extractElements } = await import('./src/scorers/code/completeness/index.ts'); extractElements('The cat sat on the mat.');`,
    );
    expect(parsed.pool).toBeNull();
    expect(parsed.packages).toContain('compromise');
  }, 120_000);

  it('extract (the built CLI) loads no scorer implementation, no gRPC, no YAML parser, no protobuf reflection, and no OpenTelemetry SDK, resource or exporter (nothing reads its metrics)', async () => {
    const fixture = fileURLToPath(new URL('../fixtures/traces/aisdk6-two-tools.json', import.meta.url));
    const script = `
      process.argv = [process.argv[0], 'tracejudge', 'extract', ${JSON.stringify(fixture)}];
      const exit = process.exit;
      process.exit = (code) => { process.stderr.write('\\nPACKAGES ' + JSON.stringify(globalThis.__loadedPackages()) + '\\n'); exit(code); };
      await import('./dist/cli/main.js');
    `;
    const { stdout, stderr } = await run(process.execPath, ['--import', PRELOAD, '--input-type=module', '-e', script], { cwd: ROOT, env: { ...process.env, TRACEJUDGE_LOG_LEVEL: 'silent' }, timeout: 60_000 });
    expect(stdout).toContain('"agentName"');
    const packages = JSON.parse(/PACKAGES (.*)/.exec(stderr)?.[1] ?? 'null') as string[];
    expect(packages).toContain('zod');
    expect(packages).toContain('protobufjs'); // the minimal build, for the protobuf decoders
    const unwanted = ['keyword-extractor', 'sentiment', 'string-similarity', 'compromise', '@grpc/grpc-js', 'kafkajs', 'ai', '@ai-sdk/openai', '@opentelemetry/sdk-metrics', '@opentelemetry/resources', '@opentelemetry/core', 'yaml', 'protobufjs/reflection'];
    expect(packages.filter((p) => unwanted.includes(p) || p.startsWith('@opentelemetry/exporter-'))).toEqual([]);
  }, 90_000);
});
