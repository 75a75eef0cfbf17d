/**
 * Score records to a Kafka topic: value = the record as JSON (docs/records.md, "The score record"), key = the trace id, so every
 * evaluation of a trace lands in one partition, in order (KafkaJS's default, Java-compatible murmur2 partitioner). Acks from all
 * in-sync replicas. KafkaJS logs go through pino (src/telemetry/kafka-log.ts): a send KafkaJS retries is a debug line; sends
 * that keep failing are a warning, once per `FAILING_LOG_MS`, and their recovery an info line.
 */
import { Kafka, Partitioners, type Producer } from 'kafkajs';
import { errorMessage } from '../errors.js';
import type { Logger } from 'pino';
import { kafkaLogCreator, kafkaLogLevel } from '../telemetry/kafka-log.js';
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

/**
 * Sends failing for this long are reported (warn), and again every as long while they keep failing. Shorter
 * failures are the usual start of a topic the broker creates on the first send, which the retries absorb.
 */
const FAILING_LOG_MS = 10_000;

/** The Kafka message of one record. */
function toKafkaMessage(record: ScoreRecord): { key: string; value: string; headers: Record<string, string> } {
  return { key: record.traceId, value: JSON.stringify(record), headers: { 'content-type': 'application/json', scorer: record.scorer } };
}

export class KafkaSender implements RecordSender {
  readonly name = 'kafka';
  private readonly producer: Producer;
  private readonly log: Logger;
  private connected: Promise<void> | undefined;
  /** When the current run of failed sends began (undefined while sends succeed), and when it was last reported. */
  private failingSince: number | undefined;
  private reportedAt: number | undefined;

  constructor(
    private readonly options: KafkaEmitOptions,
    logger: Logger,
  ) {
    this.log = logger.child({ component: 'kafka-emit' });
    const kafka = new Kafka({
      clientId: options.clientId,
      brokers: [...options.brokers],
      requestTimeout: options.requestTimeoutMs,
      connectionTimeout: Math.min(options.requestTimeoutMs, 3_000),
      // Our BufferedEmitter owns retries and backoff; kafkajs retries only briefly within one send.
      retry: { retries: 1, initialRetryTime: 100, maxRetryTime: 1_000 },
      logLevel: kafkaLogLevel(this.log),
      logCreator: kafkaLogCreator(this.log),
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
      this.recovered();
      return { code: 'success' };
    } catch (err) {
      const retriable = (err as { retriable?: unknown }).retriable !== false;
      const error = new Error(`kafka: send to ${this.options.topic} failed: ${errorMessage(err)}`);
      return this.failed(retriable ? { code: 'retryable', error } : { code: 'permanent', error });
    }
  }

  async close(): Promise<void> {
    if (this.connected) await this.producer.disconnect();
  }

  private failed(result: EmitResult & { error: Error }): EmitResult {
    const now = Date.now();
    this.failingSince ??= now;
    const failingMs = now - this.failingSince;
    if (failingMs >= FAILING_LOG_MS && (this.reportedAt === undefined || now - this.reportedAt >= FAILING_LOG_MS)) {
      this.reportedAt = now;
      this.log.warn({ topic: this.options.topic, failingMs, err: result.error.message }, 'kafka: sends of score records keep failing; retrying');
    } else {
      this.log.debug({ topic: this.options.topic, err: result.error.message }, 'kafka: send failed');
    }
    return result;
  }

  private recovered(): void {
    if (this.reportedAt !== undefined) this.log.info({ topic: this.options.topic, failedMs: Date.now() - (this.failingSince ?? Date.now()) }, 'kafka: sends of score records succeed again');
    this.failingSince = undefined;
    this.reportedAt = undefined;
  }
}
