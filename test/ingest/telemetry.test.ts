import { describe, expect, it } from 'vitest';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { componentSettings } from '../../src/component.js';
import { Telemetry } from '../../src/telemetry/instruments.js';
import { RecordingSpanSink } from '../../src/testing/recording-sink.js';
import { jsonSpan, jsonTraceRequest } from './helpers.js';
import { testIngest } from './receivers.js';

describe('ingest self-telemetry', () => {
  it('counts spans.received and spans.rejected with source=otlp', async () => {
    const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000 });
    const provider = new MeterProvider({ readers: [reader] });
    const settings = componentSettings({ telemetry: new Telemetry(provider.getMeter('test')) });
    const sink = new RecordingSpanSink();
    const ingest = testIngest(sink, settings);
    await ingest.accept('traces', 'json', Buffer.from(jsonTraceRequest([jsonSpan('a'), jsonSpan('b'), { ...jsonSpan('bad'), spanId: 'x' }])));
    sink.refuseAll();
    const refused = await ingest.accept('traces', 'json', Buffer.from(jsonTraceRequest([jsonSpan('c')])));
    expect(refused.kind).toBe('refused');
    await reader.forceFlush();
    const points = exporter
      .getMetrics()
      .flatMap((rm) => rm.scopeMetrics.flatMap((sm) => sm.metrics))
      .flatMap((m) => m.dataPoints.map((p) => ({ name: m.descriptor.name, attributes: p.attributes, value: p.value })));
    expect(points).toEqual(
      expect.arrayContaining([
        { name: 'tracejudge.spans.received', attributes: { source: 'otlp' }, value: 2 },
        { name: 'tracejudge.spans.rejected', attributes: { source: 'otlp', reason: 'invalid' }, value: 1 },
        { name: 'tracejudge.spans.rejected', attributes: { source: 'otlp', reason: 'backpressure' }, value: 1 },
      ]),
    );
    await provider.shutdown();
  });
});
