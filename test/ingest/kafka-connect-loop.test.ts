/**
 * The Kafka source's start does not wait for its brokers (issue 32, item 3), in process and without a broker:
 * `fetch.start` resolves at once, health names `sources.kafka.brokers` while nothing answers, the shutdown ends
 * the connect loop, and `startupTimeoutMs` ends it through `onFatal` with the key in the message.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { componentSettings } from '../../src/component.js';
import { TraceAssembler } from '../../src/ingest/assembler.js';
import { createKafkaSource, type KafkaSourceConfig } from '../../src/ingest/kafka/source.js';

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

const sourceConfig = (port: number, startupTimeoutMs?: number): KafkaSourceConfig => ({
  brokers: [`127.0.0.1:${port}`],
  topic: 't',
  groupId: 'g',
  clientId: 'c',
  encoding: 'otlp_proto',
  initialOffset: 'earliest',
  commitIntervalMs: 1000,
  sessionTimeoutMs: 10_000,
  heartbeatIntervalMs: 1000,
  ...(startupTimeoutMs !== undefined ? { startupTimeoutMs } : {}),
});

const sink = (): TraceAssembler => new TraceAssembler({ onTrace: () => Promise.resolve() });

describe('Kafka source start without a broker', () => {
  it('starts at once, is not ready naming sources.kafka.brokers, and its shutdown ends the wait', async () => {
    const port = await closedPort();
    const fatal: Error[] = [];
    const source = createKafkaSource({ config: sourceConfig(port), sink: sink(), settings: componentSettings(), onFatal: (e) => fatal.push(e) });
    const t0 = Date.now();
    await source.offsets.start();
    await source.fetch.start();
    expect(Date.now() - t0).toBeLessThan(1000);
    const until = Date.now() + 10_000;
    while (source.health().state !== 'connecting' && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(source.health()).toMatchObject({ ready: false, state: 'connecting' });
    expect(source.health().reason).toMatch(new RegExp(`^kafka: cannot reach sources\\.kafka\\.brokers 127\\.0\\.0\\.1:${port} \\(.*ECONNREFUSED`));
    const t1 = Date.now();
    await source.offsets.shutdown(Date.now() + 5000);
    expect(Date.now() - t1).toBeLessThan(5000);
    expect(fatal).toEqual([]);
    expect(source.health().state).toBe('stopped');
  }, 20_000);

  it('gives up after startupTimeoutMs through onFatal, naming the key and the brokers', async () => {
    const port = await closedPort();
    let fatal: Error | undefined;
    const source = createKafkaSource({ config: sourceConfig(port, 1500), sink: sink(), settings: componentSettings(), onFatal: (e) => (fatal = e) });
    const t0 = Date.now();
    await source.fetch.start();
    while (!fatal && Date.now() - t0 < 10_000) await new Promise((r) => setTimeout(r, 50));
    expect(fatal?.message).toMatch(new RegExp(`^kafka: sources\\.kafka\\.brokers 127\\.0\\.0\\.1:${port} did not answer within sources\\.kafka\\.startupTimeoutMs \\(1500 ms\\): .*ECONNREFUSED`));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1400);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(source.health()).toMatchObject({ ready: false, state: 'failed' });
    await source.offsets.shutdown(Date.now() + 5000);
  }, 20_000);
});
