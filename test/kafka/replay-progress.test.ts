/**
 * The progress bar of a Kafka replay (`score --kafka TOPIC --from-beginning --until-end`) on a real terminal
 * (issue 17): the command runs under `script` (util-linux), which gives it a pseudo-terminal as stderr while
 * stdout goes to a file. The bar counts messages against the topic's end offsets, so its total is the number
 * of messages produced; stdout still holds only the records.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kafka, Producer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveScript, runOnTerminal } from '../cli/terminal.js';
import { acquireBrokerLock } from './broker-lock.js';
import { collectorMessages, fixtureTraces } from './collector-messages.js';
import { brokers, createTopic, haveBroker, kafkaClient, retryWhileRetriable, uniqueName } from './helpers.js';
import { produce } from './topic.js';

const TRACES = 400;

describe.skipIf(!haveBroker || !haveScript)('score --kafka replay progress on a terminal', () => {
  let kafka: Kafka;
  let producer: Producer;
  let dir: string;
  let release: (() => void) | undefined;
  const topic = uniqueName('replay-progress');

  beforeAll(async () => {
    // The broker restart test stops the shared broker: hold the lock for this file, as the other Kafka files do.
    release = await acquireBrokerLock();
    dir = mkdtempSync(join(tmpdir(), 'tj-replay-progress-'));
    kafka = kafkaClient();
    producer = kafka.producer();
    await producer.connect();
    // A topic just created may not be served by its leader yet ("does not host this topic-partition").
    await createTopic(kafka, topic, 2);
    await retryWhileRetriable(`produce to ${topic}`, () => produce(producer, topic, collectorMessages(fixtureTraces('replay-progress', TRACES))));
  }, 360_000);

  afterAll(async () => {
    await producer?.disconnect();
    rmSync(dir, { recursive: true, force: true });
    release?.();
  });

  it('shows done/total messages with rate and ETA, and leaves stdout to the records', async () => {
    const config = join(dir, 'replay.yaml');
    writeFileSync(config, `sources:\n  kafka: { brokers: ${JSON.stringify(brokers)} }\nemit: { prometheus: { enabled: false } }\nscorers:\n  tool-errors: { type: no-tool-errors }\n`);
    const out = join(dir, 'out.jsonl');
    const { code, plain, frames } = await runOnTerminal(['score', '--all', '-c', config, '--kafka', topic, '--from-beginning', '--until-end'], out, 100_000);
    expect(code, plain.slice(-2000)).toBe(0);
    expect(frames.length, plain.slice(0, 2000)).toBeGreaterThan(0);
    // One message per trace was produced (collectorMessages, one part each): that is the bar's total.
    expect(frames.some((f) => new RegExp(`^score \\[[=\\- ]+\\] \\d+/${TRACES} messages  \\d+%  [\\d.]+/s  ETA \\S+`).test(f)), frames.slice(-3).join('\n')).toBe(true);
    expect(plain).toMatch(/summary: \d+ run\(s\)/);
    const lines = readFileSync(out, 'utf8').split('\n').filter((l) => l !== '');
    // At least one record per trace (some fixture traces hold two agent runs).
    expect(lines.length).toBeGreaterThanOrEqual(TRACES);
    for (const l of lines) expect(l.startsWith('{"evaluationId":')).toBe(true);
  }, 120_000);
});
