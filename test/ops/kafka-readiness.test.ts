/**
 * Readiness and recovery of the Kafka source under a running `tracejudge serve`, against a broker of the
 * test's own that it stops and starts again: /readyz answers 503 naming the Kafka source while the consumer
 * cannot fetch, and 200 again once it rejoined its group; the rejoin after the broker is back takes seconds,
 * not a session timeout (the crashed consumer's old member is taken out of the group before the restart).
 */
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, tempDir, type ServeProcess } from '../reliability/helpers/serve-process.js';
import { writeResult } from '../reliability/helpers/results.js';
import { waitUntil } from '../reliability/helpers/service.js';
import { privateBroker, type PrivateBroker } from './private-broker.js';

const SESSION_TIMEOUT_MS = 30_000;

const readyz = async (url: string): Promise<{ status: number; body: string }> => {
  try {
    const res = await fetch(url);
    return { status: res.status, body: await res.text() };
  } catch (err) {
    return { status: 0, body: String(err) };
  }
};

describe.sequential('Kafka source readiness and rejoin (private broker)', () => {
  let broker: PrivateBroker;
  let serve: ServeProcess | undefined;

  beforeAll(async () => {
    broker = await privateBroker();
    await broker.start();
  }, 150_000);

  afterAll(async () => {
    if (serve?.alive()) {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
    await broker.dispose();
  }, 60_000);

  it('is 503 with the reason while the broker is down, 200 again once the consumer rejoined, within seconds', async ({ annotate }) => {
    const kafka = new Kafka({ clientId: 'tj-ops-test', brokers: [broker.address], logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'ops_spans', numPartitions: 2 }], waitForLeaders: true });
    await admin.disconnect();

    const dir = tempDir('kafka-ready', {
      'tracejudge.yaml': `
sources:
  otlp: { http: { port: 0 }, grpc: { enabled: false } }
  kafka: { enabled: true, brokers: ["${broker.address}"], topic: ops_spans, groupId: tj-ops-ready, sessionTimeoutMs: ${SESSION_TIMEOUT_MS} }
emit: { stdout: { enabled: false }, prometheus: { port: 0 } }
`,
    });
    serve = startServe(join(dir, 'tracejudge.yaml'));
    const s = serve;
    const ports = await s.started(60_000);
    const base = `http://127.0.0.1:${ports.metrics ?? 0}`;
    expect(await waitUntil(async () => (await readyz(`${base}/readyz`)).status === 200, 30_000)).toBe(true);
    const metrics1 = await (await fetch(`${base}/metrics`)).text();
    expect(metrics1).toMatch(/^tracejudge_component_state\{[^}]*component="kafka"[^}]*state="fetching"[^}]*\} 1$/m);

    // The broker goes away: /readyz must turn 503 and say why.
    const down = Date.now();
    await broker.stop();
    let notReady = { status: 0, body: '' };
    expect(
      await waitUntil(async () => {
        notReady = await readyz(`${base}/readyz`);
        return notReady.status === 503;
      }, 90_000, 250),
    ).toBe(true);
    const to503S = (Date.now() - down) / 1000;
    expect(notReady.body).toMatch(/^not ready\nkafka: /);
    const metrics2 = await (await fetch(`${base}/metrics`)).text();
    expect(metrics2).not.toMatch(/^tracejudge_component_state\{[^}]*component="kafka"[^}]*state="fetching"[^}]*\} 1$/m);
    // Stays down while the broker is: 503 a few seconds later still.
    await new Promise((r) => setTimeout(r, 3000));
    expect((await readyz(`${base}/readyz`)).status).toBe(503);

    // Back: ready again once the consumer rejoined, well within a session timeout.
    await broker.start();
    const up = Date.now();
    expect(await waitUntil(async () => (await readyz(`${base}/readyz`)).status === 200, 90_000, 100)).toBe(true);
    const rejoinS = (Date.now() - up) / 1000;
    const joins = s.logs().filter((l) => l.msg === 'kafka: joined the consumer group').length;
    const left = s.logs().filter((l) => l.msg === 'kafka: left the group before restarting the consumer');
    const crashes = s.logs().filter((l) => l.msg === 'kafka: consumer crashed').length;
    const summary = `503 after ${to503S.toFixed(1)} s of broker outage (${notReady.body.trim().replace(/\n/g, ' / ')}); ready again ${rejoinS.toFixed(1)} s after the broker answered; ${crashes} crashes, ${left.length} leaves (${left.map((l) => String(l.outcome)).join(',')}), ${joins} joins`;
    writeResult('kafka-readiness', { to503S, rejoinS, crashes, leaves: left.length, joins, summary });
    await annotate(summary);
    expect(joins).toBeGreaterThanOrEqual(2);
    expect(rejoinS).toBeLessThan(SESSION_TIMEOUT_MS / 1000 / 2);
    const metrics3 = await (await fetch(`${base}/metrics`)).text();
    expect(metrics3).toMatch(/^tracejudge_component_state\{[^}]*component="kafka"[^}]*state="fetching"[^}]*\} 1$/m);
  }, 300_000);
});
