import { Socket } from 'node:net';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, describe, expect, it } from 'vitest';
import { BufferedEmitter } from '../../src/emit/buffered-emitter.js';
import { KafkaSender } from '../../src/emit/kafka.js';
import { silentLogger } from '../../src/telemetry/log.js';
import type { ScoreRecord } from '../../src/model/score-record.js';
import { errorRecord, scoreRecord } from './records.js';
import { acquireBrokerLock } from '../kafka/broker-lock.js';
import { retryWhileRetriable } from '../kafka/helpers.js';

const BROKER = '127.0.0.1:9092';

/** Whether a broker answers on 127.0.0.1:9092 (a TCP connect, bounded by 1 s). */
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

// The broker-restart test stops the shared broker; hold the lock so this file never overlaps it.
const release = process.env.TRACEJUDGE_TEST_KAFKA ? await acquireBrokerLock() : () => {};
const haveBroker = await brokerAnswers();
afterAll(() => release());
const topic = `tracejudge_scores_test_${process.pid}_${Date.now()}`;
const options = { maxRecords: 100, maxBatchRecords: 50, initialBackoffMs: 100, maxBackoffMs: 1000, maxAttempts: 5 };

describe.skipIf(!haveBroker)(`Kafka emitter on a real broker (skipped: no broker answers on ${BROKER}; start one with scripts/kafka/start.sh)`, () => {
  const emitter = new BufferedEmitter(new KafkaSender({ brokers: [BROKER], topic, clientId: 'tracejudge-emit-test', requestTimeoutMs: 10_000 }, silentLogger()), options);
  const kafka = new Kafka({ clientId: 'tracejudge-emit-test-reader', brokers: [BROKER], logLevel: logLevel.NOTHING });
  afterAll(async () => {
    await emitter.shutdown(Date.now() + 5000);
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect();
  });

  it('publishes score records as JSON keyed by trace id', async () => {
    const otherTrace = 'ffeeddccbbaa99887766554433221100';
    const records: ScoreRecord[] = [scoreRecord(), errorRecord(), scoreRecord({ traceId: otherTrace, scorer: 'similarity' })];
    expect(await emitter.emit(records)).toEqual({ code: 'success' });

    const consumer = kafka.consumer({ groupId: `${topic}-reader` });
    const got: { key: string; value: ScoreRecord; partition: number }[] = [];
    await consumer.connect();
    await retryWhileRetriable('subscribe', () => consumer.subscribe({ topic, fromBeginning: true }));
    await consumer.run({
      eachMessage: ({ message, partition }) => {
        got.push({ key: message.key?.toString('utf8') ?? '', value: JSON.parse(message.value?.toString('utf8') ?? 'null') as ScoreRecord, partition });
        return Promise.resolve();
      },
    });
    for (let i = 0; i < 120 && got.length < records.length; i++) await new Promise((r) => setTimeout(r, 250));
    await consumer.disconnect();

    expect(got).toHaveLength(3);
    for (const m of got) expect(m.key).toBe(m.value.traceId);
    expect(got.map((m) => m.value).sort((a, b) => a.scorer.localeCompare(b.scorer))).toEqual(
      [...records].sort((a, b) => a.scorer.localeCompare(b.scorer)),
    );
    const sameTrace = got.filter((m) => m.key === scoreRecord().traceId);
    expect(new Set(sameTrace.map((m) => m.partition)).size).toBe(1);
  });
});

describe('Kafka emitter without a broker', () => {
  it('answers retryable when no broker is reachable', async () => {
    // Port 1 on localhost: nothing listens there, the connection is refused at once.
    const sender = new KafkaSender({ brokers: ['127.0.0.1:1'], topic: 'unused', clientId: 'tracejudge-emit-test', requestTimeoutMs: 1000 }, silentLogger());
    const result = await sender.send([scoreRecord()]);
    expect(result.code).toBe('retryable');
    expect(result.code === 'retryable' && result.error.message).toContain('127.0.0.1:1');
    await sender.close();
  });
});
