/**
 * Overload: `tracejudge serve` (its own process, V8 heap capped so an unbounded queue would end in an OOM)
 * gets its capacity measured, then OVERLOAD_FACTOR (11) times that is offered for OVERLOAD_MS (suite: 10 s;
 * the 30 s with TRACEJUDGE_RELIABILITY_FULL=1) by GENERATORS separate load-generator processes
 * (helpers/load-generator.ts) sending prebuilt protobuf bodies open loop. Every answer must be 200, or
 * 429/503 with Retry-After; the process must stay up with bounded memory; afterwards every trace of every
 * accepted (200) request is scored, nothing of a refused request is, and SIGTERM still exits 0. The offered
 * rate and its ratio to capacity are reported (not asserted: they depend on the machine).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post } from './helpers/clients.js';
import { runLoad } from './helpers/load-generator.js';
import { loadNonce, loadTraceId, parseLoadTraceId } from './helpers/load-ids.js';
import { MemorySampler, mib } from './helpers/memory.js';
import { writeResult } from './helpers/results.js';
import { Rng } from './helpers/rng.js';
import { OVERLOAD_MS, timeoutFor } from './helpers/scale.js';
import { readJsonl, startServe, tempDir, type ServeProcess } from './helpers/serve-process.js';
import { waitUntil } from './helpers/service.js';
import { ProtoStamper } from './helpers/traces.js';

// Cheap code scorers (completeness, at ~24 ms per run, would make the calibration and the drain slow).
const SCORERS = ['similarity', 'tone', 'keywords'];
const TRACES_PER_REQUEST = 50;
const DECISION_WAIT_MS = 500;
const HEAP_MIB = 384;
const CALIBRATION_TRACES = 1000;
/** Load generator processes, and the requests each may have waiting for an answer. */
const GENERATORS = 2;
const MAX_IN_FLIGHT_PER_GENERATOR = 256;
/** Offered load as a multiple of the measured capacity (issue: 10x); the generators aim a little above. */
const OVERLOAD_FACTOR = 11;

const CONFIG = (jsonl: string): string => `
sources:
  otlp:
    http: { port: 0 }
    grpc: { enabled: false }
assembly: { decisionWaitMs: ${DECISION_WAIT_MS}, tickMs: 50, maxBufferedTraces: 2000, maxQueuedTraces: 1000 }
scorers:
  similarity: { type: content-similarity }
  tone: { type: tone }
  keywords: { type: keyword-coverage }
sampling: { default: { rate: 1 } }
emit:
  stdout: { enabled: false }
  jsonl: { path: ${JSON.stringify(jsonl)} }
  prometheus: { port: 0 }
telemetry: { shutdownTimeoutMs: 60000 }
`;

describe('overload at ~10x measured capacity', () => {
  let serve: ServeProcess;
  let url = '';
  let jsonl = '';

  beforeAll(async () => {
    const dir = tempDir('overload');
    jsonl = join(dir, 'scores.jsonl');
    const config = join(dir, 'overload.yaml');
    writeFileSync(config, CONFIG(jsonl));
    serve = startServe(config, { nodeFlags: [`--max-old-space-size=${HEAP_MIB}`] });
    const ports = await serve.started();
    url = `http://127.0.0.1:${ports.http ?? 0}/v1/traces`;
  });

  afterAll(() => {
    if (serve.alive()) serve.child.kill('SIGKILL');
  });

  /** Trace ids with a record from every scorer, from the JSON-lines output. */
  function scoredTraces(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const r of readJsonl(jsonl)) {
      const id = String(r.traceId);
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return counts;
  }

  it(
    'answers 200 or 429/503 with Retry-After, stays up within its heap, and scores everything it accepted',
    async () => {
      const stamper = new ProtoStamper(new Rng(0x10ad));

      // 1. Capacity: a burst of CALIBRATION_TRACES, timed from the first send to the last record.
      const calStart = Date.now();
      const calIds: string[] = [];
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          for (let i = 0; i < CALIBRATION_TRACES / TRACES_PER_REQUEST / 4; i++) {
            const b = stamper.batch(TRACES_PER_REQUEST);
            const a = await post(url, b.body, 'application/x-protobuf');
            expect(a.status).toBe(200);
            calIds.push(...b.traceIds);
          }
        }),
      );
      const calibrated = await waitUntil(() => {
        const c = scoredTraces();
        return calIds.every((id) => c.get(id) === SCORERS.length);
      }, 120_000, 100);
      expect(calibrated).toBe(true);
      const calMs = Date.now() - calStart - DECISION_WAIT_MS;
      const capacity = CALIBRATION_TRACES / (Math.max(calMs, 100) / 1000);

      // 2. Offer OVERLOAD_FACTOR times that, open loop, from GENERATORS separate processes with prebuilt bodies.
      const target = capacity * OVERLOAD_FACTOR;
      const nonceHex = loadNonce(new Rng(Date.now() >>> 0));
      const memory = new MemorySampler(serve.pid, 100);
      const results = await runLoad({
        url,
        nonceHex,
        tracesPerSec: target,
        tracesPerRequest: TRACES_PER_REQUEST,
        durationMs: OVERLOAD_MS,
        generators: GENERATORS,
        maxInFlight: MAX_IN_FLIGHT_PER_GENERATOR,
      });
      expect(serve.alive()).toBe(true);
      expect(results.flatMap((r) => r.problems).slice(0, 10)).toEqual([]);
      const loadMs = Math.max(...results.map((r) => r.loadMs));
      const lastAnswerMs = Math.max(...results.map((r) => r.lastAnswerMs));
      const statuses: Record<string, number> = {};
      for (const r of results) for (const [s, n] of Object.entries(r.statuses)) statuses[s] = (statuses[s] ?? 0) + n;
      const acceptedRequests = new Set(results.flatMap((r) => r.acceptedSeqs.map((seq) => `${r.gen}:${seq}`)));
      const sentRequests = results.reduce((n, r) => n + r.sentRequests, 0);
      const refusedRequests = results.reduce((n, r) => n + r.refusedRequests, 0);
      const skippedRequests = results.reduce((n, r) => n + r.skippedRequests, 0);
      expect(acceptedRequests.size + refusedRequests).toBe(sentRequests);
      expect(acceptedRequests.size).toBeGreaterThan(0);
      expect(refusedRequests).toBeGreaterThan(0);
      const accepted = results.flatMap((r) => r.acceptedSeqs.flatMap((seq) => Array.from({ length: TRACES_PER_REQUEST }, (_, i) => loadTraceId(nonceHex, r.gen, seq, i))));

      // 3. Everything accepted gets scored; nothing refused does.
      const drainStart = Date.now();
      await waitUntil(() => {
        const c = scoredTraces();
        return accepted.every((id) => c.get(id) === SCORERS.length);
      }, 180_000, 250);
      const drainMs = Date.now() - drainStart;
      const peaks = memory.stop();
      const scored = scoredTraces();
      const unscored = accepted.filter((id) => scored.get(id) !== SCORERS.length);
      expect(unscored.length).toBe(0);
      const scoredButNotAccepted = [...scored.keys()].filter((id) => {
        const from = parseLoadTraceId(nonceHex, id);
        return from !== undefined && !acceptedRequests.has(`${from.gen}:${from.seq}`);
      });
      expect(scoredButNotAccepted).toEqual([]);

      serve.child.kill('SIGTERM');
      const exit = await serve.exited;
      expect(exit).toEqual({ code: 0, signal: null });
      expect(serve.logs().filter((l) => l.level === 60 || /heap|out of memory/i.test(String(l.msg)))).toEqual([]);
      expect(serve.stderr()).not.toMatch(/JavaScript heap out of memory/);

      const offered = sentRequests * TRACES_PER_REQUEST;
      const offeredPerSec = offered / (loadMs / 1000);
      writeResult('overload', {
        heapLimitMiB: HEAP_MIB,
        tracesPerRequest: TRACES_PER_REQUEST,
        generators: GENERATORS,
        maxInFlightPerGenerator: MAX_IN_FLIGHT_PER_GENERATOR,
        assembly: { decisionWaitMs: DECISION_WAIT_MS, maxBufferedTraces: 2000, maxQueuedTraces: 1000 },
        capacityTracesPerSec: Math.round(capacity),
        targetTracesPerSec: Math.round(target),
        loadMs,
        lastAnswerMs,
        sentRequests,
        offeredTraces: offered,
        offeredTracesPerSec: Math.round(offeredPerSec),
        offeredToCapacity: Math.round((offeredPerSec / capacity) * 10) / 10,
        clientSkippedRequests: skippedRequests,
        statuses,
        acceptedTraces: accepted.length,
        refusedTraces: refusedRequests * TRACES_PER_REQUEST,
        acceptedTracesPerSec: Math.round(accepted.length / (loadMs / 1000)),
        drainMsAfterLoad: drainMs,
        unscoredAccepted: unscored.length,
        serverRssMiB: { start: mib(peaks.startRssBytes), peak: mib(peaks.peakRssBytes) },
      });
      expect(peaks.peakRssBytes).toBeLessThan((HEAP_MIB + 384) * 1024 * 1024);
    },
    timeoutFor(OVERLOAD_MS) + 180_000,
  );
});
