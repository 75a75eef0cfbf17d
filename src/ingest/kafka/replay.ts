/**
 * Replay and backfill: re-score a Kafka topic's history offline (`tracejudge score --kafka TOPIC
 * --from-beginning --until-end`).
 *
 * The replay reads through the same Kafka source as `serve` (same decoding, assembly across messages,
 * back-pressure), in a consumer group of its own (`tracejudge-replay-<pid>-<time>` unless one is given), so the
 * live group's offsets are never touched. The end offsets are fetched once at the start with the admin client;
 * with `untilEnd` the replay stops when every partition has been read up to them, flushes the assembler (every
 * trace is decided and scored), and deletes its group. Undecodable messages are logged and counted, not
 * dead-lettered again (the live consumer already did that).
 */
import { Kafka, logLevel as KafkaLogLevel, type KafkaConfig, type SASLOptions } from 'kafkajs';
import type { AssemblyConfig, TraceHandler } from '../assembler.js';
import { TraceAssembler } from '../assembler.js';
import { ErrorCodes, errorMessage, TracejudgeError } from '../../errors.js';
import { logger } from '../../telemetry/log.js';
import { createKafkaSource, type KafkaSourceConfig } from './source.js';

export interface ReplayOptions {
  /** Brokers, client id, encoding, TLS/SASL: the `sources.kafka` section. */
  kafka: KafkaSourceConfig;
  assembly: Partial<AssemblyConfig>;
  topic: string;
  /** Start at the earliest offset of each partition (else at the end offsets fetched at the start). */
  fromBeginning: boolean;
  /** Stop once every partition was read up to the end offsets fetched at the start (else run until `signal`). */
  untilEnd: boolean;
  onTrace: TraceHandler;
  /** Default `tracejudge-replay-<pid>-<time>`. */
  groupId?: string;
  /** Called about every `progressIntervalMs` with messages read and messages to read (0 when following). */
  onProgress?: (done: number, total: number) => void;
  progressIntervalMs?: number;
  signal?: AbortSignal;
}

export interface ReplayResult {
  groupId: string;
  partitions: number;
  /** Messages between the start and end offsets when the replay began. */
  total: number;
  /** Messages read (decoded or dead), including any past the end offsets. */
  messages: number;
  undecodable: number;
  traces: number;
}

interface PartitionRange {
  partition: number;
  start: bigint;
  end: bigint;
}

function kafkaClient(c: KafkaSourceConfig): Kafka {
  const config: KafkaConfig = { clientId: c.clientId, brokers: [...c.brokers], logLevel: KafkaLogLevel.NOTHING, retry: { retries: 3 } };
  if (c.ssl !== undefined) config.ssl = c.ssl;
  if (c.sasl) config.sasl = { ...c.sasl } as SASLOptions;
  return new Kafka(config);
}

/** Start and end offsets per partition, from the admin client. Throws a usage-level error for an unknown topic. */
async function partitionRanges(kafka: Kafka, topic: string, brokers: readonly string[], fromBeginning: boolean): Promise<PartitionRange[]> {
  const admin = kafka.admin();
  try {
    await admin.connect();
    const topics = await admin.listTopics();
    if (!topics.includes(topic)) {
      throw new TracejudgeError(ErrorCodes.USAGE, `score --kafka: topic ${JSON.stringify(topic)} does not exist on ${brokers.join(',')}`);
    }
    const offsets = await admin.fetchTopicOffsets(topic);
    return offsets
      .map((o) => ({ partition: o.partition, start: BigInt(fromBeginning ? o.low : o.high), end: BigInt(o.high) }))
      .sort((a, b) => a.partition - b.partition);
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

async function deleteGroup(kafka: Kafka, groupId: string): Promise<void> {
  const admin = kafka.admin();
  try {
    await admin.connect();
    await admin.deleteGroups([groupId]);
  } catch (err) {
    logger.debug({ groupId, err: errorMessage(err) }, 'replay: could not delete the replay consumer group');
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

/** Replay `topic` into `onTrace` through an assembler; resolves when done (see the module comment). */
export async function replayKafka(options: ReplayOptions): Promise<ReplayResult> {
  const { topic } = options;
  const groupId = options.groupId ?? `tracejudge-replay-${process.pid}-${Date.now()}`;
  const sourceConfig: KafkaSourceConfig = {
    ...options.kafka,
    topic,
    topics: undefined,
    groupId,
    initialOffset: options.fromBeginning ? 'earliest' : 'latest',
  };
  const kafka = kafkaClient(sourceConfig);
  const ranges = await partitionRanges(kafka, topic, sourceConfig.brokers, options.fromBeginning);
  const total = ranges.reduce((n, r) => n + Number(r.end - r.start), 0);
  const log = logger.child({ component: 'kafka-replay' });
  log.info({ topic, groupId, partitions: ranges.length, messages: total, fromBeginning: options.fromBeginning, untilEnd: options.untilEnd }, 'replay: starting');

  const assembler = new TraceAssembler({ config: options.assembly, onTrace: options.onTrace });
  const source = createKafkaSource({ config: sourceConfig, sink: assembler, publishDeadLetters: false });
  const read = (): { done: number; atEnd: boolean } => {
    const positions = source.positions().get(topic);
    let done = 0;
    let atEnd = true;
    for (const r of ranges) {
      const pos = positions?.get(r.partition) ?? r.start;
      const clamped = pos < r.start ? r.start : pos > r.end ? r.end : pos;
      done += Number(clamped - r.start);
      if (pos < r.end) atEnd = false;
    }
    return { done, atEnd };
  };

  const nothingToRead = options.untilEnd && total === 0;
  try {
    if (!nothingToRead) {
      await source.start();
      assembler.start();
      const interval = options.progressIntervalMs ?? 200;
      for (;;) {
        const { done, atEnd } = read();
        options.onProgress?.(done, options.untilEnd ? total : 0);
        if ((options.untilEnd && atEnd) || options.signal?.aborted) break;
        await new Promise((r) => setTimeout(r, interval));
      }
      await source.stop();
    }
    await assembler.close();
  } finally {
    await source.shutdown(Date.now() + 10_000);
    assembler.stop();
    await deleteGroup(kafka, groupId);
  }
  const stats = source.stats();
  const result: ReplayResult = {
    groupId,
    partitions: ranges.length,
    total,
    messages: stats.messages,
    undecodable: stats.deadLetters,
    traces: assembler.stats.tracesAssembled,
  };
  log.info({ topic, ...result }, 'replay: done');
  if (assembler.stats.handlerErrors > 0) {
    throw new TracejudgeError(ErrorCodes.SCORER_FAILED, `score --kafka: ${assembler.stats.handlerErrors} of ${assembler.stats.tracesAssembled} traces failed (see the log)`);
  }
  return result;
}

/** The `score` flags that select a replay. */
export interface ReplayArgs {
  kafka?: string | undefined;
  'from-beginning'?: boolean | undefined;
  'until-end'?: boolean | undefined;
}

/**
 * Replay options from `tracejudge score` flags, or undefined when `--kafka` is absent (files are scored).
 * Without `--until-end` the replay follows the topic until SIGINT/SIGTERM.
 */
export function replayOptionsFromArgs(
  args: ReplayArgs,
  positionals: readonly string[],
  config: { sources: { kafka: KafkaSourceConfig }; assembly: Partial<AssemblyConfig> },
): Omit<ReplayOptions, 'onTrace'> | undefined {
  const usage = (m: string): TracejudgeError => new TracejudgeError(ErrorCodes.USAGE, `score: ${m}`);
  if (args.kafka === undefined) {
    if (args['from-beginning'] || args['until-end']) throw usage('--from-beginning and --until-end need --kafka TOPIC');
    return undefined;
  }
  if (args.kafka === '') throw usage('--kafka needs a topic name');
  if (positionals.length > 0) throw usage('give either --kafka TOPIC or trace files, not both');
  const abort = new AbortController();
  const stop = (): void => abort.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return {
    kafka: config.sources.kafka,
    assembly: config.assembly,
    topic: args.kafka,
    fromBeginning: args['from-beginning'] === true,
    untilEnd: args['until-end'] === true,
    signal: abort.signal,
  };
}
