import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExportResultCode } from '@opentelemetry/core';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { RecordingSpanSink } from '../../src/testing/recording-sink.js';
import { makeTestSpans } from '../../src/testing/otel-spans.js';
import type { Span } from '../../src/model/span.js';
import { exporterFor, exportSpans, startReceivers, type ExporterKind, type Running } from './receivers.js';

const kinds: ExporterKind[] = ['http-json', 'http-proto', 'grpc'];
const byId = (a: Span, b: Span): number => (a.spanId < b.spanId ? -1 : a.spanId > b.spanId ? 1 : 0);

describe('real OTel exporters → OTLP receivers', () => {
  const sinks = new Map<ExporterKind, RecordingSpanSink>(kinds.map((k) => [k, new RecordingSpanSink()]));
  const running = new Map<ExporterKind, Running>();
  let spans: ReadableSpan[] = [];

  beforeAll(async () => {
    spans = await makeTestSpans(3);
    for (const k of kinds) running.set(k, await startReceivers(sinks.get(k) as RecordingSpanSink));
  });
  afterAll(async () => {
    for (const r of running.values()) await r.stop();
  });

  it.each(kinds)('%s exporter delivers every span, with the bearer token', async (kind) => {
    const exporter = exporterFor(kind, running.get(kind) as Running);
    const result = await exportSpans(exporter, spans);
    await exporter.shutdown();
    expect(result.error?.message).toBeUndefined();
    expect(result.code).toBe(ExportResultCode.SUCCESS);
    const sink = sinks.get(kind) as RecordingSpanSink;
    expect(sink.spans).toHaveLength(spans.length);
    expect(sink.batches.every((b) => b.source === 'otlp' && b.logs.length === 0)).toBe(true);
    expect(new Set(sink.spans.map((s) => s.spanId))).toEqual(new Set(spans.map((s) => s.spanContext().spanId)));
  });

  it('all three exporters yield the same spans', () => {
    const [a, b, c] = kinds.map((k) => [...(sinks.get(k) as RecordingSpanSink).spans].sort(byId));
    expect(a?.length).toBe(spans.length);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    const tool = a?.find((s) => s.name === 'execute_tool lookup');
    expect(tool?.status).toEqual({ code: 2, message: 'tool failed' });
    expect(tool?.resource.attributes['service.name']).toBe('ingest-test');
  });

  it.each(kinds)('%s exporter with a wrong token is refused and nothing is kept', async (kind) => {
    const sink = sinks.get(kind) as RecordingSpanSink;
    const before = sink.spans.length;
    const exporter = exporterFor(kind, running.get(kind) as Running, 'wrong');
    const result = await exportSpans(exporter, spans);
    await exporter.shutdown();
    expect(result.code).toBe(ExportResultCode.FAILED);
    expect(String(result.error?.message)).toMatch(/401|UNAUTHENTICATED|Unauthorized|bearer/i);
    expect(sink.spans).toHaveLength(before);
  });
});
