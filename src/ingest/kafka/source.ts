/**
 * Kafka source: tracejudge joins the Collector's Kafka pipeline as one more consumer group.
 *
 * At-least-once: offsets are committed per partition only up to the oldest message whose traces are not
 * yet fully handled (OffsetTracker). Back-pressure: when the assembler refuses a message, the partition is
 * paused and re-fetched from that message once the retry hint has passed. Poison messages go to the
 * dead-letter topic and their offset moves on. After a rebalance, uncommitted messages are re-read by
 * whoever owns the partition; duplicates carry the same evaluation ids.
 */
import { Kafka, logLevel as KafkaLogLevel, type Consumer, type EachBatchPayload, type KafkaConfig, type LogEntry, type Producer, type SASLOptions } from 'kafkajs';
import type { Logger } from 'pino';
import { errorMessage } from '../../errors.js';
import { logger as rootLogger, ThrottledLog } from '../../logging.js';
import { telemetry } from '../../telemetry/instruments.js';
import type { SpanSink } from '../sink.js';
import { decodeKafkaValue, type KafkaEncoding } from './decode-message.js';
import { publishDeadLetter } from './dead-letter.js';
import { OffsetTracker } from './offset-tracker.js';

export interface KafkaSourceConfig {
  brokers: readonly string[];
  topic: string;
  topics?: readonly { topic: string; encoding: KafkaEncoding }[] | undefined;
  groupId: string;
  clientId: string;
  encoding: KafkaEncoding;
  initialOffset: 'latest' | 'earliest';
  deadLetterTopic?: string | undefined;
  commitIntervalMs: number;
  sessionTimeoutMs: number;
  heartbeatIntervalMs: number;
  ssl?: boolean | Record<string, unknown> | undefined;
  sasl?: { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string } | undefined;
}

export interface KafkaSourceOptions {
  config: KafkaSourceConfig;
  sink: SpanSink;
  logger?: Logger;
}

export interface KafkaSourceStats {
  messages: number;
  deadLetters: number;
  pauses: number;
  committedMessages: number;
}

export interface KafkaSource {
  start(): Promise<void>;
  /** Stop fetching new records; in-flight work continues. */
  stop(): Promise<void>;
  /** Wait for in-flight records (until `deadline`, ms since epoch), commit what is settled, leave the group. Safe twice. */
  shutdown(deadline: number): Promise<void>;
  /** Commit settled offsets now (also done every `commitIntervalMs`). */
  commit(): Promise<void>;
  inFlight(): number;
  stats(): KafkaSourceStats;
}

function kafkaLogCreator(log: Logger) {
  return () =>
    ({ level, log: entry }: LogEntry): void => {
      const { message, ...rest } = entry;
      if (level <= KafkaLogLevel.ERROR) log.error(rest, `kafka: ${message}`);
      else if (level === KafkaLogLevel.WARN) log.warn(rest, `kafka: ${message}`);
    };
}

export function createKafkaSource(options: KafkaSourceOptions): KafkaSource {
  const { config, sink } = options;
  const log = (options.logger ?? rootLogger).child({ component: 'kafka-source' });
  const topics = config.topics?.length ? config.topics : [{ topic: config.topic, encoding: config.encoding }];
  const encodingOf = new Map(topics.map((t) => [t.topic, t.encoding]));
  const dlqTopicOf = (topic: string): string => config.deadLetterTopic ?? `${topic}.dlq`;
  const trackers = new Map<string, OffsetTracker>(topics.map((t) => [t.topic, new OffsetTracker()]));
  const stats: KafkaSourceStats = { messages: 0, deadLetters: 0, pauses: 0, committedMessages: 0 };
  const commitFailures = new ThrottledLog(log, 'kafka: offset commit failed; will retry');

  const kafkaConfig: KafkaConfig = {
    clientId: config.clientId,
    brokers: [...config.brokers],
    logLevel: KafkaLogLevel.WARN,
    logCreator: kafkaLogCreator(log),
    retry: { initialRetryTime: 300, maxRetryTime: 5000, retries: 8 },
  };
  if (config.ssl !== undefined) kafkaConfig.ssl = config.ssl;
  if (config.sasl) kafkaConfig.sasl = { ...config.sasl } as SASLOptions;
  const kafka = new Kafka(kafkaConfig);

  let consumer: Consumer | undefined;
  let producer: Producer | undefined;
  let producerReady: Promise<Producer> | undefined;
  let commitTimer: NodeJS.Timeout | undefined;
  const resumeTimers = new Set<NodeJS.Timeout>();
  let stopped = false;
  let closed: Promise<void> | undefined;
  let committing: Promise<void> = Promise.resolve();

  const getProducer = (): Promise<Producer> => {
    producerReady ??= (async () => {
      const p = kafka.producer({ allowAutoTopicCreation: true });
      await p.connect();
      producer = p;
      return p;
    })();
    return producerReady;
  };

  const doCommit = async (): Promise<void> => {
    if (!consumer) return;
    for (const [topic, tracker] of trackers) {
      for (const partition of tracker.known()) {
        const offset = tracker.committable(partition);
        if (offset === undefined) continue;
        try {
          await consumer.commitOffsets([{ topic, partition, offset: offset.toString() }]);
          tracker.markCommitted(partition, offset);
          stats.committedMessages++;
          telemetry().kafkaCommitted.add(1, { topic });
        } catch (err) {
          commitFailures.hit(1, { topic, partition, err: errorMessage(err) });
        }
      }
    }
  };
  const commit = (): Promise<void> => {
    committing = committing.then(doCommit, doCommit);
    return committing;
  };

  const scheduleResume = (c: Consumer, topic: string, partition: number, afterMs: number): void => {
    const timer = setTimeout(() => {
      resumeTimers.delete(timer);
      if (!stopped) c.resume([{ topic, partitions: [partition] }]);
    }, Math.max(50, afterMs));
    resumeTimers.add(timer);
  };

  const eachBatch = async (payload: EachBatchPayload): Promise<void> => {
    const { batch, heartbeat, isRunning, isStale, pause, resolveOffset } = payload;
    const { topic, partition } = batch;
    const tracker = trackers.get(topic);
    const c = consumer;
    if (!tracker || !c) return;
    const encoding = encodingOf.get(topic) ?? config.encoding;
    for (const message of batch.messages) {
      if (!isRunning() || isStale() || stopped) break;
      const offset = BigInt(message.offset);
      stats.messages++;
      let decoded;
      try {
        decoded = decodeKafkaValue(message.value, encoding, message.headers);
      } catch (error) {
        const p = await getProducer().catch(() => undefined);
        const ok = p ? await publishDeadLetter(p, dlqTopicOf(topic), { topic, partition, message, error }) : false;
        stats.deadLetters++;
        telemetry().kafkaDeadLetters.add(1, { outcome: ok ? 'published' : 'failed' });
        log.warn({ topic, partition, offset: message.offset, err: errorMessage(error), deadLetter: ok }, 'kafka: undecodable message');
        tracker.settle(tracker.track(partition, offset));
        resolveOffset(message.offset);
        await heartbeat();
        continue;
      }
      if (decoded.rejected > 0) telemetry().spansRejected.add(decoded.rejected, { source: 'kafka', reason: 'invalid' });
      const handle = tracker.track(partition, offset);
      const result = sink.offer({ spans: decoded.spans, logs: [], source: 'kafka', onSettled: () => tracker.settle(handle) });
      if (!result.accepted) {
        tracker.untrack(handle);
        stats.pauses++;
        // Not resolved: after the resume the consumer fetches again from this message.
        pause();
        scheduleResume(c, topic, partition, result.retryAfterMs);
        break;
      }
      telemetry().spansReceived.add(decoded.spans.length, { source: 'kafka' });
      // "Resolved" only moves kafkajs' fetch position; commits follow the OffsetTracker watermark.
      resolveOffset(message.offset);
      await heartbeat();
    }
  };

  return {
    async start() {
      const c = kafka.consumer({
        groupId: config.groupId,
        sessionTimeout: config.sessionTimeoutMs,
        heartbeatInterval: config.heartbeatIntervalMs,
        // Like the Collector's receiver (max_fetch_wait 250 ms): low latency from a resume or a quiet topic.
        maxWaitTimeInMs: 250,
        retry: { initialRetryTime: 300, maxRetryTime: 5000, retries: 8 },
      });
      consumer = c;
      c.on(c.events.GROUP_JOIN, () => {
        // An eager rebalance: every partition restarts from its committed offset, so forget in-flight
        // tracking (settles of older messages are ignored; re-read messages are tracked anew).
        for (const tracker of trackers.values()) for (const p of tracker.known()) tracker.reset(p);
      });
      c.on(c.events.CRASH, (event) => {
        log.warn({ err: errorMessage(event.payload.error), restart: event.payload.restart }, 'kafka: consumer crashed');
      });
      await c.connect();
      await c.subscribe({ topics: topics.map((t) => t.topic), fromBeginning: config.initialOffset === 'earliest' });
      await c.run({ autoCommit: false, eachBatchAutoResolve: false, eachBatch });
      commitTimer = setInterval(() => void commit(), config.commitIntervalMs);
      commitTimer.unref();
      log.info({ topics: topics.map((t) => t.topic), groupId: config.groupId, brokers: config.brokers }, 'kafka source started');
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const t of resumeTimers) clearTimeout(t);
      resumeTimers.clear();
      await consumer?.stop();
    },
    shutdown(deadline) {
      closed ??= (async () => {
        await this.stop();
        while (this.inFlight() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        if (commitTimer) clearInterval(commitTimer);
        await commit();
        await consumer?.disconnect().catch((err: unknown) => log.warn({ err: errorMessage(err) }, 'kafka: disconnect failed'));
        if (producer) await producer.disconnect().catch(() => undefined);
        log.info({ inFlight: this.inFlight() }, 'kafka source stopped');
      })();
      return closed;
    },
    commit,
    inFlight() {
      let n = 0;
      for (const t of trackers.values()) n += t.inFlight();
      return n;
    },
    stats() {
      return { ...stats };
    },
  };
}
