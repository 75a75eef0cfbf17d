/** Shared helpers for tests against the real broker started by test/global-setup.ts. */
import { randomBytes } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { context, trace } from '@opentelemetry/api';
import type { KafkaSource } from '../../src/ingest/kafka/source.js';

export const brokers = process.env.TRACEJUDGE_TEST_KAFKA ? [process.env.TRACEJUDGE_TEST_KAFKA] : [];
export const haveBroker = brokers.length > 0;

export function kafkaClient(): Kafka {
  return new Kafka({ clientId: 'tracejudge-test', brokers, logLevel: logLevel.NOTHING });
}

export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
}

export async function createTopic(kafka: Kafka, topic: string, numPartitions: number): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions }], waitForLeaders: true });
  await admin.disconnect();
}

/**
 * Makes real spans with the OTel SDK: one trace with a root and `children` child spans, and returns the
 * OTLP protobuf ExportTraceServiceRequest bytes the way the Collector's Kafka exporter writes them,
 * split into `parts` messages (children spread over them, the root in the last one).
 */
export function traceMessages(children: number, parts = 1): { traceId: string; messages: Uint8Array[] } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('kafka-test');
  const root = tracer.startSpan('invoke_agent test-agent', { attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'test-agent' } });
  const ctx = trace.setSpan(context.active(), root);
  for (let i = 0; i < children; i++) {
    tracer.startSpan(`execute_tool t${i}`, { attributes: { 'gen_ai.tool.name': `t${i}` } }, ctx).end();
  }
  root.end();
  const spans = exporter.getFinishedSpans();
  const traceId = root.spanContext().traceId;
  const rootSpan = spans.find((s) => s.spanContext().spanId === root.spanContext().spanId);
  const others = spans.filter((s) => s !== rootSpan);
  const groups: (typeof spans)[] = Array.from({ length: parts }, () => []);
  others.forEach((s, i) => groups[i % parts]?.push(s));
  if (rootSpan) groups[parts - 1]?.push(rootSpan);
  const messages = groups.map((g) => {
    const bytes = ProtobufTraceSerializer.serializeRequest(g);
    if (!bytes) throw new Error('serializer returned nothing');
    return bytes;
  });
  return { traceId, messages };
}

/**
 * `op` retried while the broker answers with a retriable error, as it does for a topic created a moment ago
 * whose partitions it does not serve yet ("This server does not host this topic-partition"); other errors,
 * and the last one after `timeoutMs`, are thrown.
 */
export async function retryWhileRetriable<T>(what: string, op: () => Promise<T>, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await op();
    } catch (err) {
      const e = err as { retriable?: unknown; originalError?: { retriable?: unknown }; message?: string };
      const retriable = e.retriable === true || e.originalError?.retriable === true || /does not host this topic-partition/.test(e.message ?? '');
      if (!retriable || Date.now() > end) throw new Error(`${what}: ${(err as Error).message}`, { cause: err });
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

export async function waitFor(cond: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** Starts a Kafka source the way the service does: the commit timer, then the consumer. */
export async function startSource(source: KafkaSource): Promise<void> {
  await source.offsets.start();
  await source.fetch.start();
}

/** Stops a Kafka source: stops fetching, waits for in-flight records (by `deadline`), commits, leaves the group. */
export function shutdownSource(source: KafkaSource, deadline: number): Promise<void> {
  return source.offsets.shutdown(deadline);
}
