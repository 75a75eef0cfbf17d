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

    const kafkaState = (text: string, state: string): boolean => new RegExp(`^tracejudge_component_state\\{[^}]*component="kafka"[^}]*state="${state}"[^}]*\\} 1$`, 'm').test(text);
    /** Stop the broker; resolves once /readyz is 503, with the seconds it took and the body. */
    const outage = async (): Promise<{ to503S: number; body: string }> => {
      const down = Date.now();
      await broker.stop();
      let answer = { status: 0, body: '' };
      const got503 = await waitUntil(async () => {
        answer = await readyz(`${base}/readyz`);
        return answer.status === 503;
      }, 90_000, 250);
      expect(got503).toBe(true);
      expect(answer.body).toMatch(/^not ready\nkafka: /);
      expect(kafkaState(await (await fetch(`${base}/metrics`)).text(), 'fetching')).toBe(false);
      return { to503S: (Date.now() - down) / 1000, body: answer.body.trim().replace(/\n/g, ' / ') };
    };
    /** Start the broker again; resolves with the seconds from its answering to /readyz 200. */
    const recovery = async (): Promise<number> => {
      await broker.start();
      const up = Date.now();
      expect(await waitUntil(async () => (await readyz(`${base}/readyz`)).status === 200, 90_000, 100)).toBe(true);
      const seconds = (Date.now() - up) / 1000;
      expect(kafkaState(await (await fetch(`${base}/metrics`)).text(), 'fetching')).toBe(true);
      return seconds;
    };
    const count = (msg: string): number => s.logs().filter((l) => l.msg === msg).length;

    // A short outage: the consumer stops fetching (503) and resumes by itself, in the same group membership.
    const short = await outage();
    const shortRecoveryS = await recovery();

    // A long outage: the consumer crashes; /readyz says so until the broker is back, and the restarted consumer
    // rejoins at once because the crashed member was taken out of the group first.
    const long = await outage();
    let crashed = { status: 0, body: '' };
    const sawCrash = await waitUntil(async () => {
      crashed = await readyz(`${base}/readyz`);
      return crashed.body.includes('consumer crashed');
    }, 90_000, 250);
    expect(sawCrash).toBe(true);
    expect(crashed.status).toBe(503);
    expect(crashed.body).toMatch(/kafka: consumer crashed \(.*\); restarting/);
    const joinsBefore = count('kafka: joined the consumer group');
    const rejoinS = await recovery();
    const left = s.logs().filter((l) => l.msg === 'kafka: left the group before restarting the consumer');
    const joins = count('kafka: joined the consumer group');
    const crashes = count('kafka: consumer crashed');
    const summary =
      `short outage: 503 after ${short.to503S.toFixed(1)} s (${short.body}), ready ${shortRecoveryS.toFixed(1)} s after the broker answered; ` +
      `long outage: 503 after ${long.to503S.toFixed(1)} s, then ${crashed.body.trim().replace(/\n/g, ' / ')}; ready ${rejoinS.toFixed(1)} s after the broker answered; ` +
      `${crashes} crashes, ${left.length} leaves (${left.map((l) => String(l.outcome)).join(',')}), ${joins} joins`;
    writeResult('kafka-readiness', { short, shortRecoveryS, long, rejoinS, crashes, leaves: left.length, joins, summary });
    await annotate(summary);
    // Logged by the restart hook, which kafkajs may call only once the crash is reported (late on a loaded machine).
    expect(count('kafka: consumer crashed; leaving the group, then restarting')).toBeGreaterThan(0);
    expect(joins).toBeGreaterThan(joinsBefore);
    expect(left.map((l) => l.outcome)).toContain('left');
    expect(rejoinS).toBeLessThan(SESSION_TIMEOUT_MS / 1000 / 2);
  }, 300_000);
});
