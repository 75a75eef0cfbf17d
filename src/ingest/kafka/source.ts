/**
 * Kafka source: tracejudge joins the Collector's Kafka pipeline as one more consumer group.
 *
 * At-least-once: offsets are committed per partition only up to the oldest message whose traces are not
 * yet fully handled (OffsetTracker). Back-pressure: when the assembler refuses a message, the partition is
 * paused and re-fetched from that message once the retry hint has passed. Poison messages go to the
 * dead-letter topic and their offset moves on. After a rebalance, uncommitted messages are re-read by
 * whoever owns the partition; duplicates carry the same evaluation ids. A partition this member keeps across
 * a rebalance keeps its tracking: messages it already holds are not offered again when kafkajs re-fetches
 * them, so their pending settles still hold the watermark back.
 *
 * Start does not wait for the brokers: `fetch.start` resolves at once and a background loop connects,
 * subscribes and runs the consumer, trying again with backoff while the brokers cannot be reached (not ready
 * meanwhile, one warn line naming `sources.kafka.brokers`; KafkaJS's own connection errors are debug lines
 * until the first connect succeeds). It gives up, through `onFatal`, after `startupTimeoutMs` or on an error
 * that is not transient. The shutdown cancels the loop.
 *
 * Lifecycle: two components, because intake and acknowledgement end at different times. `fetch` starts the
 * consumer (join the group, fetch) and its shutdown pauses every topic (no more fetching; the member stays in
 * the group and keeps its partitions). `offsets` starts the commit timer and its shutdown, once everything
 * downstream has flushed, waits for in-flight messages to settle (by the deadline), commits what settled and
 * only then leaves the group, so a successor starts from an up-to-date committed offset. In the service
 * graph `fetch` feeds the assembler and the emitters feed `offsets`.
 */
import { Kafka, Partitioners, type Consumer, type EachBatchPayload, type KafkaConfig, type Producer, type SASLOptions } from 'kafkajs';
import { component, type Component, type ComponentSettings } from '../../component.js';
import { errorMessage } from '../../errors.js';
import { isTransientKafkaError, kafkaLogCreator, kafkaLogLevel } from '../../telemetry/kafka-log.js';
import { ThrottledLog } from '../../telemetry/log.js';
import type { SpanSink } from '../sink.js';
import { Interner } from '../otlp/intern.js';
import { decodeKafkaValue, type KafkaEncoding } from './decode-message.js';
import { publishDeadLetter } from './dead-letter.js';
import { OffsetTracker } from './offset-tracker.js';
import type { ComponentHealth, HealthReporter } from '../../health.js';
import { leaveGroup } from './leave-group.js';

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
  /** How long `fetch` keeps trying to reach the brokers at start before it fails (0 or absent: forever). */
  startupTimeoutMs?: number | undefined;
  ssl?: boolean | Record<string, unknown> | undefined;
  sasl?: { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string } | undefined;
}

export interface KafkaSourceOptions {
  config: KafkaSourceConfig;
  sink: SpanSink;
  /** With the service's `interner` when it has one (else the source keeps its own). */
  settings: ComponentSettings & { readonly interner?: Interner };
  /** Publish undecodable messages to the dead-letter topic (default true); false only logs and counts them (replay). */
  publishDeadLetters?: boolean;
  /**
   * Told once when the source gives up after `fetch.start` resolved: the brokers did not answer within
   * `startupTimeoutMs`, or the first connect failed for a reason that is not transient (e.g. a topic that
   * cannot be subscribed to). Without it the failure is logged at error level.
   */
  onFatal?: (err: Error) => void;
}

export interface KafkaSourceStats {
  /** Messages handled: offered and accepted, or dead-lettered (a refused message counts once, when accepted). */
  messages: number;
  deadLetters: number;
  pauses: number;
  /** Offset commits that succeeded (one per partition per commit round with progress). */
  commits: number;
  /** Re-fetched messages skipped after a rebalance because this member already held them. */
  refetchedSkipped: number;
  /** Group joins (the first one included); more than one means rebalances happened. */
  groupJoins: number;
}

export interface KafkaSource extends HealthReporter {
  /** Join the group and fetch; its shutdown stops fetching (in-flight work continues). */
  readonly fetch: Component;
  /** The commit timer; its shutdown waits for in-flight records (by the deadline), commits what settled, leaves the group. */
  readonly offsets: Component;
  /** Commit settled offsets now (also done every `commitIntervalMs`). */
  commit(): Promise<void>;
  inFlight(): number;
  stats(): KafkaSourceStats;
  /**
   * Per `topic` and partition, one past the newest message handled (offered and accepted, skipped, or
   * dead-lettered) in this process: the replay uses it to know when it reached the end offsets.
   */
  positions(): ReadonlyMap<string, ReadonlyMap<number, bigint>>;
}

/**
 * How long `fetch.start` waits for subscribed topics that do not exist yet (a broker with
 * `auto.create.topics.enable` creates them on the first metadata request; the Collector may create them on its
 * first export). Past it the start fails, naming the topics.
 */
const TOPIC_WAIT_MS = 30_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** kafkajs errors that mean the broker or the coordinator cannot be reached yet (worth trying again). */
const UNREACHABLE = new Set(['KafkaJSConnectionError', 'KafkaJSConnectionClosedError', 'KafkaJSNumberOfRetriesExceeded', 'KafkaJSRequestTimeoutError', 'KafkaJSBrokerNotFound', 'KafkaJSGroupCoordinatorNotFound']);
const unreachable = (err: unknown): boolean =>
  isTransientKafkaError(err) || (err instanceof Error && (UNREACHABLE.has(err.name) || (err as { retriable?: unknown }).retriable === true));

export function createKafkaSource(options: KafkaSourceOptions): KafkaSource {
  const { config, sink } = options;
  const log = options.settings.logger.child({ component: 'kafka-source' });
  const telemetry = options.settings.telemetry.instruments;
  const interner = options.settings.interner ?? new Interner();
  const topics = config.topics?.length ? config.topics : [{ topic: config.topic, encoding: config.encoding }];
  const encodingOf = new Map(topics.map((t) => [t.topic, t.encoding]));
  const dlqTopicOf = (topic: string): string => config.deadLetterTopic ?? `${topic}.dlq`;
  const trackers = new Map<string, OffsetTracker>(topics.map((t) => [t.topic, new OffsetTracker()]));
  const stats: KafkaSourceStats = { messages: 0, deadLetters: 0, pauses: 0, commits: 0, refetchedSkipped: 0, groupJoins: 0 };
  const commitFailures = new ThrottledLog(log, 'kafka: offset commit failed; will retry');
  const pausedLog = new ThrottledLog(log, 'kafka: partition paused by back-pressure (assembler full); it resumes after the retry hint', 5000);
  const positions = new Map<string, Map<number, bigint>>(topics.map((t) => [t.topic, new Map<number, bigint>()]));
  const advance = (topic: string, partition: number, offset: bigint): void => {
    const m = positions.get(topic);
    const cur = m?.get(partition);
    if (m && (cur === undefined || offset + 1n > cur)) m.set(partition, offset + 1n);
  };
  /** Partitions assigned to this member at the last group join, per topic. */
  let owned = new Map<string, Set<number>>();

  // Until the first connect succeeds, the connect loop reports failures itself (one warn line, the reason on
  // /readyz): KafkaJS's per-attempt connection errors are debug lines meanwhile.
  const kafkaLog = { failuresAsDebug: true };
  const kafkaConfig: KafkaConfig = {
    clientId: config.clientId,
    brokers: [...config.brokers],
    logLevel: kafkaLogLevel(log),
    logCreator: kafkaLogCreator(log, kafkaLog),
    retry: { initialRetryTime: 300, maxRetryTime: 5000, retries: 8 },
  };
  if (config.ssl !== undefined) kafkaConfig.ssl = config.ssl;
  if (config.sasl) kafkaConfig.sasl = { ...config.sasl } as SASLOptions;
  const kafka = new Kafka(kafkaConfig);

  // Health (src/service/health.ts): from the consumer's events; `fetching` also needs a fetch (one per
  // maxWaitTimeInMs even when idle or paused) or a heartbeat within three heartbeat intervals (at least 5 s, at
  // most a session timeout). The member id is kept to leave the group before a restart (below).
  const stallMs = Math.min(config.sessionTimeoutMs, Math.max(3 * config.heartbeatIntervalMs, 5000));
  let state: { state: string; reason?: string } = { state: 'starting', reason: 'kafka: joining the consumer group' };
  let lastContact = 0;
  let memberId: string | undefined;
  let leaveClient: Kafka | undefined;
  const health = (): ComponentHealth => {
    if (state.state !== 'fetching') return { ready: false, ...state };
    const silentMs = Date.now() - lastContact;
    if (silentMs > stallMs) return { ready: false, state: 'stalled', reason: `kafka: no fetch and no heartbeat for ${Math.round(silentMs / 1000)} s` };
    return { ready: true, state: 'fetching' };
  };
  /**
   * Before kafkajs restarts a crashed consumer: take the old member out of the group, trying again while the
   * broker cannot be reached, so the new member's join does not wait a session timeout for it.
   */
  const beforeRestart = async (error: Error): Promise<boolean> => {
    state = { state: 'restarting', reason: `kafka: consumer crashed (${errorMessage(error)}); restarting` };
    const old = memberId;
    // kafkajs reports the crash (CRASH) only once this resolves, which waits for the broker.
    log.warn({ err: errorMessage(error), memberId: old }, 'kafka: consumer crashed; leaving the group, then restarting');
    while (!stopped && old !== undefined) {
      try {
        leaveClient ??= new Kafka({ ...kafkaConfig, connectionTimeout: 1000, retry: { initialRetryTime: 200, maxRetryTime: 1000, retries: 1 } });
        const outcome = await leaveGroup(leaveClient, config.groupId, old);
        log.info({ groupId: config.groupId, memberId: old, outcome }, 'kafka: left the group before restarting the consumer');
        break;
      } catch (err) {
        if (!unreachable(err)) {
          log.warn({ err: errorMessage(err) }, 'kafka: could not leave the group before the restart; the rejoin may wait a session timeout');
          break;
        }
        await sleep(1000);
      }
    }
    if (memberId === old) memberId = undefined;
    return !stopped;
  };

  let consumer: Consumer | undefined;
  let producer: Producer | undefined;
  let producerReady: Promise<Producer> | undefined;
  let commitTimer: NodeJS.Timeout | undefined;
  const resumeTimers = new Set<NodeJS.Timeout>();
  let stopped = false;
  /** True once the consumer runs (a start that failed has nothing to pause). */
  let running = false;
  let committing: Promise<void> = Promise.resolve();

  const getProducer = (): Promise<Producer> => {
    producerReady ??= (async () => {
      // The default (Java-compatible murmur2) partitioner, chosen explicitly so KafkaJS does not warn about it.
      const p = kafka.producer({ allowAutoTopicCreation: true, createPartitioner: Partitioners.DefaultPartitioner });
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
          stats.commits++;
          telemetry.kafkaCommits.add(1, { topic });
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
      if (tracker.seen(partition, offset)) {
        // Re-fetched after a rebalance that left this partition here: already offered (and in flight or done).
        stats.refetchedSkipped++;
        advance(topic, partition, offset);
        resolveOffset(message.offset);
        continue;
      }
      let decoded;
      try {
        decoded = decodeKafkaValue(message.value, encoding, message.headers, interner);
      } catch (error) {
        let ok = false;
        if (options.publishDeadLetters !== false) {
          const p = await getProducer().catch(() => undefined);
          ok = p ? await publishDeadLetter(p, dlqTopicOf(topic), { topic, partition, message, error }) : false;
          telemetry.kafkaDeadLetters.add(1, { outcome: ok ? 'published' : 'failed' });
        }
        stats.deadLetters++;
        stats.messages++;
        log.warn({ topic, partition, offset: message.offset, err: errorMessage(error), deadLetter: ok }, 'kafka: undecodable message');
        tracker.settle(tracker.track(partition, offset));
        advance(topic, partition, offset);
        resolveOffset(message.offset);
        await heartbeat();
        continue;
      }
      if (decoded.rejected > 0) telemetry.spansRejected.add(decoded.rejected, { source: 'kafka', reason: 'invalid' });
      const handle = tracker.track(partition, offset);
      // An abandoned message (its traces not delivered by the shutdown) is never settled: the watermark stays
      // below it, so it is fetched again after the restart.
      const result = sink.offer({ spans: decoded.spans, logs: [], source: 'kafka', onSettled: () => tracker.settle(handle), onAbandoned: () => abandoned++ });
      if (!result.accepted) {
        tracker.untrack(handle);
        stats.pauses++;
        pausedLog.hit(1, { topic, partition, retryAfterMs: result.retryAfterMs, reason: result.reason });
        // Not resolved: after the resume the consumer fetches again from this message.
        pause();
        scheduleResume(c, topic, partition, result.retryAfterMs);
        break;
      }
      stats.messages++;
      telemetry.spansReceived.add(decoded.spans.length, { source: 'kafka' });
      advance(topic, partition, offset);
      // "Resolved" only moves kafkajs' fetch position; commits follow the OffsetTracker watermark.
      resolveOffset(message.offset);
      await heartbeat();
    }
  };

  /** Messages left unsettled by the shutdown (their records not delivered); the shutdown stops waiting for them. */
  let abandoned = 0;
  const inFlight = (): number => {
    let n = 0;
    for (const t of trackers.values()) n += t.inFlight();
    return n;
  };

  /**
   * Subscribe, waiting up to TOPIC_WAIT_MS for topics that do not exist yet (KafkaJS gives up on the first
   * "This server does not host this topic-partition" answer, even while the broker is creating the topic).
   */
  const subscribe = async (c: Consumer): Promise<void> => {
    const names = topics.map((t) => t.topic);
    const started = Date.now();
    for (let delay = 200, waiting = false; ; delay = Math.min(delay * 2, 2000)) {
      try {
        await c.subscribe({ topics: names, fromBeginning: config.initialOffset === 'earliest' });
        return;
      } catch (err) {
        if (stopped) throw err;
        if (!isTransientKafkaError(err)) {
          const key = config.topics?.length ? 'sources.kafka.topics' : 'sources.kafka.topic';
          throw new Error(`kafka: cannot subscribe to topic ${names.map((n) => JSON.stringify(n)).join(', ')} (${key}) on ${config.brokers.join(',')}: ${errorMessage(err)}`, { cause: err });
        }
        if (Date.now() - started >= TOPIC_WAIT_MS) {
          throw new Error(
            `kafka: topic ${names.map((n) => JSON.stringify(n)).join(', ')} does not exist on ${config.brokers.join(',')} after ${TOPIC_WAIT_MS / 1000} s ` +
              `(create it, or let the broker create topics: auto.create.topics.enable=true): ${errorMessage(err)}`,
          );
        }
        if (!waiting) log.info({ topics: names, waitMs: TOPIC_WAIT_MS }, 'kafka: waiting for the topic to exist');
        waiting = true;
        log.debug({ topics: names, err: errorMessage(err), retryInMs: delay }, 'kafka: topic not there yet');
        await sleep(delay);
      }
    }
  };

  let connecting: Promise<void> | undefined;
  /** Ends the connect loop's wait between attempts (the shutdown). */
  let wakeUp: (() => void) | undefined;
  const waitBetweenAttempts = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const t = setTimeout(resolve, ms);
      wakeUp = () => {
        clearTimeout(t);
        resolve();
      };
    });
  const brokerList = config.brokers.join(',');
  let probeClient: Kafka | undefined;
  /**
   * Connect, subscribe and run, trying again with backoff (1 s doubling to 30 s, on top of KafkaJS's own
   * retries) while the brokers cannot be reached; rejects with the reason when it gives up.
   */
  const connectLoop = async (c: Consumer): Promise<void> => {
    const started = Date.now();
    const timeoutMs = config.startupTimeoutMs ?? 0;
    let attempts = 0;
    let lastError = 'no answer yet';
    for (let delay = 1000; ; delay = Math.min(delay * 2, 30_000)) {
      attempts++;
      try {
        const attempt = (async () => {
          // One quick connection first (no KafkaJS retries): an unreachable broker is reported within a
          // connection timeout, with its own error, instead of after the consumer's retries.
          probeClient ??= new Kafka({ ...kafkaConfig, retry: { retries: 0 } });
          const probe = probeClient.admin();
          try {
            await probe.connect();
          } catch (err) {
            lastError = errorMessage(err);
            throw err;
          } finally {
            await probe.disconnect().catch(() => undefined);
          }
          if (stopped) return;
          await c.connect();
          if (stopped) return;
          await subscribe(c);
          if (stopped) return;
          await c.run({ autoCommit: false, eachBatchAutoResolve: false, eachBatch });
          running = true;
        })();
        if (timeoutMs > 0) {
          // A connect attempt (KafkaJS retries inside it) may outlast the timeout: give up on time.
          const left = Math.max(0, started + timeoutMs - Date.now());
          let timer: NodeJS.Timeout | undefined;
          const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), left)));
          attempt.catch(() => undefined);
          const outcome = await Promise.race([attempt, late]).finally(() => clearTimeout(timer));
          if (outcome === 'late') throw Object.assign(new Error(lastError), { name: 'KafkaJSConnectionError' });
        } else {
          await attempt;
        }
        if (stopped) return;
        kafkaLog.failuresAsDebug = false;
        if (attempts > 1) log.info({ brokers: config.brokers, waitedMs: Date.now() - started }, 'kafka: sources.kafka.brokers answer now; connected');
        log.info({ topics: topics.map((t) => t.topic), groupId: config.groupId, brokers: config.brokers }, 'kafka source started');
        return;
      } catch (err) {
        if (stopped) return;
        if (!unreachable(err)) throw err instanceof Error && err.message.startsWith('kafka:') ? err : new Error(`kafka: cannot start the consumer on sources.kafka.brokers ${brokerList}: ${errorMessage(err)}`, { cause: err });
        const waitedMs = Date.now() - started;
        if (timeoutMs > 0 && waitedMs >= timeoutMs) {
          throw new Error(`kafka: sources.kafka.brokers ${brokerList} did not answer within sources.kafka.startupTimeoutMs (${timeoutMs} ms): ${errorMessage(err)}`, { cause: err });
        }
        state = { state: 'connecting', reason: `kafka: cannot reach sources.kafka.brokers ${brokerList} (${errorMessage(err)}); retrying` };
        if (attempts === 1) {
          log.warn(
            { brokers: config.brokers, err: errorMessage(err), startupTimeoutMs: timeoutMs },
            `kafka: cannot reach sources.kafka.brokers ${brokerList}; retrying with backoff, not ready meanwhile (${timeoutMs > 0 ? `giving up after sources.kafka.startupTimeoutMs: ${timeoutMs} ms` : 'sources.kafka.startupTimeoutMs: 0, waiting forever'})`,
          );
        } else {
          log.debug({ brokers: config.brokers, err: errorMessage(err), attempts, retryInMs: delay }, 'kafka: sources.kafka.brokers still not answering');
        }
        await waitBetweenAttempts(timeoutMs > 0 ? Math.min(delay, Math.max(0, started + timeoutMs - Date.now())) : delay);
        if (stopped) return;
      }
    }
  };

  const fetch = component('kafka:fetch', {
    start() {
      const c = kafka.consumer({
        groupId: config.groupId,
        sessionTimeout: config.sessionTimeoutMs,
        heartbeatInterval: config.heartbeatIntervalMs,
        // Like the Collector's receiver (max_fetch_wait 250 ms): low latency from a resume or a quiet topic.
        maxWaitTimeInMs: 250,
        retry: { initialRetryTime: 300, maxRetryTime: 5000, retries: 8, restartOnFailure: beforeRestart },
      });
      consumer = c;
      const contact = (): void => {
        lastContact = Date.now();
      };
      c.on(c.events.FETCH, contact);
      c.on(c.events.HEARTBEAT, contact);
      c.on(c.events.DISCONNECT, () => {
        if (!stopped) state = { state: 'disconnected', reason: 'kafka: the consumer is disconnected' };
      });
      c.on(c.events.REBALANCING, () => {
        state = { state: 'rebalancing', reason: 'kafka: the consumer group is rebalancing' };
      });
      c.on(c.events.GROUP_JOIN, (event) => {
        // An eager rebalance: every partition restarts from its committed offset. A partition this member
        // owned before and still owns keeps its tracking (its re-read messages are skipped in eachBatch);
        // any other partition is forgotten (settles of older messages are ignored; re-reads are tracked anew).
        stats.groupJoins++;
        memberId = event.payload.memberId;
        state = { state: 'fetching' };
        lastContact = Date.now();
        const assignment = event.payload.memberAssignment;
        const next = new Map<string, Set<number>>();
        for (const [topic, tracker] of trackers) {
          const now = new Set(assignment[topic] ?? []);
          next.set(topic, now);
          const before = owned.get(topic);
          for (const p of tracker.known()) if (!now.has(p) || !before?.has(p)) tracker.reset(p);
        }
        owned = next;
        log.info({ memberAssignment: assignment, groupId: config.groupId }, 'kafka: joined the consumer group');
      });
      c.on(c.events.CRASH, (event) => {
        const why = `kafka: consumer crashed (${errorMessage(event.payload.error)})`;
        state = event.payload.restart ? { state: 'restarting', reason: `${why}; restarting` } : { state: 'crashed', reason: `${why}; not restarted` };
        log.warn({ err: errorMessage(event.payload.error), restart: event.payload.restart }, 'kafka: consumer crashed');
      });
      connecting = connectLoop(c).catch((err: unknown) => {
        const error = err instanceof Error ? err : new Error(String(err));
        state = { state: 'failed', reason: error.message };
        if (options.onFatal) options.onFatal(error);
        else log.error({ err: error.message }, 'kafka source failed to start');
      });
    },
    async shutdown(deadline) {
      stopped = true;
      wakeUp?.();
      // A connect attempt in flight ends by itself (KafkaJS retries inside it); wait for it by the deadline.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([connecting, new Promise((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - Date.now()))))]);
      clearTimeout(timer);
      state = { state: 'stopped', reason: 'kafka: stopped' };
      for (const t of resumeTimers) clearTimeout(t);
      resumeTimers.clear();
      // Pause rather than stop: the member keeps its partitions (and heartbeats) until `offsets` has
      // committed what the flush settles; leaving first would hand partitions over with stale offsets.
      if (!running) return;
      try {
        consumer?.pause(topics.map((t) => ({ topic: t.topic })));
      } catch (err) {
        log.warn({ err: errorMessage(err) }, 'kafka: pause at stop failed');
      }
    },
  });

  const offsets = component('kafka:offsets', {
    start() {
      commitTimer = setInterval(() => void commit(), config.commitIntervalMs);
      commitTimer.unref();
    },
    async shutdown(deadline) {
      await fetch.shutdown(deadline);
      while (inFlight() > abandoned && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      if (commitTimer) clearInterval(commitTimer);
      await commit();
      // disconnect() stops the runner and leaves the group.
      await consumer?.disconnect().catch((err: unknown) => log.warn({ err: errorMessage(err) }, 'kafka: disconnect failed'));
      if (producer) await producer.disconnect().catch(() => undefined);
      log.info({ inFlight: inFlight(), undelivered: abandoned, ...stats }, 'kafka source stopped');
    },
  });

  return {
    name: 'kafka',
    health,
    fetch,
    offsets,
    commit,
    inFlight,
    stats() {
      return { ...stats };
    },
    positions() {
      return positions;
    },
  };
}
