/**
 * The broker goes away mid-stream and comes back (scripts/kafka/stop.sh + start.sh; topics survive in
 * .kafka/data): a running `tracejudge serve` recovers by itself and loses nothing.
 *
 * This file holds the broker lock for its whole run so no other Kafka test file of the same run sees the broker
 * stopped, and it always restarts the broker in `finally`/`afterAll`.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Kafka } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireBrokerLock } from './broker-lock.js';
import { collectorMessages, fixtureTraces } from './collector-messages.js';
import { compareRecords, createOracle } from './expected.js';
import { brokers, createTopic, haveBroker, kafkaClient, uniqueName } from './helpers.js';
import { readJsonl, ROOT, sleep, startServe, until, writeServeConfig, type CliChild } from './serve-child.js';
import { committedOffsets, endOffsets, produce } from './topic.js';

const run = promisify(execFile);
const script = (name: 'start' | 'stop'): Promise<unknown> => run('bash', [`scripts/kafka/${name}.sh`], { cwd: ROOT, timeout: 120_000 });

let kafka: Kafka;
let dir: string;
let child: CliChild | undefined;
let release: (() => void) | undefined;
const oracle = createOracle();

describe.skipIf(!haveBroker).sequential('Kafka broker restart under a running tracejudge serve', () => {
  beforeAll(async () => {
    release = await acquireBrokerLock();
    dir = mkdtempSync(join(tmpdir(), 'tj-kafka-restart-'));
    kafka = kafkaClient();
  }, 320_000);

  afterAll(async () => {
    await child?.kill();
    // Never leave the broker down for the rest of the run (start.sh returns at once when it answers).
    await script('start');
    await oracle.close();
    rmSync(dir, { recursive: true, force: true });
    release?.();
  }, 150_000);

  it('recovers by itself after the broker stops and starts again, and loses nothing', async ({ annotate }) => {
    const topic = uniqueName('tj-restart');
    const groupId = uniqueName('g-restart');
    await createTopic(kafka, topic, 2);
    const traces = fixtureTraces('restart', 30);
    const before = traces.slice(0, 15);
    const after = traces.slice(15);
    const expected = await oracle.expectedRecords(traces);
    const jsonl = join(dir, 'restart.jsonl');
    // A long decision wait: the first traces are still held (not scored, offsets not committable) when the broker stops.
    const config = writeServeConfig(join(dir, 'restart.yaml'), brokers, { topic, groupId, jsonl, decisionWaitMs: 2500 });
    child = await startServe(config);

    const producer = kafka.producer();
    await producer.connect();
    await produce(producer, topic, collectorMessages(before));
    await producer.disconnect();
    await sleep(1000);
    const heldAtStop = expected.length - readJsonl(jsonl).length;
    const t0 = Date.now();
    try {
      await script('stop');
      await sleep(3000);
      expect(child.running).toBe(true);
    } finally {
      await script('start');
    }
    const downMs = Date.now() - t0;

    const producer2 = kafka.producer();
    await producer2.connect();
    await produce(producer2, topic, collectorMessages(after));
    await producer2.disconnect();
    await until('every run scored after the restart', 90_000, () => (compareRecords(readJsonl(jsonl), expected).missing.length === 0 ? true : undefined), 250);
    const cmp = compareRecords(readJsonl(jsonl), expected);
    expect(cmp).toMatchObject({ missing: [], unexpected: [], inconsistent: [] });
    // The consumer also commits again: the group catches up to the end of every partition.
    const ends = await endOffsets(kafka, topic);
    await until('offsets committed up to the end', 30_000, async () => {
      const committed = await committedOffsets(kafka, groupId, topic);
      return [...ends].every(([p, end]) => end === 0 || committed.get(p) === end) ? true : undefined;
    }, 250);
    expect(child.running).toBe(true);
    expect(await child.stop()).toBe(0);
    await annotate(`broker down and back in ${downMs} ms; ${heldAtStop} evaluations pending at the stop; ${cmp.duplicates} duplicates of ${expected.length}`);
  }, 180_000);
});

if (!haveBroker) {
  describe('Kafka broker restart', () => {
    it.skip('needs the broker from test/global-setup.ts (TRACEJUDGE_TEST_KAFKA unset; TRACEJUDGE_KAFKA=off disables it)', () => {});
  });
}
