/**
 * A Kafka source whose brokers are not up when `tracejudge serve` starts (issue 32, item 3): the service stays
 * up and not ready (/readyz 503 naming Kafka and `sources.kafka.brokers`), warns once, connects when a broker
 * comes up on that address and scores what is produced; with `sources.kafka.startupTimeoutMs` it gives up with
 * one line naming the key. The broker is the test's own (scripts/kafka/start.sh on free ports), started late.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, tempDir, type ServeProcess } from '../reliability/helpers/serve-process.js';
import { waitUntil } from '../reliability/helpers/service.js';
import { collectorMessages, fixtureTrace } from '../kafka/collector-messages.js';
import { privateBroker, type PrivateBroker } from './private-broker.js';

const readyz = async (url: string): Promise<{ status: number; body: string }> => {
  try {
    const res = await fetch(url);
    return { status: res.status, body: await res.text() };
  } catch (err) {
    return { status: 0, body: String(err) };
  }
};

const config = (brokerAddress: string, extra: string, jsonl?: string): string => `
sources:
  otlp: { http: { port: 0 }, grpc: { enabled: false } }
  kafka: { enabled: true, brokers: ["${brokerAddress}"], topic: late_spans, groupId: tj-late, initialOffset: earliest${extra} }
assembly: { decisionWaitMs: 300 }
emit: { stdout: { enabled: false }, prometheus: { port: 0 }${jsonl ? `, jsonl: { path: ${JSON.stringify(jsonl)} }` : ''} }
`;

describe.sequential('Kafka source whose broker is not up at start (private broker)', () => {
  let broker: PrivateBroker;
  const serves: ServeProcess[] = [];

  beforeAll(async () => {
    // Not started: nothing listens on its address until the test starts it.
    broker = await privateBroker();
  });

  afterAll(async () => {
    for (const s of serves) {
      if (s.alive()) {
        s.child.kill('SIGTERM');
        await s.exited;
      }
    }
    await broker.dispose();
  }, 60_000);

  it('gives up after sources.kafka.startupTimeoutMs with one line naming the key and the brokers, exit 1', async () => {
    const dir = tempDir('kafka-late-timeout', { 'tracejudge.yaml': config(broker.address, ', startupTimeoutMs: 2000') });
    const serve = startServe(join(dir, 'tracejudge.yaml'));
    serves.push(serve);
    await serve.started(60_000);
    const { code } = await serve.exited;
    expect(code).toBe(1);
    const plain = serve
      .stderr()
      .split('\n')
      .filter((l) => l.trim() !== '' && !l.startsWith('{'));
    expect(plain).toEqual([`tracejudge: kafka: sources.kafka.brokers ${broker.address} did not answer within sources.kafka.startupTimeoutMs (2000 ms): ${plain[0]?.split('(2000 ms): ')[1] ?? ''}`]);
    expect(plain[0]).toMatch(/ECONNREFUSED/);
    // No error lines, no stack traces: KafkaJS's connection errors are debug lines while the source waits.
    expect(serve.logs().filter((l) => Number(l.level) >= 50)).toEqual([]);
    expect(serve.stderr()).not.toMatch(/\n\s+at /);
  }, 90_000);

  it('stays up and not ready while no broker answers, warns once, then connects and scores once one comes up', async ({ annotate }) => {
    const dir = tempDir('kafka-late', {});
    const jsonl = join(dir, 'scores.jsonl');
    writeFileSync(join(dir, 'tracejudge.yaml'), config(broker.address, '', jsonl));
    const serve = startServe(join(dir, 'tracejudge.yaml'));
    serves.push(serve);
    const ports = await serve.started(60_000);
    const base = `http://127.0.0.1:${ports.metrics ?? 0}`;

    // Waiting: the other receivers and /readyz are up; /readyz names Kafka and the brokers.
    let answer = { status: 0, body: '' };
    expect(await waitUntil(async () => {
      answer = await readyz(`${base}/readyz`);
      return answer.status === 503 && answer.body.includes('sources.kafka.brokers');
    }, 20_000)).toBe(true);
    expect(answer.body).toMatch(new RegExp(`^not ready\\nkafka: cannot reach sources\\.kafka\\.brokers ${broker.address.replace(/\./g, '\\.')} \\(`));
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${ports.http ?? 0}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(200);
    // Let a few attempts pass: still one warn line for the series.
    await new Promise((r) => setTimeout(r, 4000));
    const warns = serve.logs().filter((l) => Number(l.level) === 40 && l.component === 'kafka-source');
    expect(warns.map((w) => w.msg)).toEqual([expect.stringContaining('cannot reach sources.kafka.brokers')]);
    expect(serve.logs().filter((l) => Number(l.level) >= 50)).toEqual([]);
    expect(serve.alive()).toBe(true);

    // The broker comes up on that address: the source connects, /readyz turns 200, produced traces are scored.
    const up = Date.now();
    await broker.start();
    const kafka = new Kafka({ clientId: 'tj-late-test', brokers: [broker.address], logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'late_spans', numPartitions: 1 }], waitForLeaders: true });
    await admin.disconnect();
    expect(await waitUntil(async () => (await readyz(`${base}/readyz`)).status === 200, 90_000, 250)).toBe(true);
    await annotate(`ready ${((Date.now() - up) / 1000).toFixed(1)} s after the broker start began`);
    expect(serve.logs().some((l) => l.msg === 'kafka source started')).toBe(true);

    const traceId = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    for (const m of collectorMessages([fixtureTrace('aisdk6-two-tools', traceId)])) await producer.send({ topic: 'late_spans', messages: [m] });
    await producer.disconnect();
    const scored = (): boolean => existsSync(jsonl) && readFileSync(jsonl, 'utf8').split('\n').some((l) => l.includes(traceId));
    expect(await waitUntil(async () => Promise.resolve(scored()), 30_000, 250)).toBe(true);
    expect(serve.logs().filter((l) => Number(l.level) >= 50)).toEqual([]);
  }, 240_000);
});
