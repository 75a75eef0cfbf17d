/**
 * The service model: two services built in one process share no judge, registry, instrument, interner
 * or logger; the service graph puts every component where its data flows; and every long-lived component
 * shuts down safely twice and before it ever started.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { componentSettings, type Component } from '../../src/component.js';
import { parseConfig } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import { createEmitters } from '../../src/emit/create-emitters.js';
import { TraceAssembler } from '../../src/ingest/assembler.js';
import { createDatasetSource } from '../../src/ingest/files/dataset-source.js';
import { createFileSource } from '../../src/ingest/files/file-source.js';
import { createOtlpGrpcReceiver } from '../../src/ingest/grpc/receiver.js';
import { createOtlpHttpReceiver } from '../../src/ingest/http/receiver.js';
import { createKafkaReplay } from '../../src/ingest/kafka/replay.js';
import { createKafkaSource } from '../../src/ingest/kafka/source.js';
import { OtlpIngest } from '../../src/ingest/otlp/ingest.js';
import { Interner } from '../../src/ingest/otlp/intern.js';
import { WriteAheadLog } from '../../src/ingest/wal/log.js';
import { createPipeline } from '../../src/pipeline/pipeline.js';
import { createScorer } from '../../src/scorers/core/scorer.js';
import { ElementPool } from '../../src/scorers/code/completeness/element-pool.js';
import { buildService } from '../../src/service/build.js';
import { createSettings } from '../../src/service/settings.js';
import { createMetricsEndpoint } from '../../src/telemetry/metrics.js';
import { silentLogger } from '../../src/telemetry/log.js';
import { T1 } from '../assembler/helpers.js';

const KEY_A = 'sk-service-a-0123456789';
const KEY_B = 'sk-service-b-0123456789';

function config(extra: Record<string, unknown> = {}): Config {
  return parseConfig({ sources: { otlp: { http: { port: 0 }, grpc: { enabled: false } } }, emit: { stdout: { enabled: false }, prometheus: { port: 0 } }, ...extra }, '<test>', {});
}

describe('two services in one process', () => {
  it('share no judge, scorer registry, instrument, interner or secret', async () => {
    const cfg = config({ scorers: { similarity: { type: 'content-similarity' } }, sampling: { default: { rate: 1 } } });
    const a = createSettings(cfg, { env: { OPENAI_API_KEY: KEY_A }, logger: silentLogger() });
    const b = createSettings(cfg, { env: { OPENAI_API_KEY: KEY_B }, logger: silentLogger() });
    // Judges: each resolver has its own client, key and ports.
    expect(a.judges).not.toBe(b.judges);
    expect(a.judges.client).not.toBe(b.judges.client);
    expect(a.judges.resolve('openai/gpt-4o-mini')).not.toBe(b.judges.resolve('openai/gpt-4o-mini'));
    expect(a.judges.resolve('openai/gpt-4o-mini')).toBe(a.judges.resolve('gpt-4o-mini'));
    // Secrets: each service scrubs its own key only.
    expect(a.secrets.scrub(`${KEY_A} ${KEY_B}`)).toBe(`[REDACTED] ${KEY_B}`);
    expect(b.secrets.scrub(`${KEY_A} ${KEY_B}`)).toBe(`${KEY_A} [REDACTED]`);
    // Registries: a type defined on one is unknown to the other.
    a.scorers.define('only-in-a', { kind: 'code', options: z.strictObject({}), create: () => createScorer({ id: 'a', description: 'a' }).generateScore(() => 1) });
    expect(a.scorers.get('only-in-a')).toBeDefined();
    expect(b.scorers.get('only-in-a')).toBeUndefined();
    expect(b.scorers.check({ x: { type: 'only-in-a' } })[0]?.path).toBe('scorers.x.type');
    // Interners, key-family tables and instruments.
    expect(a.interner).not.toBe(b.interner);
    expect(a.keyFlags).not.toBe(b.keyFlags);
    expect(a.telemetry).not.toBe(b.telemetry);
    expect(a.meters.provider).not.toBe(b.meters.provider);

    // Spans offered to A are counted on A's meter only (each service scrapes its own /metrics).
    const services = await Promise.all([a, b].map((s) => buildService(cfg, s, { source: { kind: 'configured' } })));
    const [sa, sb] = services as [Awaited<ReturnType<typeof buildService>>, Awaited<ReturnType<typeof buildService>>];
    await sa.start();
    await sb.start();
    try {
      const body = JSON.stringify({
        resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 't' }, spans: [{ traceId: T1, spanId: '00000000000000a1', name: 'root', startTimeUnixNano: '1', endTimeUnixNano: '2' }] }] }],
      });
      const res = await fetch(`http://127.0.0.1:${sa.ports().http}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(res.status).toBe(200);
      const scrape = async (s: typeof sa): Promise<string> => (await fetch(`http://127.0.0.1:${s.ports().metrics}/metrics`)).text();
      expect(await scrape(sa)).toMatch(/tracejudge_spans_received_total\{[^}]*source="otlp"[^}]*\} 1/);
      expect(await scrape(sb)).not.toMatch(/tracejudge_spans_received_total\{[^}]*\} [1-9]/);
      // Each service reports its own interning tables: A interned the span name it decoded ("root"), B nothing.
      const entries = (text: string): number => Number(/^tracejudge_memory_table_entries\{[^}]*table="intern\.short"[^}]*\} (\d+)/m.exec(text)?.[1] ?? 'NaN');
      expect(entries(await scrape(sa))).toBeGreaterThanOrEqual(1);
      expect(entries(await scrape(sb))).toBe(0);
      expect(await scrape(sa)).toMatch(/^tracejudge_memory_table_bytes\{[^}]*table="intern\.short"[^}]*\} [1-9]\d*/m);
      expect(sa.assembler.bufferedTraces).toBe(1);
      expect(sb.assembler.bufferedTraces).toBe(0);
    } finally {
      await sa.shutdown(Date.now() + 5000);
      await sb.shutdown(Date.now() + 5000);
    }
  });
});

describe("a service's extraction", () => {
  it('keeps the key families of attribute keys in its settings table, across traces, and reports it in /metrics', async () => {
    const cfg = config({ assembly: { decisionWaitMs: 0 } });
    const a = createSettings(cfg, { env: {}, logger: silentLogger() });
    const b = createSettings(cfg, { env: {}, logger: silentLogger() });
    const sa = await buildService(cfg, a, { source: { kind: 'configured' } });
    const sb = await buildService(cfg, b, { source: { kind: 'configured' } });
    await sa.start();
    await sb.start();
    try {
      const span = (traceId: string, spanId: string): Record<string, unknown> => ({
        traceId,
        spanId,
        name: 'invoke_agent helper',
        startTimeUnixNano: '1',
        endTimeUnixNano: '2',
        attributes: [
          { key: 'gen_ai.operation.name', value: { stringValue: 'invoke_agent' } },
          { key: 'gen_ai.agent.name', value: { stringValue: 'helper' } },
          { key: 'custom.key', value: { stringValue: 'x' } },
        ],
      });
      const post = async (spans: Record<string, unknown>[]): Promise<void> => {
        const body = JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 't' }, spans }] }] });
        const res = await fetch(`http://127.0.0.1:${sa.ports().http}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        expect(`${res.status} ${await res.text()}`).toMatch(/^200 /);
      };
      const entries = (): number => a.keyFlags.tables()[0]?.entries ?? 0;
      const handled = async (n: number): Promise<void> => {
        for (let i = 0; i < 500 && (sa.pipeline?.stats().tracesDone ?? 0) < n; i++) await new Promise((r) => setTimeout(r, 10));
        expect(sa.pipeline?.stats().tracesDone).toBe(n);
      };
      await post([span(T1, '00000000000000a1')]);
      await handled(1);
      // The three keys, once each; a second trace with the same keys adds none (the table outlives the trace).
      expect(entries()).toBe(3);
      await post([span('0123456789abcdef0123456789abcdef', '00000000000000b1')]);
      await handled(2);
      expect(entries()).toBe(3);
      expect(b.keyFlags.tables()[0]?.entries).toBe(0);
      const scrape = async (s: typeof sa): Promise<string> => (await fetch(`http://127.0.0.1:${s.ports().metrics}/metrics`)).text();
      expect(await scrape(sa)).toMatch(/^tracejudge_memory_table_entries\{[^}]*table="extract\.key_flags"[^}]*\} 3$/m);
      expect(await scrape(sa)).toMatch(/^tracejudge_memory_table_bytes\{[^}]*table="extract\.key_flags"[^}]*\} [1-9]\d*/m);
      expect(await scrape(sb)).toMatch(/^tracejudge_memory_table_entries\{[^}]*table="extract\.key_flags"[^}]*\} 0$/m);
    } finally {
      await sa.shutdown(Date.now() + 5000);
      await sb.shutdown(Date.now() + 5000);
    }
  });
});

describe('the service graph', () => {
  it('puts every component where its data flows: intake first, then assembly, scoring, emitters, acknowledgements, own telemetry', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tj-graph-'));
    try {
      const cfg = config({
        sources: { otlp: { http: { port: 0 }, grpc: { port: 0 }, wal: { enabled: true, dir: join(dir, 'wal') } }, kafka: { enabled: true, brokers: ['127.0.0.1:1'] } },
        scorers: { completeness: { type: 'completeness', workers: 1 } },
        emit: { stdout: { enabled: false }, jsonl: { path: join(dir, 's.jsonl') }, prometheus: { port: 0 } },
      });
      const settings = createSettings(cfg, { env: {}, logger: silentLogger() });
      const service = await buildService(cfg, settings, { source: { kind: 'configured' }, configPath: join(dir, 'tracejudge.yaml'), watchConfig: true });
      const levels = service.graph.shutdownLevels();
      const level = (name: string): number => levels.findIndex((l) => l.includes(name));
      for (const [before, after] of [
        ['otlp-http', 'wal-replay'],
        ['otlp-grpc', 'wal-replay'],
        ['wal-replay', 'assembler'],
        ['kafka:fetch', 'assembler'],
        ['config-watcher', 'pipeline'],
        ['assembler', 'pipeline'],
        ['pipeline', 'completeness-workers'],
        ['pipeline', 'jsonl'],
        ['jsonl', 'wal'],
        ['jsonl', 'kafka:offsets'],
        ['wal', 'metrics-endpoint'],
        ['kafka:offsets', 'metrics-endpoint'],
        ['metrics', 'metrics-endpoint'],
      ] as const) {
        expect(level(before), `${before} before ${after}: ${JSON.stringify(levels)}`).toBeLessThan(level(after));
      }
      // The metrics endpoint comes last; the metrics emitter sits with the other emitters.
      expect(levels.at(-1)).toEqual(['metrics-endpoint']);
      expect(level('metrics')).toBe(level('jsonl'));
      await service.shutdown(Date.now() + 5000);
      await settings.meters.provider.shutdown().catch(() => undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('every long-lived component', () => {
  /** Each factory makes a fresh component; the test shuts it down before start, twice. */
  const factories: Record<string, () => Component> = {
    'otlp-http': () => {
      const assembler = new TraceAssembler({ onTrace: () => Promise.resolve() });
      const ingest = new OtlpIngest({ sink: assembler, settings: { ...componentSettings(), interner: new Interner() } });
      return createOtlpHttpReceiver({ host: '127.0.0.1', port: 0, maxBodyBytes: 1024, ingest, settings: componentSettings(), isReady: () => true });
    },
    'otlp-grpc': () => {
      const assembler = new TraceAssembler({ onTrace: () => Promise.resolve() });
      const ingest = new OtlpIngest({ sink: assembler, settings: { ...componentSettings(), interner: new Interner() } });
      return createOtlpGrpcReceiver({ host: '127.0.0.1', port: 0, maxMessageBytes: 1024, ingest, settings: componentSettings() });
    },
    assembler: () => new TraceAssembler({ onTrace: () => Promise.resolve() }),
    'kafka:fetch': () => kafka().fetch,
    'kafka:offsets': () => kafka().offsets,
    'kafka-replay': () => replay().fetch,
    'kafka-replay:offsets': () => replay().offsets,
    wal: () => new WriteAheadLog({ dir: join(tmpdir(), `tj-wal-never-${process.pid}-${Math.random()}`), fsync: 'never', segmentBytes: 1 << 20, maxBytes: 1 << 24, checkpointIntervalMs: 1000 }),
    pipeline: () =>
      createPipeline({ scorers: [], emitter: createEmitters(config(), { settings: emitSettings() })[0] as never, source: 'otlp', judgeConcurrency: 1, maxQueuedJudgeEvaluations: 1, settings: componentSettings() }),
    'completeness-workers': () => new ElementPool(1),
    'metrics-endpoint': () => {
      const settings = createSettings(config(), { env: {}, logger: silentLogger() });
      return createMetricsEndpoint({ meters: settings.meters, host: '127.0.0.1', port: 0, logger: silentLogger() });
    },
    files: () => createFileSource({ paths: ['-'], sink: new TraceAssembler({ onTrace: () => Promise.resolve() }), settings: { ...componentSettings(), interner: new Interner() } }),
    dataset: () => createDatasetSource({ file: 'd.jsonl', items: [{ line: 1, input: 'a', output: 'b' }], concurrency: 1, score: () => Promise.resolve(), now: Date.now }),
  };
  for (const e of createEmitters(config({ emit: { stdout: { enabled: true }, jsonl: { path: join(tmpdir(), 'tj-never.jsonl') }, prometheus: { enabled: false } } }), { settings: emitSettings() })) {
    factories[`emitter ${e.name}`] = () => createEmitters(config({ emit: { stdout: { enabled: true }, jsonl: { path: join(tmpdir(), 'tj-never.jsonl') }, prometheus: { enabled: false } } }), { settings: emitSettings() }).find((x) => x.name === e.name) as Component;
  }

  for (const [name, make] of Object.entries(factories)) {
    it(`${name}: shutdown before start resolves, twice, and nothing is left running`, async () => {
      const c = make();
      const deadline = Date.now() + 2000;
      await expect(Promise.all([c.shutdown(deadline), c.shutdown(deadline)])).resolves.toBeDefined();
      await expect(c.shutdown(deadline)).resolves.toBeUndefined();
    });
  }

  it('started components shut down twice (the second call is the first call’s promise)', async () => {
    const assembler = new TraceAssembler({ onTrace: () => Promise.resolve() });
    const ingest = new OtlpIngest({ sink: assembler, settings: { ...componentSettings(), interner: new Interner() } });
    const http = createOtlpHttpReceiver({ host: '127.0.0.1', port: 0, maxBodyBytes: 1024, ingest, settings: componentSettings(), isReady: () => true });
    const pool = new ElementPool(1);
    for (const c of [assembler, http, pool] as Component[]) {
      await c.start();
      const deadline = Date.now() + 5000;
      const first = c.shutdown(deadline);
      expect(c.shutdown(deadline)).toBe(first);
      await first;
    }
    await expect(fetch(`http://127.0.0.1:${http.port}/healthz`)).rejects.toThrow();
  });
});

function emitSettings(): Parameters<typeof createEmitters>[1]['settings'] {
  const s = createSettings(config(), { env: {}, logger: silentLogger() });
  return s;
}

function kafka(): ReturnType<typeof createKafkaSource> {
  return createKafkaSource({
    config: {
      brokers: ['127.0.0.1:1'],
      topic: 't',
      groupId: 'g',
      clientId: 'c',
      encoding: 'otlp_proto',
      initialOffset: 'latest',
      commitIntervalMs: 1000,
      sessionTimeoutMs: 10_000,
      heartbeatIntervalMs: 1000,
    },
    sink: new TraceAssembler({ onTrace: () => Promise.resolve() }),
    settings: componentSettings(),
  });
}

function replay(): ReturnType<typeof createKafkaReplay> {
  return createKafkaReplay({
    kafka: { brokers: ['127.0.0.1:1'], topic: 't', groupId: 'g', clientId: 'c', encoding: 'otlp_proto', initialOffset: 'earliest', commitIntervalMs: 1000, sessionTimeoutMs: 10_000, heartbeatIntervalMs: 1000 },
    topic: 't',
    fromBeginning: true,
    untilEnd: true,
    sink: new TraceAssembler({ onTrace: () => Promise.resolve() }),
    settings: componentSettings(),
  });
}

