/**
 * Issue #30 with a Kafka source: the real service consumes a topic on the shared broker and emits over OTLP to a
 * capture server on 127.0.0.1 that is down. No offset may be committed past a trace whose records were not
 * delivered; a shutdown while the output is down leaves them uncommitted, and the next run (same group, output
 * back) delivers every trace. Counts: sent (messages produced, one trace each), delivered, lost, duplicated,
 * committed offsets while down.
 */
import type { Kafka } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CaptureOtlp } from '../reliability/helpers/capture-otlp.js';
import { CODE_SCORERS, startDeliveryService, type DeliveryService } from '../reliability/helpers/delivery-service.js';
import { MemorySampler, mib } from '../reliability/helpers/memory.js';
import { writeResult } from '../reliability/helpers/results.js';
import { Rng } from '../reliability/helpers/rng.js';
import { ProtoStamper } from '../reliability/helpers/traces.js';
import { acquireBrokerLock } from './broker-lock.js';
import { brokers, createTopic, haveBroker, kafkaClient, retryWhileRetriable, uniqueName, waitFor } from './helpers.js';

const TRACES = 200;

async function committedTotal(kafka: Kafka, groupId: string, topic: string): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  const [entry] = await admin.fetchOffsets({ groupId, topics: [topic] });
  await admin.disconnect();
  return (entry?.partitions ?? []).reduce((n, p) => n + Math.max(0, Number(p.offset)), 0);
}

describe.skipIf(!haveBroker)('Kafka source with the output down', () => {
  let kafka: Kafka;
  let release: (() => void) | undefined;
  const capture = new CaptureOtlp();
  const services: DeliveryService[] = [];
  beforeAll(async () => {
    release = await acquireBrokerLock();
    kafka = kafkaClient();
  }, 320_000);
  afterAll(async () => {
    for (const s of services) await s.service.shutdown(Date.now() + 3000).catch(() => undefined);
    await capture.down();
    release?.();
  });

  it('commits no offset past an undelivered trace, and delivers every trace after a restart with the output back', { timeout: 120_000 }, async () => {
    const topic = uniqueName('tj-emit-down');
    const groupId = uniqueName('g');
    await createTopic(kafka, topic, 2);
    const stamper = new ProtoStamper(new Rng(0x31));
    const sent: string[] = [];
    const producer = kafka.producer();
    await producer.connect();
    const messages = Array.from({ length: TRACES }, () => {
      const b = stamper.batch(1);
      sent.push(...b.traceIds);
      return { key: b.traceIds[0] as string, value: b.body };
    });
    await retryWhileRetriable('produce', () => producer.send({ topic, messages }));
    await producer.disconnect();

    // A port for the capture server, then down: every export is refused.
    await capture.up();
    await capture.down();
    const config = {
      sources: {
        otlp: { http: { enabled: false }, grpc: { enabled: false } },
        kafka: { enabled: true, brokers, topic, groupId, initialOffset: 'earliest', commitIntervalMs: 200, sessionTimeoutMs: 10_000, heartbeatIntervalMs: 1000 },
      },
      assembly: { decisionWaitMs: 200, tickMs: 50, maxInFlightTraces: 16, maxQueuedTraces: 50 },
      scorers: CODE_SCORERS,
      sampling: { default: { rate: 1 } },
      live: { enabled: false },
      emit: {
        stdout: { enabled: false },
        prometheus: { enabled: false },
        otlp: { endpoint: capture.url, logs: false, timeoutMs: 2000 },
        buffer: { maxRecords: 300 },
        retry: { initialBackoffMs: 200, maxBackoffMs: 1000 },
      },
      telemetry: { shutdownTimeoutMs: 5000 },
    };
    const first = await startDeliveryService(config);
    // The service runs in this process: its RSS during the outage is this process's.
    const memory = new MemorySampler(undefined, 200);
    services.push(first);
    // Consuming and scoring while the output is down: nothing is delivered, so nothing may be committed. First
    // make sure the messages were read and scored (the output holds their records), then give the committer
    // a few of its intervals to (wrongly) commit.
    await waitFor(() => first.outputs.some((o) => o.buffered > 0), 30_000, 'records held for the output that is down');
    await new Promise((r) => setTimeout(r, 3000));
    const committedWhileDown = await committedTotal(kafka, groupId, topic);
    const peaks = memory.stop();
    expect(capture.traces.size).toBe(0);
    expect(committedWhileDown).toBe(0);
    await first.service.shutdown(Date.now() + 5000);
    services.splice(services.indexOf(first), 1);
    const committedAfterShutdown = await committedTotal(kafka, groupId, topic);
    expect(committedAfterShutdown).toBe(0);

    await capture.up();
    const second = await startDeliveryService(config);
    services.push(second);
    await waitFor(() => sent.every((id) => capture.traces.has(id)), 60_000, 'every trace delivered');
    await waitFor(async () => (await committedTotal(kafka, groupId, topic)) === TRACES, 20_000, 'offsets committed to the end');
    await second.service.shutdown(Date.now() + 5000);
    services.splice(services.indexOf(second), 1);

    const lost = sent.filter((id) => !capture.traces.has(id)).length;
    let duplicated = 0;
    for (const c of capture.records.values()) duplicated += c - 1;
    writeResult('kafka-source-output-down', { sent: sent.length, delivered: sent.length - lost, lost, duplicated, records: capture.records.size, committedWhileDown, committedAfterShutdown, committedAtEnd: TRACES, peakRssMiB: mib(peaks.peakRssBytes) });
    expect(lost).toBe(0);
    expect(peaks.peakRssBytes).toBeLessThanOrEqual(512 * 1024 * 1024);
  });
});
