/**
 * A normal start and shutdown of `tracejudge serve` with a Kafka source and the Kafka emitter, against the real
 * broker, logs nothing at warn level or above (pino levels ≥ 40): the KafkaJS partitioner notice is not
 * printed, and the transient "This server does not host this topic-partition" answers KafkaJS retries while a
 * topic is being created (here: the score topic, auto-created by the first send, and the source topic when it
 * does not exist yet) are debug lines. A real problem still shows: a source topic that never appears is an error.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kafka, Producer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireBrokerLock } from './broker-lock.js';
import { collectorMessages, fixtureTraces } from './collector-messages.js';
import { brokers, createTopic, haveBroker, kafkaClient, retryWhileRetriable, uniqueName } from './helpers.js';
import { childEnv, CliChild, readJsonl, startServe, until, type LogLine } from './serve-child.js';
import { produce } from './topic.js';

let kafka: Kafka;
let producer: Producer;
let dir: string;
let release: (() => void) | undefined;
const children: CliChild[] = [];

/** Log lines at pino level warn (40) or above. */
const loud = (logs: readonly LogLine[]): LogLine[] => logs.filter((l) => typeof l.level === 'number' && l.level >= 40);

/** A serve config: the Kafka source on `topic`, records to `jsonl` and, with `scores`, to that Kafka topic. */
function writeConfig(name: string, o: { topic: string; jsonl: string; scores?: string }): string {
  const path = join(dir, name);
  const yaml = [
    'sources:',
    '  otlp: { http: { enabled: false }, grpc: { enabled: false } }',
    '  kafka:',
    '    enabled: true',
    `    brokers: ${JSON.stringify(brokers)}`,
    `    topic: ${JSON.stringify(o.topic)}`,
    `    groupId: ${JSON.stringify(uniqueName('quiet-group'))}`,
    '    initialOffset: earliest',
    '    commitIntervalMs: 200',
    'assembly: { decisionWaitMs: 300, tickMs: 50 }',
    'scorers: { keywords: { type: keyword-coverage } }',
    'sampling: { default: { rate: 1 } }',
    'emit:',
    '  stdout: { enabled: false }',
    `  jsonl: { path: ${JSON.stringify(o.jsonl)} }`,
    '  prometheus: { enabled: false }',
    ...(o.scores ? ['  kafka:', '    enabled: true', `    brokers: ${JSON.stringify(brokers)}`, `    topic: ${JSON.stringify(o.scores)}`] : []),
    'telemetry: { shutdownTimeoutMs: 15000 }',
    '',
  ].join('\n');
  writeFileSync(path, yaml);
  return path;
}

/** Every message the score topic holds, as parsed JSON values. */
async function scoreMessages(topic: string, expected: number): Promise<unknown[]> {
  const out: unknown[] = [];
  const reader = kafka.consumer({ groupId: uniqueName('quiet-reader'), maxWaitTimeInMs: 250 });
  await reader.connect();
  try {
    // The emitter's producer created the topic a moment ago: its partitions may not be served yet.
    await retryWhileRetriable(`subscribe to ${topic}`, () => reader.subscribe({ topic, fromBeginning: true }));
    await reader.run({
      eachMessage: ({ message }) => {
        out.push(JSON.parse(String(message.value)));
        return Promise.resolve();
      },
    });
    await until(`${expected} score messages on ${topic}`, 30_000, () => (out.length >= expected ? true : undefined));
  } finally {
    await reader.disconnect();
  }
  return out;
}

describe.skipIf(!haveBroker).sequential('quiet logs with Kafka (real broker, child processes)', () => {
  beforeAll(async () => {
    release = await acquireBrokerLock();
    dir = mkdtempSync(join(tmpdir(), 'tj-kafka-quiet-'));
    kafka = kafkaClient();
    producer = kafka.producer();
    await producer.connect();
  }, 320_000);

  afterAll(async () => {
    for (const c of children) await c.kill();
    await producer?.disconnect();
    rmSync(dir, { recursive: true, force: true });
    release?.();
  });

  it('a start that scores a trace, emits its records to a new Kafka topic and shuts down logs nothing at warn or error', async () => {
    const topic = uniqueName('quiet-spans');
    const scores = uniqueName('quiet-scores');
    await createTopic(kafka, topic, 2);
    const jsonl = join(dir, 'a.jsonl');
    const config = writeConfig('a.yaml', { topic, jsonl, scores });
    const child = await startServe(config);
    children.push(child);
    const traces = fixtureTraces('quiet-logs', 2);
    await retryWhileRetriable(`produce to ${topic}`, () => produce(producer, topic, collectorMessages(traces)));
    // Records were scored and written (the JSON-lines file), so the Kafka emitter sent them too.
    const records = await until('score records in the JSONL file', 30_000, () => {
      const r = readJsonl(jsonl);
      return r.length >= 1 ? r : undefined;
    });
    const onKafka = await scoreMessages(scores, records.length);
    expect(onKafka.length).toBeGreaterThanOrEqual(records.length);
    expect(await child.stop()).toBe(0);
    expect(child.log('tracejudge stopped')).toBeDefined();
    expect(loud(child.logs())).toEqual([]);
    // The KafkaJS notices went somewhere: as debug lines, not dropped silently.
    expect(child.stderr).not.toContain('switched default partitioner');
  }, 120_000);

  it('a source topic that does not exist yet (the broker auto-creates it) is waited for quietly', async () => {
    const topic = uniqueName('quiet-new-spans');
    const jsonl = join(dir, 'b.jsonl');
    const config = writeConfig('b.yaml', { topic, jsonl });
    const child = await startServe(config, childEnv({}, 'info'));
    children.push(child);
    expect(await child.stop()).toBe(0);
    expect(loud(child.logs())).toEqual([]);
    expect(child.log('kafka: waiting for the topic to exist')).toBeDefined();
  }, 120_000);

  it('a real problem still shows: a topic the broker refuses fails the start with an error naming it', async () => {
    const topic = `${uniqueName('quiet')}/not a valid name`;
    const config = writeConfig('c.yaml', { topic, jsonl: join(dir, 'c.jsonl') });
    const child = new CliChild(['serve', '-c', config], childEnv({}, 'info'));
    children.push(child);
    const code = await Promise.race([child.exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 60_000))]);
    expect(code).toBe(1);
    expect(child.stderr.split('\n').find((l) => l.startsWith('tracejudge: '))).toContain(`cannot subscribe to topic ${JSON.stringify(topic)} (sources.kafka.topic) on `);
  }, 90_000);
});
