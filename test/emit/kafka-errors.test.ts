/** The Kafka emitter's error classification, on KafkaJS's own error classes and protocol error table. */
import { createRequire } from 'node:module';
import { KafkaJSConnectionError, KafkaJSNonRetriableError, KafkaJSNumberOfRetriesExceeded, KafkaJSProtocolError, KafkaJSRequestTimeoutError, KafkaJSServerDoesNotSupportApiKey } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { isPermanentKafkaError } from '../../src/emit/kafka-errors.js';

const require = createRequire(import.meta.url);
const { createErrorFromCode } = require('kafkajs/src/protocol/error.js') as { createErrorFromCode: (code: number) => Error };

describe('isPermanentKafkaError', () => {
  it('keeps a broker outage retryable after KafkaJS has exhausted its own retries', () => {
    const refused = new KafkaJSConnectionError('Connection error: connect ECONNREFUSED 127.0.0.1:19092', { broker: '127.0.0.1:19092', code: 'ECONNREFUSED' });
    expect(isPermanentKafkaError(refused)).toBe(false);
    expect(isPermanentKafkaError(new KafkaJSNumberOfRetriesExceeded(refused, { retryCount: 1, retryTime: 100 }))).toBe(false);
    expect(isPermanentKafkaError(new KafkaJSNumberOfRetriesExceeded(new KafkaJSRequestTimeoutError('Request Produce timed out', { broker: '127.0.0.1:19092', clientId: 'tj', correlationId: 1, createdAt: 0, sentAt: 0, pendingDuration: 0 }), { retryCount: 1, retryTime: 100 }))).toBe(false);
    // NOT_LEADER_FOR_PARTITION (6) during a leader election, wrapped.
    expect(isPermanentKafkaError(new KafkaJSNumberOfRetriesExceeded(createErrorFromCode(6), { retryCount: 1, retryTime: 100 }))).toBe(false);
    // A non-retriable wrapper without a cause that says more is not a refusal of the records.
    expect(isPermanentKafkaError(new KafkaJSNonRetriableError('Closed connection'))).toBe(false);
    expect(isPermanentKafkaError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(false);
  });

  it('refuses for good what the broker refuses for good', () => {
    // MESSAGE_TOO_LARGE (10), TOPIC_AUTHORIZATION_FAILED (29), INVALID_RECORD (87).
    for (const code of [10, 29, 87]) {
      const err = createErrorFromCode(code);
      expect(err).toBeInstanceOf(KafkaJSProtocolError);
      expect(isPermanentKafkaError(err)).toBe(true);
      expect(isPermanentKafkaError(new KafkaJSNumberOfRetriesExceeded(err, { retryCount: 1, retryTime: 100 }))).toBe(true);
    }
    expect(isPermanentKafkaError(new KafkaJSServerDoesNotSupportApiKey('unsupported', { apiKey: 0, apiName: 'Produce' }))).toBe(true);
  });
});
