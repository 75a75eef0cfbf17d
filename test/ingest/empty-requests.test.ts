/** OTLP export requests with nothing in them: accepted (spec: unknown fields are ignored), counted and logged. */
import { Writable } from 'node:stream';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { componentSettings } from '../../src/component.js';
import { createOtlpHttpReceiver } from '../../src/ingest/http/receiver.js';
import { Telemetry } from '../../src/telemetry/instruments.js';
import { RecordingSpanSink } from '../../src/testing/recording-sink.js';
import { jsonSpan, jsonTraceRequest } from './helpers.js';
import { deadlineIn, testIngest } from './receivers.js';

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const s of stops.splice(0)) await s();
});

describe('empty OTLP export requests over HTTP', () => {
  it('answers 200, counts tracejudge.otlp.empty_requests by signal and logs one throttled warning with the count', async () => {
    const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000 });
    const provider = new MeterProvider({ readers: [reader] });
    const lines: Record<string, unknown>[] = [];
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk: Buffer, _enc, cb) {
          lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
          cb();
        },
      }),
    );
    const settings = componentSettings({ telemetry: new Telemetry(provider.getMeter('test')), logger });
    const sink = new RecordingSpanSink();
    const ingest = testIngest(sink, settings);
    const http = createOtlpHttpReceiver({ host: '127.0.0.1', port: 0, maxBodyBytes: 1 << 20, ingest, settings, isReady: () => true });
    await http.start();
    stops.push(() => http.shutdown(deadlineIn()), () => provider.shutdown());
    const post = (path: string, body: string): Promise<number> =>
      fetch(`http://127.0.0.1:${http.port}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then((r) => r.status);

    expect(await post('/v1/traces', JSON.stringify({ data: [{ traceID: 'ab', spans: [] }] }))).toBe(200);
    expect(await post('/v1/traces', '{"hello":"world"}')).toBe(200);
    expect(await post('/v1/logs', '{}')).toBe(200);
    expect(await post('/v1/traces', jsonTraceRequest([jsonSpan('a')]))).toBe(200); // not empty: not counted

    await reader.forceFlush();
    const points = exporter
      .getMetrics()
      .flatMap((rm) => rm.scopeMetrics.flatMap((sm) => sm.metrics))
      .filter((m) => m.descriptor.name === 'tracejudge.otlp.empty_requests')
      .flatMap((m) => m.dataPoints.map((p) => ({ attributes: p.attributes, value: p.value })));
    expect(points).toEqual(expect.arrayContaining([{ attributes: { signal: 'traces' }, value: 2 }, { attributes: { signal: 'logs' }, value: 1 }]));
    expect(points).toHaveLength(2);
    // Throttled: the first is written at once, the next ones within the interval are held as a count.
    const warned = lines.filter((l) => String(l.msg).startsWith('OTLP export requests with no spans or log records'));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ level: 40, count: 1, signal: 'traces', encoding: 'json' });
    expect(sink.spans).toHaveLength(1);
  });
});
