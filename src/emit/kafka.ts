/**
 * Score records to a Kafka topic: value = the record as JSON (docs/records.md, "The score record"), key = the trace id, so every
 * evaluation of a trace lands in one partition, in order (KafkaJS's default, Java-compatible murmur2 partitioner). Acks from all
 * in-sync replicas. A failed send is retryable unless the broker refused the records for good (src/emit/kafka-errors.ts), so a
 * broker outage is ridden out by the buffered emitter's retry budget. KafkaJS's own error lines are debug lines here
 * (src/telemetry/kafka-log.ts): the buffered emitter warns once per interval with the destination and the records held.
 */
import { Kafka, Partitioners, type Producer } from 'kafkajs';
import { errorMessage } from '../errors.js';
import type { Logger } from 'pino';
import { kafkaLogCreator, kafkaLogLevel } from '../telemetry/kafka-log.js';
import { isPermanentKafkaError } from './kafka-errors.js';
import type { RecordSender } from './buffered-emitter.js';
import type { ScoreRecord } from '../model/score-record.js';
import type { EmitResult } from './emitter.js';

export interface KafkaEmitOptions {
  brokers: readonly string[];
  topic: string;
  clientId: string;
  requestTimeoutMs: number;
  /** kafkajs `ssl`: true for TLS with the system CAs, or its TLS options (`ca`, `cert`, `key` as PEM text); absent: plaintext. */
  ssl?: boolean | Record<string, unknown> | undefined;
}

/** The Kafka message of one record. */
function toKafkaMessage(record: ScoreRecord): { key: string; value: string; headers: Record<string, string> } {
  return { key: record.traceId, value: JSON.stringify(record), headers: { 'content-type': 'application/json', scorer: record.scorer } };
}

export class KafkaSender implements RecordSender {
  readonly name = 'kafka';
  readonly destination: string;
  private readonly producer: Producer;
  private readonly log: Logger;
  private connected: Promise<void> | undefined;

  constructor(
    private readonly options: KafkaEmitOptions,
    logger: Logger,
  ) {
    this.log = logger.child({ component: 'kafka-emit' });
    this.destination = `kafka topic ${options.topic} at ${options.brokers.join(',')}`;
    const kafka = new Kafka({
      clientId: options.clientId,
      brokers: [...options.brokers],
      requestTimeout: options.requestTimeoutMs,
      connectionTimeout: Math.min(options.requestTimeoutMs, 3_000),
      // Our BufferedEmitter owns retries and backoff; kafkajs retries only briefly within one send.
      retry: { retries: 1, initialRetryTime: 100, maxRetryTime: 1_000 },
      logLevel: kafkaLogLevel(this.log),
      logCreator: kafkaLogCreator(this.log, { failuresAsDebug: true }),
      ...(options.ssl !== undefined ? { ssl: options.ssl } : {}),
    });
    this.producer = kafka.producer({ allowAutoTopicCreation: true, idempotent: false, createPartitioner: Partitioners.DefaultPartitioner });
  }

  async send(records: readonly ScoreRecord[]): Promise<EmitResult> {
    try {
      this.connected ??= this.producer.connect();
      await this.connected;
    } catch (err) {
      this.connected = undefined;
      return this.failed({ code: 'retryable', error: new Error(`kafka: cannot connect to ${this.options.brokers.join(',')}: ${errorMessage(err)}`) });
    }
    try {
      await this.producer.send({ topic: this.options.topic, acks: -1, timeout: this.options.requestTimeoutMs, messages: records.map(toKafkaMessage) });
      return { code: 'success' };
    } catch (err) {
      const error = new Error(`kafka: send to ${this.options.topic} failed: ${errorMessage(err)}${causeOf(err)}`);
      return this.failed(isPermanentKafkaError(err) ? { code: 'permanent', error } : { code: 'retryable', error });
    }
  }

  async close(): Promise<void> {
    if (this.connected) await this.producer.disconnect();
  }

  private failed(result: EmitResult & { error: Error }): EmitResult {
    this.log.debug({ topic: this.options.topic, code: result.code, err: result.error.message }, 'kafka: send failed');
    return result;
  }
}

/** The cause KafkaJS wrapped (`KafkaJSNumberOfRetriesExceeded` names only itself), for the error message. */
function causeOf(err: unknown): string {
  const cause = (err as { cause?: unknown }).cause;
  return cause instanceof Error && cause !== err && cause.message !== (err as Error).message ? ` (cause: ${cause.message})` : '';
}
