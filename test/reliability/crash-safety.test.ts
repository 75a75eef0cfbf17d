/**
 * Crash safety of OTLP/HTTP intake: SIGKILL `tracejudge serve` while it receives and scores a steady
 * stream, then restart it. OTLP/HTTP answers 200 once spans are in the in-memory assembler (there is no
 * write-ahead log), so what was acknowledged but not yet scored is lost. This measures how much, and checks
 * that it is bounded by the decision wait: every trace acknowledged more than decisionWaitMs (+ a margin
 * for the tick, scoring and the emitter) before the kill was scored, and the loss is about rate ×
 * decisionWaitMs. After the restart nothing is replayed and new traffic is scored again.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { post } from './helpers/clients.js';
import { writeResult } from './helpers/results.js';
import { Rng } from './helpers/rng.js';
import { crashConfig } from './helpers/crash-config.js';
import { readJsonl, startServe, tempDir, type ServeProcess } from './helpers/serve-process.js';
import { metricSum, waitUntil } from './helpers/service.js';
import { ProtoStamper } from './helpers/traces.js';

const DECISION_WAIT_MS = 2000;
const TRACES_PER_REQUEST = 10;
const REQUEST_EVERY_MS = 100; // 100 traces/s
const KILL_AFTER_MS = 8000;
/** Tick (50 ms), scoring and the JSON-lines append, on a shared 2-core machine. */
const MARGIN_MS = 2500;
const SCORERS = 3;


describe('SIGKILL during scoring, then restart (OTLP/HTTP)', () => {
  const procs: ServeProcess[] = [];
  afterAll(() => {
    for (const p of procs) if (p.alive()) p.child.kill('SIGKILL');
  });

  it('loses only what was acknowledged within the decision wait before the kill, and scores again after a restart', async () => {
    const dir = tempDir('crash');
    const jsonl = join(dir, 'scores.jsonl');
    const config = join(dir, 'crash.yaml');
    writeFileSync(config, crashConfig({ jsonl, decisionWaitMs: DECISION_WAIT_MS }));
    const stamper = new ProtoStamper(new Rng(0xc4a5));

    const first = startServe(config);
    procs.push(first);
    const url = `http://127.0.0.1:${(await first.started()).http ?? 0}/v1/traces`;

    const acked: { traceId: string; at: number }[] = [];
    const start = Date.now();
    while (Date.now() - start < KILL_AFTER_MS) {
      const b = stamper.batch(TRACES_PER_REQUEST);
      const a = await post(url, b.body, 'application/x-protobuf');
      expect(a.status).toBe(200);
      const at = Date.now();
      for (const id of b.traceIds) acked.push({ traceId: id, at });
      await new Promise((r) => setTimeout(r, REQUEST_EVERY_MS));
    }
    const killAt = Date.now();
    first.child.kill('SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });

    const countByTrace = (): Map<string, number> => {
      const m = new Map<string, number>();
      for (const r of readJsonl(jsonl)) m.set(String(r.traceId), (m.get(String(r.traceId)) ?? 0) + 1);
      return m;
    };
    const afterKill = countByTrace();
    const lost = acked.filter((x) => afterKill.get(x.traceId) !== SCORERS);
    const rate = acked.length / ((killAt - start) / 1000);
    // Everything acknowledged well before the kill was scored: only the decision-wait window was at risk.
    const oldLost = lost.filter((x) => x.at < killAt - DECISION_WAIT_MS - MARGIN_MS);
    expect(oldLost.map((x) => `${x.traceId} acked ${killAt - x.at} ms before the kill`)).toEqual([]);
    expect(lost.length).toBeGreaterThan(0);
    expect(lost.length).toBeLessThanOrEqual(Math.ceil((rate * (DECISION_WAIT_MS + MARGIN_MS)) / 1000));

    // Restart: nothing is replayed (no write-ahead log), and new traffic is scored.
    const second = startServe(config);
    procs.push(second);
    const url2 = `http://127.0.0.1:${(await second.started()).http ?? 0}/v1/traces`;
    const fresh = stamper.batch(TRACES_PER_REQUEST);
    expect((await post(url2, fresh.body, 'application/x-protobuf')).status).toBe(200);
    const freshScored = await waitUntil(() => {
      const c = countByTrace();
      return fresh.traceIds.every((id) => c.get(id) === SCORERS);
    }, 30_000, 100);
    expect(freshScored).toBe(true);
    const afterRestart = countByTrace();
    expect(lost.filter((x) => afterRestart.has(x.traceId) && afterRestart.get(x.traceId) !== afterKill.get(x.traceId))).toEqual([]);
    second.child.kill('SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });

    const partial = lost.filter((x) => (afterKill.get(x.traceId) ?? 0) > 0).length;
    writeResult('crash-safety', {
      decisionWaitMs: DECISION_WAIT_MS,
      tracesPerSec: Math.round(rate),
      sentForMs: killAt - start,
      acknowledgedTraces: acked.length,
      lostTraces: lost.length,
      lostWithSomeRecords: partial,
      expectedAtRiskTraces: Math.round((rate * DECISION_WAIT_MS) / 1000),
      oldestLostAckedMsBeforeKill: lost.length ? killAt - Math.min(...lost.map((x) => x.at)) : 0,
      newestScoredAckedMsBeforeKill: Math.min(...acked.filter((x) => afterKill.get(x.traceId) === SCORERS).map((x) => killAt - x.at)),
    });
  }, 120_000);
});

/**
 * The loss formula under load (issue #16, B), checked against a kill: when traces arrive faster than they
 * are scored, what is acknowledged but not yet scored and emitted is not only the traces held for their
 * decision (about rate × (decisionWaitMs + tickMs)) but also the decided ones queued for a handler or being
 * handled (and records in the emitters' buffers): lost = held + queued + in flight, at most
 * assembly.maxBufferedTraces. The test reads the held and assembled counts from /metrics just before the
 * kill and compares held + (assembled − emitted) with the traces that were acknowledged and never scored.
 */
describe('SIGKILL while scoring falls behind intake (OTLP/HTTP, no write-ahead log)', () => {
  const procs: ServeProcess[] = [];
  afterAll(() => {
    for (const p of procs) if (p.alive()) p.child.kill('SIGKILL');
  });

  const LOAD_DECISION_WAIT_MS = 1000;
  const TICK_MS = 50;
  const LOAD_MS = 5000;
  const LOAD_SENDERS = 4;
  const LOAD_TRACES_PER_REQUEST = 50;

  it('loses held + queued + in-flight traces, as /metrics said just before the kill', async () => {
    const dir = tempDir('crashload');
    const jsonl = join(dir, 'scores.jsonl');
    const config = join(dir, 'crashload.yaml');
    writeFileSync(config, crashConfig({ jsonl, decisionWaitMs: LOAD_DECISION_WAIT_MS }));
    const stamper = new ProtoStamper(new Rng(0xc4a6));
    const first = startServe(config);
    procs.push(first);
    const ports = await first.started();
    const url = `http://127.0.0.1:${ports.http ?? 0}/v1/traces`;
    const metricsUrl = `http://127.0.0.1:${ports.metrics ?? 0}/metrics`;

    const acked: { traceId: string; sentAt: number; at: number }[] = [];
    const statuses: Record<number, number> = {};
    const start = Date.now();
    await Promise.all(
      Array.from({ length: LOAD_SENDERS }, async () => {
        while (Date.now() - start < LOAD_MS) {
          const b = stamper.batch(LOAD_TRACES_PER_REQUEST);
          const sentAt = Date.now();
          const a = await post(url, b.body, 'application/x-protobuf');
          statuses[a.status] = (statuses[a.status] ?? 0) + 1;
          const at = Date.now();
          if (a.status === 200) for (const id of b.traceIds) acked.push({ traceId: id, sentAt, at });
          else if (a.status === 429) await new Promise((r) => setTimeout(r, 100));
        }
      }),
    );
    // Intake has stopped: one scrape, then the kill.
    const text = await (await fetch(metricsUrl)).text();
    const scrapedAt = Date.now();
    first.child.kill('SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });

    const held = metricSum(text, 'tracejudge_buffer_traces');
    const assembled = metricSum(text, 'tracejudge_traces_assembled_total');
    const emittedRecords = metricSum(text, 'tracejudge_emit_records_total', { emitter: 'jsonl', outcome: 'sent' });
    const emitted = emittedRecords / SCORERS;
    const predicted = held + assembled - emitted;
    const counts = new Map<string, number>();
    for (const r of readJsonl(jsonl)) counts.set(String(r.traceId), (counts.get(String(r.traceId)) ?? 0) + 1);
    const lost = acked.filter((x) => counts.get(x.traceId) !== SCORERS).length;
    const rate = acked.length / ((scrapedAt - start) / 1000);
    const heldWindow = acked.filter((x) => x.at > scrapedAt - LOAD_DECISION_WAIT_MS - TICK_MS).length;
    // Sent within decisionWaitMs of the scrape's end: the server received them after that instant and answered
    // the scrape before it, so they cannot have waited out decisionWaitMs yet; they are certainly held.
    const heldSurely = acked.filter((x) => x.sentAt > scrapedAt - LOAD_DECISION_WAIT_MS).length;
    // A loop busy with the backlog ticks late, so traces stay held a little longer than decisionWaitMs.
    const heldWindowLate = acked.filter((x) => x.at > scrapedAt - LOAD_DECISION_WAIT_MS - TICK_MS - 1000).length;
    const oldEstimate = Math.round((rate * LOAD_DECISION_WAIT_MS) / 1000);
    writeResult('crash-safety-load', {
      decisionWaitMs: LOAD_DECISION_WAIT_MS,
      sentForMs: scrapedAt - start,
      statuses,
      acknowledgedTraces: acked.length,
      tracesPerSec: Math.round(rate),
      atKill: { held, assembled, emitted, queuedOrInFlight: assembled - emitted },
      predictedLoss: predicted,
      lostTraces: lost,
      ackedWithinDecisionWaitPlusTick: heldWindow,
      sentWithinDecisionWait: heldSurely,
      ackedWithinDecisionWaitPlusTickPlus1s: heldWindowLate,
      oldEstimateRateTimesDecisionWait: oldEstimate,
    });
    // The scenario is the one the formula is about: a backlog of decided traces beyond the held ones.
    expect(assembled - emitted).toBeGreaterThan(LOAD_TRACES_PER_REQUEST * 4);
    expect(lost).toBeGreaterThan(oldEstimate);
    // held + queued + in flight is what was lost (the kill came a few ms after the scrape).
    expect(Math.abs(lost - predicted)).toBeLessThanOrEqual(Math.max(3 * LOAD_TRACES_PER_REQUEST, 0.05 * lost));
    // The held part is what arrived within decisionWaitMs (+ a tick, + the tick's lag on a busy loop) of the end.
    // The lower bound needs no timing guess: a trace sent inside the window is held for certain. The upper bound
    // allows a guessed second of tick lag on the busy loop, so it is loose (about twice the held count). (`at`, when the client saw the acknowledgement,
    // lags the server's receipt on a loaded machine by up to a second, so a ratio of the acknowledged-in-window
    // count is no bound: CI measured 500 held for 1,450 acknowledged in the window.)
    expect(held).toBeGreaterThanOrEqual(heldSurely);
    expect(held).toBeLessThanOrEqual(heldWindowLate);
  }, 120_000);
});
