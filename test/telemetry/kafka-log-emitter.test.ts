/** The Kafka emitter's KafkaJS lines (kafkaLogCreator with failuresAsDebug): a broker outage is debug, not thousands of errors. */
import { Writable } from 'node:stream';
import { logLevel, type LogEntry } from 'kafkajs';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { kafkaLogCreator } from '../../src/telemetry/kafka-log.js';

function capture(failuresAsDebug: boolean): { levels: number[]; log: (entry: LogEntry) => void } {
  const levels: number[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString('utf8').split('\n')) if (l) levels.push((JSON.parse(l) as { level: number }).level);
      done();
    },
  });
  return { levels, log: kafkaLogCreator(pino({ level: 'debug' }, sink), { failuresAsDebug })(logLevel.DEBUG) };
}

const outage: LogEntry[] = [
  { namespace: 'Connection', level: logLevel.ERROR, label: 'ERROR', log: { timestamp: 't', message: 'Connection error: connect ECONNREFUSED 127.0.0.1:19192', broker: '127.0.0.1:19192' } },
  { namespace: 'BrokerPool', level: logLevel.ERROR, label: 'ERROR', log: { timestamp: 't', message: 'Failed to connect to seed broker, trying another broker from the list: Connection error: connect ECONNREFUSED' } },
  { namespace: 'Producer', level: logLevel.ERROR, label: 'ERROR', log: { timestamp: 't', message: 'Failed to send messages: Connection error: connect ECONNREFUSED', retryCount: 1 } },
  { namespace: 'Cluster', level: logLevel.WARN, label: 'WARN', log: { timestamp: 't', message: 'Closed connection' } },
];

describe('Kafka emitter logs', () => {
  it('turns KafkaJS errors and warnings into debug lines for the emitter only', () => {
    const emitter = capture(true);
    const source = capture(false);
    for (const e of outage) {
      emitter.log(e);
      source.log(e);
    }
    expect(emitter.levels).toEqual([20, 20, 20, 20]);
    expect(source.levels).toEqual([50, 50, 50, 40]);
  });
});
