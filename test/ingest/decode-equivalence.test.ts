import { describe, expect, it } from 'vitest';
import { JsonTraceSerializer, ProtobufTraceSerializer, JsonLogsSerializer, ProtobufLogsSerializer } from '@opentelemetry/otlp-transformer';
import { LoggerProvider, InMemoryLogRecordExporter, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { decodeTraceRequestJson, decodeTraceRequestProto, decodeLogsRequestJson, decodeLogsRequestProto } from '../../src/ingest/otlp/decode.js';
import { makeTestSpans } from '../../src/testing/otel-spans.js';

describe('OTLP decoders: JSON and protobuf agree', () => {
  it('decodes the same SDK spans to deep-equal Span[] from both encodings', async () => {
    const sdkSpans = await makeTestSpans(2);
    const json = JsonTraceSerializer.serializeRequest(sdkSpans);
    const proto = ProtobufTraceSerializer.serializeRequest(sdkSpans);
    expect(json).toBeDefined();
    expect(proto).toBeDefined();
    const fromJson = decodeTraceRequestJson(json as Uint8Array);
    const fromProto = decodeTraceRequestProto(proto as Uint8Array);
    expect(fromJson.rejected).toBe(0);
    expect(fromProto.rejected).toBe(0);
    expect(fromJson.spans).toHaveLength(sdkSpans.length);
    expect(fromProto.spans).toEqual(fromJson.spans);

    // And both match what the SDK recorded.
    const byId = new Map(fromProto.spans.map((s) => [s.spanId, s]));
    for (const sdk of sdkSpans) {
      const s = byId.get(sdk.spanContext().spanId);
      expect(s, sdk.name).toBeDefined();
      if (!s) continue;
      expect(s.traceId).toBe(sdk.spanContext().traceId);
      expect(s.parentSpanId).toBe(sdk.parentSpanContext?.spanId ?? '');
      expect(s.name).toBe(sdk.name);
      expect(s.kind).toBe(sdk.kind + 1);
      expect(s.startTimeUnixNano).toBe(BigInt(sdk.startTime[0]) * 1_000_000_000n + BigInt(sdk.startTime[1]));
      expect(s.status.code).toBe(sdk.status.code);
      expect(s.attributes).toEqual(sdk.attributes);
      expect(s.events.map((e) => e.name)).toEqual(sdk.events.map((e) => e.name));
      expect(s.links).toHaveLength(sdk.links.length);
      expect(s.resource.attributes).toEqual({ 'service.name': 'ingest-test', 'deployment.environment': 'test', 'service.instance.count': 3 });
      expect(s.scope).toMatchObject({ name: 'tracejudge-test', version: '1.2.3' });
    }
    const llm = fromProto.spans.find((s) => s.name === 'chat gpt-4o-mini');
    expect(llm?.attributes['test.unicode']).toBe('héllo ✓ 日本');
    expect(llm?.attributes['test.big']).toBe(2 ** 40);
    expect(llm?.links[0]?.attributes).toEqual({ 'link.kind': 'parent-ish', 'link.n': 1 });
    const tool = fromProto.spans.find((s) => s.name === 'execute_tool lookup');
    expect(tool?.status).toEqual({ code: 2, message: 'tool failed' });
    expect(tool?.events[0]?.name).toBe('exception');
    expect(tool?.events[0]?.attributes['exception.message']).toBe('boom');
  });

  it('decodes the same SDK log records to deep-equal LogRecord[] from both encodings', async () => {
    const exporter = new InMemoryLogRecordExporter();
    const provider = new LoggerProvider({ resource: resourceFromAttributes({ 'service.name': 'logs-test' }), processors: [new SimpleLogRecordProcessor({ exporter })] });
    const logger = provider.getLogger('tracejudge-logs', '0.0.1');
    logger.emit({ eventName: 'gen_ai.user.message', severityNumber: SeverityNumber.INFO, severityText: 'INFO', body: { content: 'hi', parts: [1, 'two', true] }, attributes: { 'gen_ai.system': 'openai' } });
    logger.emit({ body: 'plain', attributes: { 'event.name': 'legacy.event' } });
    await provider.forceFlush();
    const records = exporter.getFinishedLogRecords();
    const fromJson = decodeLogsRequestJson(JsonLogsSerializer.serializeRequest(records) as Uint8Array);
    const fromProto = decodeLogsRequestProto(ProtobufLogsSerializer.serializeRequest(records) as Uint8Array);
    expect(fromJson.logs).toHaveLength(2);
    expect(fromProto.logs).toEqual(fromJson.logs);
    expect(fromProto.logs[0]).toMatchObject({ eventName: 'gen_ai.user.message', severityNumber: 9, severityText: 'INFO', body: { content: 'hi', parts: [1, 'two', true] } });
    expect(fromProto.logs[1]?.eventName).toBe('legacy.event');
    await provider.shutdown();
  });
});
