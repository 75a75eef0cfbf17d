/**
 * Kafka emit built from the config (`createEmitters`): the sender loads kafkajs on its first send
 * (src/emit/create-emitters.ts) and then publishes like the KafkaSender it wraps.
 */
import { Socket } from 'node:net';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { createEmitters } from '../../src/emit/create-emitters.js';
import { FanoutEmitter } from '../../src/emit/fanout.js';
import type { ScoreRecord } from '../../src/model/score-record.js';
import { createSettings } from '../../src/service/settings.js';
import { silentLogger } from '../../src/telemetry/log.js';
import { acquireBrokerLock } from '../kafka/broker-lock.js';
import { scoreRecord } from './records.js';
import { retryWhileRetriable } from '../kafka/helpers.js';

const BROKER = '127.0.0.1:9092';

function brokerAnswers(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(9092, '127.0.0.1', () => done(true));
  });
}

const release = process.env.TRACEJUDGE_TEST_KAFKA ? await acquireBrokerLock() : () => {};
const haveBroker = await brokerAnswers();
afterAll(() => release());
const topic = `tracejudge_scores_config_test_${process.pid}_${Date.now()}`;

describe.skipIf(!haveBroker)(`Kafka emit from the config (skipped: no broker on ${BROKER})`, () => {
  const config = parseConfig({ emit: { stdout: { enabled: false }, prometheus: { enabled: false }, kafka: { enabled: true, brokers: [BROKER], topic } } }, '<test>', {});
  const settings = createSettings(config, { env: {}, logger: silentLogger(), prometheus: false });
  const emitter = new FanoutEmitter(createEmitters(config, { settings }));
  const kafka = new Kafka({ clientId: 'tracejudge-emit-config-test-reader', brokers: [BROKER], logLevel: logLevel.NOTHING });
  afterAll(async () => {
    await emitter.shutdown(Date.now() + 5000);
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect();
  });

  it('publishes the records of an emit call to the configured topic, keyed by trace id', async () => {
    const records: ScoreRecord[] = [scoreRecord(), scoreRecord({ scorer: 'similarity' })];
    await emitter.start();
    expect(await emitter.emit(records)).toEqual({ code: 'success' });
    const consumer = kafka.consumer({ groupId: `${topic}-reader` });
    const got: Array<{ key: string; value: ScoreRecord }> = [];
    await consumer.connect();
    await retryWhileRetriable('subscribe', () => consumer.subscribe({ topic, fromBeginning: true }));
    await consumer.run({
      eachMessage: ({ message }) => {
        got.push({ key: message.key?.toString('utf8') ?? '', value: JSON.parse(message.value?.toString('utf8') ?? 'null') as ScoreRecord });
        return Promise.resolve();
      },
    });
    for (let i = 0; i < 120 && got.length < records.length; i++) await new Promise((r) => setTimeout(r, 250));
    await consumer.disconnect();
    expect(got.map((m) => m.value.scorer).sort()).toEqual(records.map((r) => r.scorer).sort());
    for (const m of got) expect(m.key).toBe(m.value.traceId);
  }, 60_000);
});
