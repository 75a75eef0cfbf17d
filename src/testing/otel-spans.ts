/**
 * Real spans made with @opentelemetry/sdk-trace-base, covering every attribute type the SDK can record,
 * events, links, status, span kinds, resource and scope: the shared fixture for ingest tests.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan, type SpanProcessor } from '@opentelemetry/sdk-trace-base';

/** Resource attributes used by `makeTestSpans`. */
export const TEST_RESOURCE = { 'service.name': 'ingest-test', 'deployment.environment': 'test', 'service.instance.count': 3 };

/** Records a small agent-like trace: root, LLM child with events and a link, failing tool child. */
export function recordTestTrace(tracer: Tracer, label = 'run'): void {
  const root = tracer.startSpan(`invoke_agent ${label}`, { kind: SpanKind.INTERNAL, attributes: { 'gen_ai.agent.name': label } }, ROOT_CONTEXT);
  const ctx = trace.setSpan(ROOT_CONTEXT, root);
  {
    const llm = tracer.startSpan('chat gpt-4o-mini', {
      kind: SpanKind.CLIENT,
      attributes: {
        'gen_ai.request.model': 'gpt-4o-mini',
        'gen_ai.usage.input_tokens': 123,
        'gen_ai.request.temperature': 0.25,
        'gen_ai.request.stream': false,
        'gen_ai.response.finish_reasons': ['stop', 'length'],
        'test.ints': [1, 2, 3],
        'test.doubles': [1.5, -2.25],
        'test.bools': [true, false],
        'test.big': 2 ** 40,
        'test.negative': -7,
        'test.unicode': 'héllo ✓ 日本',
        'test.empty': '',
      },
      links: [{ context: root.spanContext(), attributes: { 'link.kind': 'parent-ish', 'link.n': 1 } }],
    }, ctx);
    llm.addEvent('gen_ai.content.prompt', { 'gen_ai.prompt': '[{"role":"user","content":"hi"}]' });
    llm.addEvent('no-attrs');
    llm.setStatus({ code: SpanStatusCode.OK });
    llm.end();
    const tool = tracer.startSpan('execute_tool lookup', { kind: SpanKind.INTERNAL, attributes: { 'gen_ai.tool.name': 'lookup' } }, ctx);
    tool.recordException(new Error('boom'));
    tool.setStatus({ code: SpanStatusCode.ERROR, message: 'tool failed' });
    tool.end();
    for (const kind of [SpanKind.SERVER, SpanKind.PRODUCER, SpanKind.CONSUMER]) tracer.startSpan(`kind ${kind}`, { kind }, ctx).end();
  }
  root.end();
}

/** A provider with the test resource and the given processors. */
function testTracerProvider(...spanProcessors: SpanProcessor[]): BasicTracerProvider {
  return new BasicTracerProvider({ resource: resourceFromAttributes(TEST_RESOURCE), spanProcessors });
}

/** Finished `ReadableSpan`s of `traces` test traces, ready for an OTLP serializer. */
export async function makeTestSpans(traces = 2): Promise<ReadableSpan[]> {
  const exporter = new InMemorySpanExporter();
  const provider = testTracerProvider(new SimpleSpanProcessor(exporter));
  const tracer = provider.getTracer('tracejudge-test', '1.2.3');
  for (let i = 0; i < traces; i++) recordTestTrace(tracer, `agent-${i}`);
  await provider.forceFlush();
  const spans = exporter.getFinishedSpans();
  await provider.shutdown();
  return spans;
}
