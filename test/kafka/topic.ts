/** Topic-level helpers for the process tests: producing Collector-style messages, offsets, DLQ reading. */
import type { Kafka, Producer } from 'kafkajs';
import type { CollectorMessage } from './collector-messages.js';
import { retryWhileRetriable, uniqueName, waitFor } from './helpers.js';

/** Produce messages one request each (like a Collector exporter flushing small batches). */
export async function produce(producer: Producer, topic: string, messages: readonly CollectorMessage[]): Promise<void> {
  for (const m of messages) await producer.send({ topic, messages: [{ key: m.key, value: m.value }] });
}

/** Sum over partitions of the high watermarks. */
export async function endOffsets(kafka: Kafka, topic: string): Promise<Map<number, number>> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    return new Map((await admin.fetchTopicOffsets(topic)).map((o) => [o.partition, Number(o.high)]));
  } finally {
    await admin.disconnect();
  }
}

/** Committed offsets of a group per partition (-1 when none). */
export async function committedOffsets(kafka: Kafka, groupId: string, topic: string): Promise<Map<number, number>> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const [entry] = await admin.fetchOffsets({ groupId, topics: [topic] });
    return new Map((entry?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]));
  } finally {
    await admin.disconnect();
  }
}

/** Partitions assigned per member of a group (as the broker sees it). */
export async function groupAssignment(kafka: Kafka, groupId: string): Promise<{ state: string; members: number }> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const { groups } = await admin.describeGroups([groupId]);
    const g = groups[0];
    return { state: g?.state ?? 'unknown', members: g?.members.length ?? 0 };
  } finally {
    await admin.disconnect();
  }
}

export interface DeadLetter {
  key: string;
  headers: Record<string, string>;
}

/** Read `count` messages of a dead-letter topic from the beginning. */
export async function readDeadLetters(kafka: Kafka, topic: string, count: number, timeoutMs = 20_000): Promise<DeadLetter[]> {
  const out: DeadLetter[] = [];
  const reader = kafka.consumer({ groupId: uniqueName('dlq-reader'), maxWaitTimeInMs: 250 });
  await reader.connect();
  try {
    await retryWhileRetriable('subscribe', () => reader.subscribe({ topic, fromBeginning: true }));
    await reader.run({
      eachMessage: ({ message }) => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(message.headers ?? {})) headers[k] = String(v);
        out.push({ key: String(message.key), headers });
        return Promise.resolve();
      },
    });
    await waitFor(() => out.length >= count, timeoutMs, `${count} dead letters on ${topic}`);
  } finally {
    await reader.disconnect();
  }
  return out;
}
