/**
 * Score records to a Kafka topic: value = the record as JSON (docs/records.md, "The score record"), key = the trace id, so every
 * evaluation of a trace lands in one partition, in order. Acks from all in-sync replicas.
 */
import { Kafka, logLevel, type LogEntry, type Producer } from 'kafkajs';
import { errorMessage } from '../errors.js';
import type { Logger } from 'pino';
import type { RecordSender } from './buffered-emitter.js';
import type { ScoreRecord } from '../model/score-record.js';
import type { EmitResult } from './emitter.js';

export interface KafkaEmitOptions {
  brokers: readonly string[];
  topic: string;
  clientId: string;
  requestTimeoutMs: number;
}

function kafkaLogCreator(logger: Logger): (entry: LogEntry) => void {
  return ({ namespace, level, log }) => {
    const { message, timestamp: _t, ...extra } = log;
    const fields = { component: 'kafka-emit', namespace, ...extra };
    if (level === logLevel.ERROR) logger.error(fields, String(message));
    else if (level === logLevel.WARN) logger.warn(fields, String(message));
    else logger.debug(fields, String(message));
  };
}

/** The Kafka message of one record. */
function toKafkaMessage(record: ScoreRecord): { key: string; value: string; headers: Record<string, string> } {
  return { key: record.traceId, value: JSON.stringify(record), headers: { 'content-type': 'application/json', scorer: record.scorer } };
}

export class KafkaSender implements RecordSender {
  readonly name = 'kafka';
  private readonly producer: Producer;
  private connected: Promise<void> | undefined;

  constructor(
    private readonly options: KafkaEmitOptions,
    logger: Logger,
  ) {
    const kafka = new Kafka({
      clientId: options.clientId,
      brokers: [...options.brokers],
      requestTimeout: options.requestTimeoutMs,
      connectionTimeout: Math.min(options.requestTimeoutMs, 3_000),
      // Our BufferedEmitter owns retries and backoff; kafkajs retries only briefly within one send.
      retry: { retries: 1, initialRetryTime: 100, maxRetryTime: 1_000 },
      logLevel: logLevel.WARN,
      logCreator: () => kafkaLogCreator(logger),
    });
    this.producer = kafka.producer({ allowAutoTopicCreation: true, idempotent: false });
  }

  async send(records: readonly ScoreRecord[]): Promise<EmitResult> {
    try {
      this.connected ??= this.producer.connect();
      await this.connected;
    } catch (err) {
      this.connected = undefined;
      return { code: 'retryable', error: new Error(`kafka: cannot connect to ${this.options.brokers.join(',')}: ${errorMessage(err)}`) };
    }
    try {
      await this.producer.send({ topic: this.options.topic, acks: -1, timeout: this.options.requestTimeoutMs, messages: records.map(toKafkaMessage) });
      return { code: 'success' };
    } catch (err) {
      const retriable = (err as { retriable?: unknown }).retriable !== false;
      const error = new Error(`kafka: send to ${this.options.topic} failed: ${errorMessage(err)}`);
      return retriable ? { code: 'retryable', error } : { code: 'permanent', error };
    }
  }

  async close(): Promise<void> {
    if (this.connected) await this.producer.disconnect();
  }
}
