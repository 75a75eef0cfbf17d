/**
 * Judge outage: the stub judge answers 429 + Retry-After, then 500, then hangs, for OUTAGE_MS in total
 * (thirds), then recovers. Traffic keeps arriving the whole time. Ingestion must keep answering 200, the
 * code scorer must keep scoring during the outage (its records do not wait for the judge), every judge
 * evaluation ends as a score or an error record (retried per the documented policy first), no run is
 * silently dropped, and /metrics shows judge requests and evaluations by outcome.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScoreRecord } from '../../src/model/score-record.js';
import { byMarker, reply, startStubJudge, type StubJudge, type StubReply } from '../../src/testing/stub-judge/index.js';
import { post } from './helpers/clients.js';
import { writeResult } from './helpers/results.js';
import { Rng } from './helpers/rng.js';
import { OUTAGE_MS, timeoutFor } from './helpers/scale.js';
import { metricSum, startTestService, waitUntil, type TestService } from './helpers/service.js';
import { validRequest } from './helpers/traces.js';

const API_KEY = 'sk-reliability-outage-9f3c2e71';
const SEND_EVERY_MS = 200;
const RECOVERY_MS = 2000;
const JUDGE_TIMEOUT_MS = 1500;
const DECISION_WAIT_MS = 200;

type Phase = 'rate-limited' | 'server-error' | 'hang' | 'recovered';

const healthy = byMarker(
  [
    ['Extract all claims', reply.json({ claims: ['The weather in Paris is 18 degrees.'] })],
    ['hallucination with respect to the context', reply.json({ verdicts: [{ statement: 'The weather in Paris is 18 degrees.', verdict: 'no', reason: 'supported' }] })],
  ],
  reply.text('The answer is supported by the tool results.'),
);

describe(`judge outage (${OUTAGE_MS} ms: 429 with Retry-After, then 500, then hang)`, () => {
  let stub: StubJudge;
  let s: TestService;
  let t0 = 0;

  const phaseAt = (t: number): Phase => {
    const e = t - t0;
    if (e < OUTAGE_MS / 3) return 'rate-limited';
    if (e < (2 * OUTAGE_MS) / 3) return 'server-error';
    if (e < OUTAGE_MS) return 'hang';
    return 'recovered';
  };

  beforeAll(async () => {
    stub = await startStubJudge({
      script: (req): StubReply | Promise<StubReply> => {
        switch (phaseAt(req.receivedAt)) {
          case 'rate-limited':
            return reply.rateLimited(1);
          case 'server-error':
            return reply.serverError(500);
          case 'hang':
            return reply.slow(10 * 60_000, reply.json({ claims: [] }));
          case 'recovered':
            return healthy(req);
        }
      },
    });
    s = await startTestService({
      assembly: { decisionWaitMs: DECISION_WAIT_MS, tickMs: 50 },
      judge: { baseURL: stub.baseURL, apiKey: API_KEY, model: 'stub-judge', timeoutMs: JUDGE_TIMEOUT_MS, maxRetries: 2, backoffInitialMs: 200, backoffMaxMs: 1000, concurrency: 4 },
      // Identical fixture content would otherwise be answered from the cache after recovery.
      economics: { cache: { enabled: false } },
      scorers: { similarity: { type: 'content-similarity' }, hallucination: { type: 'hallucination', reason: 'never' } },
    });
  });

  afterAll(async () => {
    await s.service.shutdown();
    await stub.close();
  });

  it(
    'keeps ingesting and code-scoring, ends every judge evaluation as a score or an error record, and counts it all',
    async () => {
      const rng = new Rng(0x0da7e);
      const sent: { traceId: string; at: number; phase: Phase }[] = [];
      const statuses: Record<string, number> = {};
      t0 = Date.now();
      let codeRecordsDuringOutage = 0;
      let requests = 0;
      while (Date.now() - t0 < OUTAGE_MS + RECOVERY_MS) {
        const v = validRequest(rng);
        const json = requests++ % 2 === 0;
        const at = Date.now();
        const res = await post(`${s.httpUrl}/v1/traces`, json ? v.json : v.proto, json ? 'application/json' : 'application/x-protobuf');
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        for (const id of v.traceIds) sent.push({ traceId: id, at, phase: phaseAt(at) });
        if (phaseAt(Date.now()) !== 'recovered') codeRecordsDuringOutage = s.recorder.received.filter((r) => r.record.scorer === 'similarity').length;
        await new Promise((r) => setTimeout(r, SEND_EVERY_MS));
      }
      const outageEnd = t0 + OUTAGE_MS;

      // Ingestion never stopped.
      expect(statuses).toEqual({ 200: requests });

      // Every run ends with one record per scorer: similarity scored, hallucination scored or errored.
      const recordsOf = (id: string): readonly ScoreRecord[] => s.recorder.forTrace(id);
      const settled = (id: string): boolean => ['similarity', 'hallucination'].every((sc) => recordsOf(id).some((r) => r.scorer === sc));
      await waitUntil(() => sent.every((x) => settled(x.traceId)), 90_000, 100);
      const unsettled = sent.filter((x) => !settled(x.traceId)).map((x) => `${x.traceId} (${x.phase}): ${recordsOf(x.traceId).map((r) => r.scorer).join(',')}`);
      expect(unsettled).toEqual([]);
      for (const x of sent) {
        const rs = recordsOf(x.traceId);
        expect(rs).toHaveLength(2);
        const sim = rs.find((r) => r.scorer === 'similarity');
        expect(typeof sim?.score).toBe('number');
        const h = rs.find((r) => r.scorer === 'hallucination');
        expect(typeof h?.score === 'number' || typeof h?.error?.type === 'string').toBe(true);
      }

      // Code scoring did not wait for the judge: runs sent well before the outage ended had their
      // similarity record emitted while the judge was still down.
      const margin = DECISION_WAIT_MS + 2500;
      const early = sent.filter((x) => x.at < outageEnd - margin);
      const codeLate = early.filter((x) => {
        const r = s.recorder.received.find((e) => e.record.traceId === x.traceId && e.record.scorer === 'similarity');
        return r === undefined || r.at > outageEnd;
      });
      expect(codeLate.map((x) => `${x.phase} +${x.at - t0}ms`)).toEqual([]);
      expect(codeRecordsDuringOutage).toBeGreaterThan(0);

      // Judge errors during the outage; scores again after recovery.
      const halluc = sent.map((x) => ({ ...x, record: recordsOf(x.traceId).find((r) => r.scorer === 'hallucination') as ScoreRecord }));
      const byPhase: Record<string, Record<string, number>> = {};
      for (const h of halluc) {
        const key = h.record.error ? `error:${h.record.error.type}` : 'score';
        const p = (byPhase[h.phase] ??= {});
        p[key] = (p[key] ?? 0) + 1;
      }
      expect(halluc.filter((h) => h.record.error).length).toBeGreaterThan(0);
      expect(halluc.filter((h) => h.phase === 'recovered' && typeof h.record.score === 'number').length).toBeGreaterThan(0);

      // Metrics show every step: judge requests by outcome, evaluations by outcome.
      const text = await s.scrape();
      const judge = (outcome: string): number => metricSum(text, 'tracejudge_judge_requests_total', { outcome });
      const evals = (scorer: string, outcome: string): number => metricSum(text, 'tracejudge_evaluations_total', { 'gen_ai_evaluation_name': scorer, outcome });
      const judgeRequests = { success: judge('success'), retry: judge('retry'), timeout: judge('timeout'), error: judge('error'), schema: judge('schema'), quota: judge('quota') };
      expect(judgeRequests.retry).toBeGreaterThan(0);
      expect(judgeRequests.error).toBeGreaterThan(0);
      expect(judgeRequests.timeout).toBeGreaterThan(0);
      expect(judgeRequests.success).toBeGreaterThan(0);
      const byOutcome = (scorer: string): { pass: number; fail: number; error: number; skipped: number } => ({
        pass: evals(scorer, 'pass'),
        fail: evals(scorer, 'fail'),
        error: evals(scorer, 'error'),
        skipped: evals(scorer, 'skipped'),
      });
      const hallucEvals = byOutcome('hallucination');
      const simEvals = byOutcome('similarity');
      expect(hallucEvals.error).toBe(halluc.filter((h) => h.record.error).length);
      expect(hallucEvals.pass + hallucEvals.fail + hallucEvals.error).toBe(sent.length);
      expect(simEvals.pass + simEvals.fail).toBe(sent.length);
      expect(simEvals.error).toBe(0);
      // Every judge HTTP call the stub saw is counted once.
      expect(judgeRequests.success + judgeRequests.retry + judgeRequests.timeout + judgeRequests.error + judgeRequests.schema + judgeRequests.quota).toBe(stub.requests.length);

      writeResult('judge-outage', {
        outageMs: OUTAGE_MS,
        phasesMs: OUTAGE_MS / 3,
        recoveryMs: RECOVERY_MS,
        judge: { timeoutMs: JUDGE_TIMEOUT_MS, maxRetries: 2, concurrency: 4 },
        runsSent: sent.length,
        runsSentByPhase: sent.reduce<Record<string, number>>((acc, x) => ((acc[x.phase] = (acc[x.phase] ?? 0) + 1), acc), {}),
        ingestStatuses: statuses,
        hallucinationOutcomeBySendPhase: byPhase,
        judgeRequests,
        stubRequests: stub.requests.length,
        evaluations: { hallucination: hallucEvals, similarity: simEvals },
        codeRecordsEmittedDuringOutage: codeRecordsDuringOutage,
      });
    },
    timeoutFor(OUTAGE_MS),
  );
});
