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
import { Kafka, type KafkaConfig, type SASLOptions } from 'kafkajs';
import type { Logger } from 'pino';
import { componentSettings, type Component, type ComponentSettings } from '../../component.js';
import { ErrorCodes, errorMessage, TracejudgeError } from '../../errors.js';
import { ComponentGraph } from '../../component-graph.js';
import { kafkaLogCreator, kafkaLogLevel } from '../../telemetry/kafka-log.js';
import { deferred } from '../../util/deferred.js';
import { TraceAssembler, type AssemblyConfig, type TraceHandler } from '../assembler.js';
import type { SpanSink } from '../sink.js';
import { createKafkaSource, type KafkaSourceConfig } from './source.js';

export interface KafkaReplayOptions {
  /** Brokers, client id, encoding, TLS/SASL: the `sources.kafka` section. */
  kafka: KafkaSourceConfig;
  topic: string;
  /** Start at the earliest offset of each partition (else at the end offsets fetched at the start). */
  fromBeginning: boolean;
  /** Stop once every partition was read up to the end offsets fetched at the start (else run until `signal`). */
  untilEnd: boolean;
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
}

/**
 * The replay as a finite source, in two components like the live Kafka source: `fetch` fetches the
 * partition ranges at start (an unknown topic fails the start with a usage error) and reads into the sink;
 * `done` resolves when the end is reached (or `signal` aborts). `offsets`, shut down after the emitters
 * flushed, commits what settled, leaves and deletes the replay's consumer group.
 */
export interface KafkaReplay {
  readonly fetch: Component & { readonly done: Promise<ReplayResult> };
  readonly offsets: Component;
}

interface PartitionRange {
  partition: number;
  start: bigint;
  end: bigint;
}

function kafkaClient(c: KafkaSourceConfig, log: Logger): Kafka {
  const config: KafkaConfig = { clientId: c.clientId, brokers: [...c.brokers], logLevel: kafkaLogLevel(log), logCreator: kafkaLogCreator(log), retry: { retries: 3 } };
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

/** Build the replay source over `sink` (the assembler); see {@link KafkaReplay}. */
export function createKafkaReplay(options: KafkaReplayOptions & { sink: SpanSink; settings: ComponentSettings; assembled?: () => number }): KafkaReplay {
  const { topic, settings } = options;
  const log = settings.logger.child({ component: 'kafka-replay' });
  const groupId = options.groupId ?? `tracejudge-replay-${process.pid}-${Date.now()}`;
  const sourceConfig: KafkaSourceConfig = { ...options.kafka, topic, topics: undefined, groupId, initialOffset: options.fromBeginning ? 'earliest' : 'latest' };
  const kafka = kafkaClient(sourceConfig, log);
  const done = deferred<ReplayResult>();
  const source = createKafkaSource({
    config: sourceConfig,
    sink: options.sink,
    settings,
    publishDeadLetters: false,
    // The source connects in the background: a consumer that cannot start ends the replay with its error.
    onFatal: (err) => done.reject(err),
  });
  let ranges: PartitionRange[] = [];
  let total = 0;
  let started = false;
  let stopping: Promise<void> | undefined;

  const read = (): { done: number; atEnd: boolean } => {
    const positions = source.positions().get(topic);
    let n = 0;
    let atEnd = true;
    for (const r of ranges) {
      const pos = positions?.get(r.partition) ?? r.start;
      const clamped = pos < r.start ? r.start : pos > r.end ? r.end : pos;
      n += Number(clamped - r.start);
      if (pos < r.end) atEnd = false;
    }
    return { done: n, atEnd };
  };
  const result = (): ReplayResult => {
    const stats = source.stats();
    return { groupId, partitions: ranges.length, total, messages: stats.messages, undecodable: stats.deadLetters };
  };

  async function follow(): Promise<void> {
    const interval = options.progressIntervalMs ?? 200;
    for (;;) {
      const { done: n, atEnd } = read();
      options.onProgress?.(n, options.untilEnd ? total : 0);
      if ((options.untilEnd && atEnd) || options.signal?.aborted) break;
      await new Promise((r) => setTimeout(r, interval));
    }
    await source.fetch.shutdown(Date.now() + 10_000);
  }

  const fetch = {
    name: 'kafka-replay',
    done: done.promise,
    async start() {
      started = true;
      try {
        ranges = await partitionRanges(kafka, topic, sourceConfig.brokers, options.fromBeginning);
      } catch (err) {
        done.reject(err);
        throw err;
      }
      total = ranges.reduce((n, r) => n + Number(r.end - r.start), 0);
      log.info({ topic, groupId, partitions: ranges.length, messages: total, fromBeginning: options.fromBeginning, untilEnd: options.untilEnd }, 'replay: starting');
      if (options.untilEnd && total === 0) {
        done.resolve(result());
        return;
      }
      await source.offsets.start();
      await source.fetch.start();
      follow().then(() => done.resolve(result()), done.reject);
    },
    shutdown(deadline: number) {
      return source.fetch.shutdown(deadline);
    },
  };
  const offsets: Component = {
    name: 'kafka-replay:offsets',
    start: () => Promise.resolve(),
    shutdown(deadline) {
      stopping ??= (async () => {
        await source.offsets.shutdown(deadline);
        if (!started) return;
        const admin = kafka.admin();
        try {
          await admin.connect();
          await admin.deleteGroups([groupId]);
        } catch (err) {
          log.debug({ groupId, err: errorMessage(err) }, 'replay: could not delete the replay consumer group');
        } finally {
          await admin.disconnect().catch(() => undefined);
        }
        log.info({ topic, ...result(), ...(options.assembled ? { traces: options.assembled() } : {}) }, 'replay: done');
      })();
      return stopping;
    },
  };
  return { fetch, offsets };
}

/**
 * Replay `topic` into `onTrace` through an assembler of its own; resolves when done, with the traces
 * handed on. Rejects when a trace handler failed or the topic does not exist.
 */
export async function replayKafka(
  options: KafkaReplayOptions & { assembly: Partial<AssemblyConfig>; onTrace: TraceHandler; settings?: ComponentSettings },
): Promise<ReplayResult & { traces: number }> {
  const settings = options.settings ?? componentSettings();
  const graph = new ComponentGraph();
  const assembler = graph.add(new TraceAssembler({ config: options.assembly, onTrace: options.onTrace, settings }));
  const replay = createKafkaReplay({ ...options, sink: assembler, settings, assembled: () => assembler.stats.tracesAssembled });
  graph.add(replay.fetch, [assembler]);
  graph.add(replay.offsets);
  graph.link(assembler, replay.offsets);
  let result: ReplayResult;
  try {
    await graph.start();
    result = await replay.fetch.done;
  } finally {
    await graph.shutdown(Date.now() + 10_000);
  }
  const { handlerErrors, tracesAssembled } = assembler.stats;
  if (handlerErrors > 0) throw new TracejudgeError(ErrorCodes.SCORER_FAILED, `score --kafka: ${handlerErrors} of ${tracesAssembled} traces failed (see the log)`);
  return { ...result, traces: tracesAssembled };
}
