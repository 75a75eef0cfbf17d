/**
 * KafkaJS log lines through pino, for every KafkaJS client tracejudge makes (the Kafka source, its dead-letter
 * producer, the replay and the Kafka emitter).
 *
 * KafkaJS logs each failed attempt it is about to retry at error level, even when the retry succeeds: every
 * error answer of a request ("Response Metadata(key: 3, version: 6)" with "This server does not host this
 * topic-partition" while a topic is being created, a partition leader is elected or a group coordinator
 * moves), and "Failed to send messages" before the producer retries. Those answers, for the transient
 * protocol errors listed below, become debug lines: when the retries run out, KafkaJS throws, and the
 * caller reports the failure (the source fails to start, the emitter logs sends that keep failing, a crashed
 * consumer is logged). Every other KafkaJS error or warning keeps its level. KafkaJS info lines (client
 * lifecycle, which tracejudge logs itself) are debug, its debug lines trace.
 */
import { logLevel as KafkaLogLevel, type LogEntry, type logCreator } from 'kafkajs';
import type { Logger } from 'pino';

/**
 * KafkaJS's messages for the protocol errors that are transient by nature (stale metadata, leadership and
 * coordinator moves, a rebalance). A test checks them against KafkaJS's own error table.
 */
export const TRANSIENT_KAFKA_ERRORS: Readonly<Record<string, string>> = {
  UNKNOWN_TOPIC_OR_PARTITION: 'This server does not host this topic-partition',
  LEADER_NOT_AVAILABLE: 'There is no leader for this topic-partition as we are in the middle of a leadership election',
  NOT_LEADER_FOR_PARTITION: 'This server is not the leader for that topic-partition',
  GROUP_LOAD_IN_PROGRESS: "The coordinator is loading and hence can't process requests for this group",
  GROUP_COORDINATOR_NOT_AVAILABLE: 'The group coordinator is not available',
  NOT_COORDINATOR_FOR_GROUP: 'This is not the correct coordinator for this group',
  REBALANCE_IN_PROGRESS: 'The group is rebalancing, so a rejoin is needed',
};

const TRANSIENT_MESSAGES: ReadonlySet<string> = new Set(Object.values(TRANSIENT_KAFKA_ERRORS));

/** True when a KafkaJS error (thrown, or named in a log line) is one of the transient protocol errors. */
export function isTransientKafkaError(err: unknown): boolean {
  if (typeof err === 'string') return TRANSIENT_MESSAGES.has(err);
  if (err === null || typeof err !== 'object') return false;
  const { type, message } = err as { type?: unknown; message?: unknown };
  return (typeof type === 'string' && type in TRANSIENT_KAFKA_ERRORS) || (typeof message === 'string' && TRANSIENT_MESSAGES.has(message));
}

/** A KafkaJS log line that only reports an attempt KafkaJS retries by itself. */
function isRetriedAttempt(namespace: string, message: string, extra: Record<string, unknown>): boolean {
  // Connection: one line per error answer, before the caller's retrier decides.
  if (namespace === 'Connection' && message.startsWith('Response ')) return isTransientKafkaError(extra.error);
  // Producer: "Failed to send messages: <error>", then a metadata refresh and a retry.
  const failed = /^Failed to send messages: (.*)$/.exec(message);
  if (failed) return isTransientKafkaError(failed[1]);
  return false;
}

/** Options of {@link kafkaLogCreator}. */
export interface KafkaLogOptions {
  /**
   * KafkaJS errors and warnings become debug lines: for a client whose caller reports every failure itself
   * (the Kafka emitter: the send's result reaches the buffered emitter, which warns once per interval with the
   * records held), so a broker outage is not thousands of connection-error lines.
   */
  failuresAsDebug?: boolean;
}

/** The pino level for a KafkaJS line. */
function levelOf(level: KafkaLogLevel, namespace: string, message: string, extra: Record<string, unknown>, options: KafkaLogOptions): 'error' | 'warn' | 'info' | 'debug' | 'trace' {
  if (level <= KafkaLogLevel.WARN && (options.failuresAsDebug || isRetriedAttempt(namespace, message, extra))) return 'debug';
  // A rebalance is how a group takes in a new member or gives back a leaving one's partitions.
  if (namespace === 'Runner' && message === 'The group is rebalancing, re-joining') return 'info';
  if (level === KafkaLogLevel.ERROR) return 'error';
  if (level === KafkaLogLevel.WARN) return 'warn';
  if (level === KafkaLogLevel.INFO) return 'debug';
  return 'trace';
}

/**
 * The KafkaJS `logLevel` that passes on what `logger` would print: errors and warnings always (some become
 * debug lines), info lines from pino `debug` on, debug lines from `trace` on.
 */
export function kafkaLogLevel(logger: Logger): KafkaLogLevel {
  if (logger.isLevelEnabled('trace')) return KafkaLogLevel.DEBUG;
  if (logger.isLevelEnabled('debug')) return KafkaLogLevel.INFO;
  return KafkaLogLevel.WARN;
}

/**
 * A KafkaJS `logCreator` writing to `logger` (fields: `logger: 'kafkajs'`, the KafkaJS `namespace`, and the
 * line's own fields; the message is prefixed `kafka: `).
 *
 * @example
 * ```ts
 * new Kafka({ brokers, logLevel: kafkaLogLevel(log), logCreator: kafkaLogCreator(log) });
 * ```
 */
export function kafkaLogCreator(logger: Logger, options: KafkaLogOptions = {}): logCreator {
  return () =>
    ({ namespace, level, log }: LogEntry): void => {
      const { message, timestamp: _timestamp, logger: _kafkajs, ...extra } = log as LogEntry['log'] & { logger?: unknown };
      const text = String(message);
      logger[levelOf(level, namespace, text, extra, options)]({ logger: 'kafkajs', namespace, ...extra }, `kafka: ${text}`);
    };
}
