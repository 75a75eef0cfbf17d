import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kafka } from 'kafkajs';
import { createKafkaSource, type KafkaSource, type KafkaSourceConfig } from '../../src/ingest/kafka/source.js';
import type { OfferResult, SpanBatch, SpanSink } from '../../src/ingest/sink.js';
import { acquireBrokerLock } from './broker-lock.js';
import { componentSettings } from '../../src/component.js';
import { brokers, createTopic, haveBroker, kafkaClient, retryWhileRetriable, shutdownSource, startSource, traceMessages, uniqueName, waitFor } from './helpers.js';

/** A sink that records batches; it can refuse the next N offers and holds settles until told. */
class RecordingSink implements SpanSink {
  batches: SpanBatch[] = [];
  refuseNext = 0;
  refused = 0;
  autoSettle = true;
  offer(batch: SpanBatch): OfferResult {
    if (this.refuseNext > 0) {
      this.refuseNext--;
      this.refused++;
      return { accepted: false, reason: 'buffer_full', retryAfterMs: 200 };
    }
    this.batches.push(batch);
    if (this.autoSettle) batch.onSettled?.();
    return { accepted: true };
  }
  spanIds(): Set<string> {
    return new Set(this.batches.flatMap((b) => b.spans.map((s) => s.spanId)));
  }
}

function sourceConfig(topic: string, groupId: string): KafkaSourceConfig {
  return {
    brokers,
    topic,
    groupId,
    clientId: 'tracejudge-test',
    encoding: 'otlp_proto',
    initialOffset: 'earliest',
    commitIntervalMs: 200,
    sessionTimeoutMs: 10_000,
    heartbeatIntervalMs: 1000,
  };
}

async function committedTotal(kafka: Kafka, groupId: string, topic: string): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  const [entry] = await admin.fetchOffsets({ groupId, topics: [topic] });
  await admin.disconnect();
  return (entry?.partitions ?? []).reduce((n, p) => n + Math.max(0, Number(p.offset)), 0);
}

describe.skipIf(!haveBroker)('Kafka source on a real broker', () => {
  let kafka: Kafka;
  const sources: KafkaSource[] = [];
  let release: (() => void) | undefined;
  beforeAll(async () => {
    // Not while broker-restart.test.ts has the broker down.
    release = await acquireBrokerLock();
    kafka = kafkaClient();
  }, 320_000);
  afterAll(async () => {
    for (const s of sources) await shutdownSource(s, Date.now() + 5000);
    release?.();
  });

  it('decodes Collector-style protobuf messages, assembles across messages, and commits settled offsets only', async () => {
    const topic = uniqueName('tj-src');
    const groupId = uniqueName('g');
    await createTopic(kafka, topic, 2);
    const { traceId, messages } = traceMessages(5, 3);
    const producer = kafka.producer();
    await producer.connect();
    for (const value of messages) await producer.send({ topic, messages: [{ key: traceId, value: Buffer.from(value) }] });

    const sink = new RecordingSink();
    sink.autoSettle = false;
    const source = createKafkaSource({ config: sourceConfig(topic, groupId), sink, settings: componentSettings() });
    sources.push(source);
    await startSource(source);
    await waitFor(() => sink.batches.length === 3, 30_000, 'three messages');
    expect(sink.spanIds().size).toBe(6);
    expect(sink.batches.every((b) => b.source === 'kafka' && b.spans.every((s) => s.traceId === traceId))).toBe(true);

    await source.commit();
    expect(await committedTotal(kafka, groupId, topic)).toBe(0); // nothing settled yet

    sink.batches[0]?.onSettled?.();
    sink.batches[2]?.onSettled?.();
    await source.commit();
    expect(await committedTotal(kafka, groupId, topic)).toBe(1); // the middle message holds the watermark

    sink.batches[1]?.onSettled?.();
    await source.commit();
    expect(await committedTotal(kafka, groupId, topic)).toBe(3);
    await shutdownSource(source, Date.now() + 5000);
    await producer.disconnect();
  });

  it('sends poison messages to the dead-letter topic with headers and keeps the partition flowing', async () => {
    const topic = uniqueName('tj-poison');
    const groupId = uniqueName('g');
    await createTopic(kafka, topic, 1);
    await createTopic(kafka, `${topic}.dlq`, 1);
    const good = traceMessages(1, 1);
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({
      topic,
      messages: [
        { key: 'bad-1', value: Buffer.from([0xff, 0xff, 0xff, 0x01, 0x02]), headers: { origin: 'fuzz' } },
        { key: 'bad-2', value: Buffer.from('{"resourceSpans": 3}'), headers: { 'content-type': 'application/json' } },
        { key: good.traceId, value: Buffer.from(good.messages[0] as Uint8Array) },
      ],
    });
    const sink = new RecordingSink();
    const source = createKafkaSource({ config: sourceConfig(topic, groupId), sink, settings: componentSettings() });
    sources.push(source);
    await startSource(source);
    await waitFor(() => sink.batches.length === 1, 30_000, 'the good message');
    expect(source.stats().deadLetters).toBe(2);

    const dlq: { key: string; headers: Record<string, string> }[] = [];
    const reader = kafka.consumer({ groupId: uniqueName('dlq-reader') });
    await reader.connect();
    await retryWhileRetriable('subscribe', () => reader.subscribe({ topic: `${topic}.dlq`, fromBeginning: true }));
    await reader.run({
      eachMessage: ({ message }) => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(message.headers ?? {})) headers[k] = String(v);
        dlq.push({ key: String(message.key), headers });
        return Promise.resolve();
      },
    });
    await waitFor(() => dlq.length === 2, 30_000, 'two dead letters');
    await reader.disconnect();
    expect(dlq.map((d) => d.key)).toEqual(['bad-1', 'bad-2']);
    expect(dlq[0]?.headers).toMatchObject({ origin: 'fuzz', 'tracejudge.source.topic': topic, 'tracejudge.source.partition': '0', 'tracejudge.source.offset': '0' });
    expect(dlq[0]?.headers['tracejudge.error']).toBeTruthy();
    expect(dlq[1]?.headers['tracejudge.source.offset']).toBe('1');
    await source.commit();
    expect(await committedTotal(kafka, groupId, topic)).toBe(3);
    await shutdownSource(source, Date.now() + 5000);
    await producer.disconnect();
  });

  it('pauses on back-pressure and re-reads the refused message; nothing is lost', async () => {
    const topic = uniqueName('tj-bp');
    const groupId = uniqueName('g');
    await createTopic(kafka, topic, 1);
    const producer = kafka.producer();
    await producer.connect();
    const ids = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const t = traceMessages(2, 1);
      ids.add(t.traceId);
      await producer.send({ topic, messages: [{ key: t.traceId, value: Buffer.from(t.messages[0] as Uint8Array) }] });
    }
    const sink = new RecordingSink();
    sink.refuseNext = 3;
    const source = createKafkaSource({ config: sourceConfig(topic, groupId), sink, settings: componentSettings() });
    sources.push(source);
    await startSource(source);
    await waitFor(() => sink.batches.length === 10, 30_000, 'all ten messages after the pauses');
    expect(sink.refused).toBe(3);
    expect(source.stats().pauses).toBe(3);
    expect(new Set(sink.batches.flatMap((b) => b.spans.map((s) => s.traceId)))).toEqual(ids);
    expect(sink.spanIds().size).toBe(30);
    await shutdownSource(source, Date.now() + 5000);
    await producer.disconnect();
  });

  it('keeps the tracking of a partition it still owns after a rebalance: re-fetched messages are not offered twice and still hold the watermark', async () => {
    const topic = uniqueName('tj-rebal');
    const groupId = uniqueName('g');
    await createTopic(kafka, topic, 2);
    const producer = kafka.producer();
    await producer.connect();
    for (const partition of [0, 1]) {
      for (let i = 0; i < 3; i++) {
        const t = traceMessages(1, 1);
        await producer.send({ topic, messages: [{ key: t.traceId, partition, value: Buffer.from(t.messages[0] as Uint8Array) }] });
      }
    }
    await producer.disconnect();
    const sink = new RecordingSink();
    sink.autoSettle = false;
    const source = createKafkaSource({ config: sourceConfig(topic, groupId), sink, settings: componentSettings() });
    sources.push(source);
    await startSource(source);
    await waitFor(() => sink.batches.length === 6, 30_000, 'six messages');

    // A second member joins: an eager rebalance, after which each member owns one partition and the first
    // re-fetches its remaining partition from the committed offset (nothing committed yet).
    const other = kafka.consumer({ groupId, sessionTimeout: 10_000, heartbeatInterval: 500, maxWaitTimeInMs: 250 });
    await other.connect();
    await other.subscribe({ topic, fromBeginning: true });
    await other.run({ autoCommit: false, eachBatchAutoResolve: false, eachBatch: () => Promise.resolve() });
    try {
      await waitFor(() => source.stats().groupJoins >= 2 && source.stats().refetchedSkipped >= 3, 30_000, 'the rebalance and the re-fetch');
      expect(sink.batches).toHaveLength(6); // nothing offered twice
      const kept = source.stats();
      expect(kept.refetchedSkipped).toBe(3);
      // The held messages of the kept partition still hold its watermark back ...
      await source.commit();
      expect(await committedTotal(kafka, groupId, topic)).toBe(0);
      // ... and their settles still count after the rebalance.
      for (const b of sink.batches) b.onSettled?.();
      await source.commit();
      expect(await committedTotal(kafka, groupId, topic)).toBe(3);
    } finally {
      await other.disconnect();
    }
    await shutdownSource(source, Date.now() + 5000);
  });
});

if (!haveBroker) {
  describe('Kafka source', () => {
    it.skip('needs the broker from test/global-setup.ts (TRACEJUDGE_KAFKA=off disables it)', () => {});
  });
}
