/**
 * Exemplars end to end: failing runs sent over OTLP/HTTP with known trace ids to the real service, a real
 * Prometheus (Debian package) with exemplar storage scraping its /metrics (it asks for OpenMetrics), and
 * `/api/v1/query_exemplars` answering with the trace ids of the fail series.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post } from '../reliability/helpers/clients.js';
import { Rng } from '../reliability/helpers/rng.js';
import { startTestService, waitUntil, type TestService } from '../reliability/helpers/service.js';
import { validRequest, type TemplateName } from '../reliability/helpers/traces.js';
import { PrometheusProcess, hasPrometheus } from './prometheus-process.js';

interface ExemplarAnswer {
  status: string;
  error?: string;
  data?: { seriesLabels: Record<string, string>; exemplars: { labels: Record<string, string>; value: string; timestamp: number }[] }[];
}

describe.skipIf(!hasPrometheus)('exemplars in a real Prometheus (needs /usr/bin/prometheus: apt-get install prometheus)', () => {
  let svc: TestService;
  const prometheus = new PrometheusProcess();
  const sent: string[] = [];
  let rng: Rng;

  async function exemplarIds(query: string): Promise<{ answer: ExemplarAnswer; ids: string[] }> {
    const end = Date.now() / 1000 + 60;
    const answer = await prometheus.api<ExemplarAnswer>(`/api/v1/query_exemplars?query=${encodeURIComponent(query)}&start=${end - 600}&end=${end}`);
    return { answer, ids: (answer.data ?? []).flatMap((s) => s.exemplars.map((e) => e.labels.trace_id ?? '')) };
  }

  beforeAll(async () => {
    svc = await startTestService({ assembly: { decisionWaitMs: 200, tickMs: 50 } });
    await prometheus.start(new URL(svc.metricsUrl).host, [], { flags: ['--enable-feature=exemplar-storage'] });
    rng = new Rng(randomBytes(4).readUInt32LE(0));
  }, 60_000);

  afterAll(async () => {
    await prometheus.stop();
    await svc.service.shutdown(Date.now() + 5000);
  });

  it('returns, for the fail series, trace ids the test sent', async () => {
    const query = `tracejudge_evaluations_total{outcome="fail",gen_ai_evaluation_name="grounding"}`;
    // A run whose answer contradicts its tool result: `grounding` fails it. Fresh trace ids on every run of the
    // test; each one sent after Prometheus stored the one before (it keeps an exemplar when it changed).
    for (let i = 0; i < 3; i++) {
      const req = validRequest(rng, 'aisdk6-contradiction' as TemplateName);
      expect(req.traceIds.length).toBe(1);
      const traceId = req.traceIds[0] ?? '';
      sent.push(traceId);
      expect((await post(`${svc.httpUrl}/v1/traces`, req.json, 'application/json')).status).toBe(200);
      expect(await waitUntil(() => svc.recorder.forTrace(traceId).some((r) => r.scorer === 'grounding' && r.label === 'fail'), 20_000)).toBe(true);
      let last: string[] = [];
      const stored = await waitUntil(async () => (last = (await exemplarIds(query)).ids).includes(traceId), 20_000, 250);
      expect(stored, `exemplar trace ids ${JSON.stringify(last)}; waiting for ${traceId}`).toBe(true);
    }
    const agent = svc.recorder.forTrace(sent[0] ?? '').find((r) => r.label === 'fail')?.agentName ?? '';
    expect(agent).not.toBe('');
    const { answer, ids } = await exemplarIds(query);
    expect(answer.status).toBe('success');
    const series = answer.data ?? [];
    expect(series.length).toBe(1);
    expect(series[0]?.seriesLabels).toMatchObject({ __name__: 'tracejudge_evaluations_total', outcome: 'fail', gen_ai_evaluation_name: 'grounding', gen_ai_agent_name: agent });
    expect([...new Set(ids)].sort()).toEqual([...sent].sort());
    // The score histogram carries them too (a contradicted specific scores 0: the le="0" bucket).
    const bucketIds = (await exemplarIds('tracejudge_evaluation_score_bucket{gen_ai_evaluation_name="grounding"}')).ids;
    expect(bucketIds.length).toBeGreaterThan(0);
    for (const id of bucketIds) expect(sent).toContain(id);
    // The scrape itself was OpenMetrics and healthy.
    const targets = await prometheus.api<{ data: { activeTargets: { health: string; lastError: string }[] } }>('/api/v1/targets');
    expect(targets.data.activeTargets.map((t) => [t.health, t.lastError])).toEqual([['up', '']]);
  }, 60_000);
});
