/**
 * The KafkaJS → pino level mapping (src/telemetry/kafka-log.ts): which KafkaJS lines become debug (attempts
 * KafkaJS retries by itself, for transient protocol errors only) and which keep their level, and the table of
 * transient errors checked against KafkaJS's own protocol error table.
 */
import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import { logLevel, type LogEntry } from 'kafkajs';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { isTransientKafkaError, kafkaLogCreator, kafkaLogLevel, TRANSIENT_KAFKA_ERRORS } from '../../src/telemetry/kafka-log.js';

const { errorCodes } = createRequire(import.meta.url)('kafkajs/src/protocol/error.js') as { errorCodes: { type: string; message: string }[] };

/** A pino logger at `level` that keeps its lines, and a KafkaJS log function writing to it. */
function capture(level = 'trace'): { lines: { level: number; msg: string; namespace?: string }[]; log: (entry: LogEntry) => void } {
  const lines: { level: number; msg: string; namespace?: string }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString('utf8').split('\n')) if (l) lines.push(JSON.parse(l) as { level: number; msg: string });
      done();
    },
  });
  const logger = pino({ level }, sink);
  return { lines, log: kafkaLogCreator(logger)(logLevel.DEBUG) };
}

const entry = (level: logLevel, namespace: string, message: string, extra: Record<string, unknown> = {}): LogEntry => ({
  namespace,
  level,
  label: 'X',
  log: { timestamp: '2026-01-01T00:00:00.000Z', logger: 'kafkajs', message, ...extra },
});

describe('KafkaJS log lines through pino', () => {
  it.each([
    ['an error answer for a topic being created', entry(logLevel.ERROR, 'Connection', 'Response Metadata(key: 3, version: 6)', { error: 'This server does not host this topic-partition' }), 20],
    ['an error answer during a leader election', entry(logLevel.ERROR, 'Connection', 'Response Produce(key: 0, version: 7)', { error: TRANSIENT_KAFKA_ERRORS.LEADER_NOT_AVAILABLE }), 20],
    ['a producer attempt it retries', entry(logLevel.ERROR, 'Producer', 'Failed to send messages: This server does not host this topic-partition', { retryCount: 0 }), 20],
    ['a rebalance', entry(logLevel.WARN, 'Runner', 'The group is rebalancing, re-joining', { groupId: 'g' }), 30],
    ['an error answer that is not transient', entry(logLevel.ERROR, 'Connection', 'Response Metadata(key: 3, version: 6)', { error: 'Not authorized to access topics: [Topic authorization failed.]' }), 50],
    ['a failed connection', entry(logLevel.ERROR, 'BrokerPool', 'Failed to connect to seed broker, trying another broker from the list: Connection error: connect ECONNREFUSED 127.0.0.1:1', {}), 50],
    ['a producer attempt with a non-transient error', entry(logLevel.ERROR, 'Producer', 'Failed to send messages: The request included a message larger than the max message size the server will accept', {}), 50],
    ['a crash', entry(logLevel.ERROR, 'Consumer', 'Crash: KafkaJSNumberOfRetriesExceeded: This server does not host this topic-partition', {}), 50],
    ['a warning', entry(logLevel.WARN, 'ConsumerGroup', 'Consumer is not aware of all assigned partitions, refreshing metadata', {}), 40],
    ['an info line', entry(logLevel.INFO, 'Consumer', 'Starting', { groupId: 'g' }), 20],
    ['a debug line', entry(logLevel.DEBUG, 'Connection', 'Request Metadata(key: 3, version: 6)', {}), 10],
  ])('%s', (_label, line, pinoLevel) => {
    const { lines, log } = capture();
    log(line);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.level).toBe(pinoLevel);
    expect(lines[0]?.msg).toBe(`kafka: ${line.log.message}`);
    expect(lines[0]?.namespace).toBe(line.namespace);
  });

  it('asks KafkaJS only for what the logger prints', () => {
    expect(kafkaLogLevel(pino({ level: 'info' }))).toBe(logLevel.WARN);
    expect(kafkaLogLevel(pino({ level: 'debug' }))).toBe(logLevel.INFO);
    expect(kafkaLogLevel(pino({ level: 'trace' }))).toBe(logLevel.DEBUG);
  });

  it('names the transient errors with the messages KafkaJS gives them', () => {
    for (const [type, message] of Object.entries(TRANSIENT_KAFKA_ERRORS)) {
      expect(errorCodes.find((e) => e.type === type)?.message, type).toBe(message);
    }
    expect(isTransientKafkaError({ type: 'UNKNOWN_TOPIC_OR_PARTITION', message: 'x' })).toBe(true);
    expect(isTransientKafkaError({ type: 'TOPIC_AUTHORIZATION_FAILED', message: 'Not authorized to access topics: [Topic authorization failed.]' })).toBe(false);
    expect(isTransientKafkaError(new Error('connect ECONNREFUSED'))).toBe(false);
  });
});
