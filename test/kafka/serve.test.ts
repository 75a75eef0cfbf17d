/**
 * `tracejudge serve` with the Kafka source, as child processes against the real broker: messages produced the way
 * the Collector's Kafka exporter writes them (real AI SDK 6 spans as protobuf ExportTraceServiceRequests, keyed by
 * trace id), score records read from each process's JSONL file and compared with the in-process oracle.
 * The cases run one after another (they start processes and rebalance groups) and hold the broker lock.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kafka, Producer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import type { ScoreRecord } from '../../src/model/score-record.js';
import { replayKafka } from '../../src/ingest/kafka/replay.js';
import type { Trace } from '../../src/model/span.js';
import { byMarker, reply, startStubJudge, type StubJudge, type StubScript } from '../../src/testing/stub-judge/index.js';
import { acquireBrokerLock } from './broker-lock.js';
import { collectorMessages, encodeSpans, fixtureTrace, fixtureTraces, splitTrace, copyTraceId } from './collector-messages.js';
import { compareRecords, createOracle } from './expected.js';
import { brokers, createTopic, haveBroker, kafkaClient, retryWhileRetriable, uniqueName } from './helpers.js';
import { childEnv, CliChild, readJsonl, sleep, startServe, until, writeServeConfig } from './serve-child.js';
import { committedOffsets, endOffsets, produce, readDeadLetters } from './topic.js';

const children: CliChild[] = [];
let kafka: Kafka;
let producer: Producer;
let dir: string;
let release: (() => void) | undefined;
let stub: StubJudge;
const oracle = createOracle();

async function serve(name: string, topic: string, groupId: string, extra: Partial<Parameters<typeof writeServeConfig>[2]> = {}): Promise<{ child: CliChild; jsonl: string }> {
  const jsonl = join(dir, `${name}.jsonl`);
  const config = writeServeConfig(join(dir, `${name}.yaml`), brokers, { topic, groupId, jsonl, ...extra });
  const child = await startServe(config);
  children.push(child);
  return { child, jsonl };
}

/** The partition each trace id (message key) landed on, read back from the topic. */
async function partitionsOf(topic: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const ends = await endOffsets(kafka, topic);
  const total = [...ends.values()].reduce((a, b) => a + b, 0);
  const reader = kafka.consumer({ groupId: uniqueName('reader'), maxWaitTimeInMs: 250 });
  await reader.connect();
  let seen = 0;
  try {
    await retryWhileRetriable('subscribe', () => reader.subscribe({ topic, fromBeginning: true }));
    await reader.run({
      eachMessage: ({ partition, message }) => {
        out.set(String(message.key), partition);
        seen++;
        return Promise.resolve();
      },
    });
    await until(`${total} messages of ${topic}`, 20_000, () => (seen >= total ? true : undefined));
  } finally {
    await reader.disconnect();
  }
  return out;
}

/** Wait until `records()` covers every expected evaluation id. */
async function allScored(records: () => ScoreRecord[], expected: readonly ScoreRecord[], timeoutMs: number): Promise<ScoreRecord[]> {
  return until(`${expected.length} evaluations`, timeoutMs, () => {
    const got = records();
    return compareRecords(got, expected).missing.length === 0 ? got : undefined;
  });
}

describe.skipIf(!haveBroker).sequential('tracejudge serve with the Kafka source (real broker, child processes)', () => {
  beforeAll(async () => {
    release = await acquireBrokerLock();
    dir = mkdtempSync(join(tmpdir(), 'tj-kafka-serve-'));
    kafka = kafkaClient();
    producer = kafka.producer();
    await producer.connect();
    stub = await startStubJudge();
  }, 320_000);

  afterAll(async () => {
    await Promise.all(children.map((c) => c.kill()));
    await producer?.disconnect();
    await stub?.close();
    await oracle.close();
    rmSync(dir, { recursive: true, force: true });
    release?.();
  });

  const topicA = uniqueName('tj-serve');

  it('scores Collector-style protobuf messages of real AI SDK spans; poison messages go to the DLQ and the partition keeps flowing', async () => {
    await createTopic(kafka, topicA, 3);
    const traces = fixtureTraces('serve-a', 25);
    const expected = await oracle.expectedRecords(traces);
    expect(expected.length).toBeGreaterThan(50);
    const groupA = uniqueName('g-a');
    const { child, jsonl } = await serve('a', topicA, groupA);
    const messages = collectorMessages(traces);
    // Poison first on the partition of the first trace's key, so good messages follow it there.
    const first = messages[0];
    await producer.send({
      topic: topicA,
      messages: [
        { key: first?.key ?? 'x', value: Buffer.from([0xff, 0xff, 0xff, 0x01, 0x02]), headers: { origin: 'fuzz' } },
        { key: first?.key ?? 'x', value: Buffer.from('{"resourceSpans": 3}'), headers: { 'content-type': 'application/json' } },
      ],
    });
    await produce(producer, topicA, messages);

    const got = await allScored(() => readJsonl(jsonl), expected, 30_000);
    const cmp = compareRecords(got, expected);
    expect(cmp).toMatchObject({ missing: [], unexpected: [], inconsistent: [], duplicates: 0 });
    expect(got.every((r) => r.source === 'kafka')).toBe(true);

    const dlq = await readDeadLetters(kafka, `${topicA}.dlq`, 2);
    expect(dlq.map((d) => d.key)).toEqual([first?.key, first?.key]);
    expect(dlq[0]?.headers).toMatchObject({ origin: 'fuzz', 'tracejudge.source.topic': topicA });
    expect(dlq[0]?.headers['tracejudge.error']).toBeTruthy();
    expect(Number(dlq[1]?.headers['tracejudge.source.offset'])).toBe(Number(dlq[0]?.headers['tracejudge.source.offset']) + 1);

    expect(await child.stop()).toBe(0);
    expect(child.log('kafka source stopped')).toMatchObject({ deadLetters: 2, messages: 27, inFlight: 0 });
    // Everything was handled, so the shutdown committed every partition up to its end.
    const ends = await endOffsets(kafka, topicA);
    const committed = await committedOffsets(kafka, groupA, topicA);
    for (const [p, end] of ends) if (end > 0) expect(committed.get(p)).toBe(end);
  });

  it('assembles a trace split across three messages and two fetches, and scores it once with all its tool results', async () => {
    const topic = uniqueName('tj-split');
    await createTopic(kafka, topic, 1);
    const trace = fixtureTrace('aisdk6-two-tools', copyTraceId('split', 'two-tools', 0));
    const parts = splitTrace(trace, 3);
    // Each of the first two messages carries one of the two tool calls; the root comes last.
    const toolsIn = (i: number): string[] => (parts[i] ?? []).flatMap((s) => (typeof s.attributes['ai.toolCall.name'] === 'string' ? [s.attributes['ai.toolCall.name']] : []));
    expect([toolsIn(0), toolsIn(1), toolsIn(2)]).toEqual([['convertTemperature'], ['getWeather'], []]);
    const module = join(import.meta.dirname, 'fixtures', 'tool-results.ts');
    const { child, jsonl } = await serve('split', topic, uniqueName('g-split'), {
      decisionWaitMs: 500,
      extra: [
        'scorers:',
        '  completeness: { type: completeness }',
        '  grounding: { type: grounding }',
        `  toolResults: { type: custom, module: ${JSON.stringify(module)}, threshold: 2, reason: always }`,
        'sampling: { default: { rate: 1 } }', // custom scorers count as judge scorers (default rate 0.1)
      ],
    });
    const send = (i: number): Promise<unknown> => producer.send({ topic, messages: [{ key: trace.traceId, value: encodeSpans(parts[i] ?? []) }] });
    await send(0);
    await send(1);
    await sleep(1500); // longer than decisionWaitMs and several fetch cycles: message 3 comes in a later batch
    await send(2);
    await until('three records', 20_000, () => (readJsonl(jsonl).length >= 3 ? true : undefined)).catch((err: unknown) => {
      throw new Error(`${String(err)}\nrecords: ${JSON.stringify(readJsonl(jsonl))}\nstderr: ${child.stderr.slice(-4000)}`);
    });
    await sleep(800); // a second, partial decision would show up within decisionWaitMs
    const records = readJsonl(jsonl);
    expect(records.map((r) => r.scorer).sort()).toEqual(['completeness', 'grounding', 'toolResults']);
    expect(new Set(records.map((r) => `${r.traceId}/${r.spanId}`))).toEqual(new Set([`${trace.traceId}/9a3e90ada818e923`]));
    const tools = records.find((r) => r.scorer === 'toolResults');
    expect(tools).toMatchObject({ score: 2, reason: 'convertTemperature,getWeather', label: 'pass' });
    expect(await child.stop()).toBe(0);
    expect(child.log('tracejudge stopped')).toMatchObject({ tracesAssembled: 1, spansAccepted: trace.spans.length, lateSpans: 0 });
  });

  it('kill -9 mid-stream, restart with the same group: every run scored at least once, duplicates carry identical evaluation ids', async ({ annotate }) => {
    const topic = uniqueName('tj-crash');
    const groupId = uniqueName('g-crash');
    await createTopic(kafka, topic, 4);
    const traces = fixtureTraces('crash', 60);
    const expected = await oracle.expectedRecords(traces);
    const messages = collectorMessages(traces, 2);
    const jsonl = join(dir, 'crash.jsonl');
    const config = writeServeConfig(join(dir, 'crash.yaml'), brokers, { topic, groupId, jsonl, decisionWaitMs: 400 });
    const first = await startServe(config);
    children.push(first);
    // A steady stream, one message every 25 ms; the crash comes while it is still flowing.
    let sent = 0;
    const streaming = (async () => {
      for (const m of messages) {
        await producer.send({ topic, messages: [{ key: m.key, value: m.value }] });
        sent++;
        await sleep(25);
      }
    })();
    await until('a first share of the records', 30_000, () => (readJsonl(jsonl).length >= expected.length / 4 ? true : undefined));
    await first.kill();
    const atCrash = { records: readJsonl(jsonl).length, sent };
    expect(atCrash.sent).toBeLessThan(messages.length);
    expect(atCrash.records).toBeLessThan(expected.length);
    const second = await startServe(config);
    children.push(second);
    await streaming;
    const got = await allScored(() => readJsonl(jsonl), expected, 45_000);
    expect(await second.stop()).toBe(0);
    const cmp = compareRecords(readJsonl(jsonl), expected);
    expect(cmp).toMatchObject({ missing: [], unexpected: [], inconsistent: [] });
    // Reported for the record: how many evaluations were redelivered after the crash.
    await annotate(`kill -9: ${atCrash.records} records before the crash, ${got.length} after recovery, ${cmp.duplicates} duplicates of ${expected.length}`);
  });

  it('two processes share one group on a 6-partition topic; after one stops (SIGTERM) the other takes over and nothing is lost', async () => {
    const topic = uniqueName('tj-group');
    const groupId = uniqueName('g-shared');
    await createTopic(kafka, topic, 6);
    const traces = fixtureTraces('shared', 60);
    const firstHalf = traces.slice(0, 30);
    const secondHalf = traces.slice(30);
    const [p1, p2] = await Promise.all([serve('p1', topic, groupId), serve('p2', topic, groupId)]);
    // Both members settled on 3 partitions each (the first joiner rebalanced once the second arrived).
    const split = await until('a 3/3 assignment', 20_000, () => {
      const last = (c: CliChild): number[] => {
        const joins = c.logs().filter((l) => l.msg === 'kafka: joined the consumer group');
        const a = joins[joins.length - 1]?.memberAssignment as Record<string, number[]> | undefined;
        return a?.[topic] ?? [];
      };
      const a1 = last(p1.child);
      const a2 = last(p2.child);
      return a1.length === 3 && a2.length === 3 && new Set([...a1, ...a2]).size === 6 ? { a1, a2 } : undefined;
    });
    const expectedFirst = await oracle.expectedRecords(firstHalf);
    const expectedAll = await oracle.expectedRecords(traces);
    await produce(producer, topic, collectorMessages(firstHalf));
    const union = (): ScoreRecord[] => [...readJsonl(p1.jsonl), ...readJsonl(p2.jsonl)];
    await allScored(union, expectedFirst, 30_000);
    expect(readJsonl(p1.jsonl).length).toBeGreaterThan(0);
    expect(readJsonl(p2.jsonl).length).toBeGreaterThan(0);

    expect(await p1.child.stop()).toBe(0);
    await until('p2 owning all 6 partitions', 20_000, () => {
      const joins = p2.child.logs().filter((l) => l.msg === 'kafka: joined the consumer group');
      const a = joins[joins.length - 1]?.memberAssignment as Record<string, number[]> | undefined;
      return a?.[topic]?.length === 6 ? true : undefined;
    });
    const p1Count = readJsonl(p1.jsonl).length;
    await produce(producer, topic, collectorMessages(secondHalf));
    await allScored(union, expectedAll, 30_000);
    expect(readJsonl(p1.jsonl)).toHaveLength(p1Count);
    // p2 scored second-half traces keyed to partitions p1 used to own.
    const ownedByP1 = new Set(split.a1);
    const p2Traces = new Set(readJsonl(p2.jsonl).map((r) => r.traceId));
    const partitionOf = await partitionsOf(topic);
    expect(secondHalf.some((t) => ownedByP1.has(partitionOf.get(t.traceId) ?? -1) && p2Traces.has(t.traceId))).toBe(true);
    expect(await p2.child.stop()).toBe(0);
    const cmp = compareRecords(union(), expectedAll);
    // A clean hand-over: p1 committed what it had scored before leaving, so nothing was scored twice.
    expect(cmp).toMatchObject({ missing: [], unexpected: [], inconsistent: [], duplicates: 0 });
  });

  it('back-pressure: a slow judge fills the small assembler, partitions pause, memory stays bounded, and they resume with nothing lost', async ({ annotate }) => {
    const topic = uniqueName('tj-bp');
    await createTopic(kafka, topic, 2);
    const traces = fixtureTraces('bp', 20);
    const judgeScript = (delayMs: number): StubScript =>
      byMarker([
        ['Extract all claims', reply.slow(delayMs, reply.json({ claims: ['The weather was looked up.'] }))],
        ['hallucination with respect to the context', reply.slow(delayMs, reply.json({ verdicts: [{ statement: 'The weather was looked up.', verdict: 'no', reason: 'supported' }] }))],
      ]);
    stub.setScript(judgeScript(0));
    const judge = { baseURL: stub.baseURL, apiKey: 'sk-kafka-bp-test', model: 'stub-judge', maxRetries: 0, timeoutMs: 10_000, concurrency: 2 };
    const scorers = { hallucination: { type: 'hallucination', threshold: 0.5, reason: 'on-fail' } };
    const sampling = { default: { rate: 1 } };
    const expected = await oracle.expectedRecords(traces, { judge, scorers, sampling });
    expect(expected.length).toBeGreaterThan(10);
    expect(expected.every((r) => r.score !== undefined)).toBe(true);

    stub.setScript(judgeScript(150));
    const MAX_BUFFERED = 4;
    const { child, jsonl } = await serve('bp', topic, uniqueName('g-bp'), {
      prometheus: true,
      assembly: [`maxBufferedTraces: ${MAX_BUFFERED}`, 'maxInFlightTraces: 2'],
      extra: [`judge: ${JSON.stringify(judge)}`, `scorers: ${JSON.stringify(scorers)}`, `sampling: ${JSON.stringify(sampling)}`],
    });
    const metricsPort = (child.log('tracejudge started')?.ports as { metrics?: number } | undefined)?.metrics;
    expect(metricsPort).toBeGreaterThan(0);
    await produce(producer, topic, collectorMessages(traces));

    let maxBuffered = 0;
    let maxRssKb = 0;
    const got = await until('every run judged', 60_000, async () => {
      const text = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).then((r) => r.text());
      const m = /^tracejudge_buffer_traces(?:\{[^}]*\})? (\d+)/m.exec(text);
      if (m) maxBuffered = Math.max(maxBuffered, Number(m[1]));
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.proc.pid}/status`, 'utf8'));
      if (rss) maxRssKb = Math.max(maxRssKb, Number(rss[1]));
      const records = readJsonl(jsonl);
      return compareRecords(records, expected).missing.length === 0 ? records : undefined;
    }, 200);
    expect(compareRecords(got, expected)).toMatchObject({ missing: [], unexpected: [], inconsistent: [], duplicates: 0 });
    expect(child.logs().some((l) => l.msg?.startsWith('kafka: partition paused by back-pressure'))).toBe(true);
    expect(await child.stop()).toBe(0);
    const stopped = child.log('kafka source stopped');
    expect(stopped?.pauses).toBeGreaterThan(0);
    expect(stopped).toMatchObject({ messages: traces.length, inFlight: 0 });
    // The assembler never held more than its bound; the process stayed small.
    expect(maxBuffered).toBeGreaterThan(0); // the gauge was read while traces were held
    expect(maxBuffered).toBeLessThanOrEqual(MAX_BUFFERED);
    expect(maxRssKb).toBeLessThan(600 * 1024);
    expect(stub.inFlight.max).toBeLessThanOrEqual(2 * 2); // judge.concurrency per maxInFlightTraces slot at most
    await annotate(`back-pressure: ${String(stopped?.pauses)} pauses, max buffered traces ${maxBuffered}, max RSS ${Math.round(maxRssKb / 1024)} MiB`);
  });

  it('replays a topic offline: score --kafka TOPIC --from-beginning --until-end prints every record once, in its own group', async () => {
    // topicA holds 25 traces and 2 poison messages from the first case; its live group committed everything.
    const traces = fixtureTraces('serve-a', 25);
    const expected = await oracle.expectedRecords(traces);
    const config = join(dir, 'replay.yaml');
    writeFileSync(config, `sources:\n  kafka: { brokers: ${JSON.stringify(brokers)}, initialOffset: latest }\nemit: { prometheus: { enabled: false } }\n`);
    const replay = new CliChild(['score', '-c', config, '--kafka', topicA, '--from-beginning', '--until-end'], childEnv());
    children.push(replay);
    const code = await Promise.race([replay.exited, sleep(60_000).then(() => 'hung' as const)]);
    expect(code, replay.stderr.slice(-3000)).toBe(0);
    const printed = replay.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as ScoreRecord);
    expect(compareRecords(printed, expected)).toMatchObject({ missing: [], unexpected: [], inconsistent: [], duplicates: 0 });
    expect(printed.every((r) => r.source === 'kafka')).toBe(true);
    const done = replay.log('replay: done');
    expect(done).toMatchObject({ total: 27, messages: 27, undecodable: 2, traces: 25, partitions: 3 });
    expect(String(done?.groupId)).toMatch(/^tracejudge-replay-\d+-\d+$/);
    // The replay group is deleted afterwards, and the poison messages were not dead-lettered a second time.
    const admin = kafka.admin();
    await admin.connect();
    const groups = (await admin.listGroups()).groups.map((g) => g.groupId);
    await admin.disconnect();
    expect(groups).not.toContain(done?.groupId);
    expect((await endOffsets(kafka, `${topicA}.dlq`)).get(0)).toBe(2);
  });

  it('replay reports progress up to the end offsets and stops there; an unknown topic is a clear error', async () => {
    const traces: Trace[] = [];
    const progress: [number, number][] = [];
    const config = parseConfig({ sources: { kafka: { brokers } } }, '<test>', {});
    const result = await replayKafka({
      kafka: config.sources.kafka,
      assembly: { decisionWaitMs: 100, tickMs: 20 },
      topic: topicA,
      fromBeginning: true,
      untilEnd: true,
      progressIntervalMs: 20,
      onTrace: (t) => {
        traces.push(t);
        return Promise.resolve();
      },
      onProgress: (done, total) => progress.push([done, total]),
    });
    expect(result).toMatchObject({ total: 27, traces: 25, undecodable: 2 });
    expect(new Set(traces.map((t) => t.traceId))).toEqual(new Set(fixtureTraces('serve-a', 25).map((t) => t.traceId)));
    expect(progress.every(([, total]) => total === 27)).toBe(true);
    expect(progress[progress.length - 1]?.[0]).toBe(27);
    expect(progress.map(([d]) => d)).toEqual([...progress.map(([d]) => d)].sort((a, b) => a - b));

    const missing = uniqueName('tj-missing');
    await expect(
      replayKafka({ kafka: config.sources.kafka, assembly: {}, topic: missing, fromBeginning: true, untilEnd: true, onTrace: () => Promise.resolve() }),
    ).rejects.toThrow(`topic "${missing}" does not exist on ${brokers.join(',')}`);
  });
});

if (!haveBroker) {
  describe('tracejudge serve with the Kafka source', () => {
    it.skip('needs the broker from test/global-setup.ts (TRACEJUDGE_TEST_KAFKA unset; TRACEJUDGE_KAFKA=off disables it)', () => {});
  });
}
