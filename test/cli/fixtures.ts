/**
 * Test inputs for the CLI, produced by the real OTel SDK and serialised with @opentelemetry/otlp-transformer
 * (the same serializers the OTLP exporters use), in every input format the CLI reads.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { JsonLogsSerializer, JsonTraceSerializer, ProtobufLogsSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';

export interface Fixtures {
  dir: string;
  /** Trace A: agent root + chat child + tool child (user turn in a log event). Trace B: one agent span. */
  traceA: string;
  traceB: string;
  /** Raw serialised requests, for stdin and HTTP tests. */
  json: Uint8Array;
  proto: Uint8Array;
  path(name: string): string;
}

function recordSpans(): { a: ReadableSpan[]; b: ReadableSpan[] } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'cli-test' }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('cli-test', '1.0.0');
  // Current GenAI conventions: an agent span, a chat span and a tool span with content. The user turn of
  // trace A is carried only by a `gen_ai.user.message` log event (see recordLogs), the older event form.
  const root = tracer.startSpan(
    'invoke_agent support-agent',
    {
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': 'support-agent',
        'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'Order 42 ships today from Berlin.' }] }]),
      },
    },
    ROOT_CONTEXT,
  );
  const ctx = trace.setSpan(ROOT_CONTEXT, root);
  tracer.startSpan('chat gpt-4o-mini', { attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o-mini' } }, ctx).end();
  tracer
    .startSpan(
      'execute_tool lookup',
      {
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': 'lookup',
          'gen_ai.tool.call.id': 'call_1',
          'gen_ai.tool.call.arguments': JSON.stringify({ order: 42 }),
          'gen_ai.tool.call.result': JSON.stringify({ status: 'ships today', warehouse: 'Berlin' }),
        },
      },
      ctx,
    )
    .end();
  root.end();
  const a = exporter.getFinishedSpans().slice();
  exporter.reset();
  tracer
    .startSpan(
      'invoke_agent billing-agent',
      {
        attributes: {
          'gen_ai.operation.name': 'invoke_agent',
          'gen_ai.agent.name': 'billing-agent',
          'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Refund my last invoice.' }] }]),
          'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'Your last invoice was refunded.' }] }]),
        },
      },
      ROOT_CONTEXT,
    )
    .end();
  const b = exporter.getFinishedSpans().slice();
  return { a, b };
}

async function recordLogs(spanOf: ReadableSpan): Promise<{ json: Uint8Array; proto: Uint8Array }> {
  const exporter = new InMemoryLogRecordExporter();
  const provider = new LoggerProvider({
    resource: resourceFromAttributes({ 'service.name': 'cli-test' }),
    processors: [new SimpleLogRecordProcessor({ exporter })],
  });
  const ctx = trace.setSpanContext(ROOT_CONTEXT, spanOf.spanContext());
  provider.getLogger('cli-test').emit({
    eventName: 'gen_ai.user.message',
    severityNumber: SeverityNumber.INFO,
    body: { content: 'Where is my order?' },
    context: ctx,
  });
  await provider.forceFlush();
  const records = exporter.getFinishedLogRecords();
  if (records.length !== 1) throw new Error(`expected one log record, got ${records.length}`);
  return { json: JsonLogsSerializer.serializeRequest(records) as Uint8Array, proto: ProtobufLogsSerializer.serializeRequest(records) as Uint8Array };
}

const bytes = (u: Uint8Array | undefined): Uint8Array => {
  if (!u) throw new Error('serializer returned nothing');
  return u;
};

export async function makeFixtures(): Promise<Fixtures> {
  const dir = mkdtempSync(join(tmpdir(), 'tj-cli-'));
  const { a, b } = recordSpans();
  const all = [...a, ...b];
  const json = bytes(JsonTraceSerializer.serializeRequest(all));
  const proto = bytes(ProtobufTraceSerializer.serializeRequest(all));
  const jsonA = Buffer.from(bytes(JsonTraceSerializer.serializeRequest(a))).toString('utf8');
  const jsonB = Buffer.from(bytes(JsonTraceSerializer.serializeRequest(b))).toString('utf8');
  const logs = await recordLogs(a.find((s) => s.parentSpanContext === undefined) ?? (a[0] as ReadableSpan));
  const files: Record<string, Uint8Array | string> = {
    'traces.json': json,
    'traces.jsonl': `${jsonA}\n${jsonB}\n`,
    'lines.json': `${jsonA}\r\n\r\n${jsonB}`, // JSON lines in a .json file, CRLF and a blank line
    'traces.pb': proto,
    'traces.binpb': proto,
    'traces.json.gz': gzipSync(json),
    'traces.pb.gz': gzipSync(proto),
    'logs.json': logs.json,
    'logs.pb': logs.proto,
    'bad.json': '{\n  "resourceSpans": [\n    {"resource": }\n  ]\n}\n', // offset 36 = the '}' on line 3
    'bad-lines.json': `${jsonA}\n{"resourceSpans": [}\n`,
    'bad.pb': Buffer.from(proto).subarray(0, Math.floor(proto.length / 2)),
    'not-gzip.json.gz': json,
    'empty.json': '',
  };
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return {
    dir,
    traceA: a[0]?.spanContext().traceId ?? '',
    traceB: b[0]?.spanContext().traceId ?? '',
    json,
    proto,
    path: (name) => join(dir, name),
  };
}
