/**
 * Issue 7 "Done when": a judged hallucination appears in three places — as a gen_ai.evaluation.result event under
 * its agent span in the emitted trace, as a log event, and in the metrics a real Prometheus scrapes from the serve
 * process, where the fail-rate expression of the shipped alert (config/prometheus/rules.yml) is above its
 * threshold for the hallucinating agent only, and the alert goes pending for it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { expectedCarrierSpanId } from '../emit/carrier-ids.js';
import { byMarker, reply, startStubJudge, type StubJudge, type StubRequest } from '../../src/testing/stub-judge/index.js';
import { OtlpReceiver } from '../emit/otlp-receiver.js';
import { hasPrometheus, PrometheusProcess, type PromResult } from '../emit/prometheus-process.js';
import { runWeatherAgent, type WeatherRun } from './aisdk-agent.js';
import { CLAIMS_MARKER, REASON_MARKER, VERDICTS_MARKER } from './judge-script.js';
import { childEnv, removeDir, ROOT, ServeProcess, sleep, tempDir, until } from './serve-process.js';

const RULES = join(ROOT, 'config/prometheus/rules.yml');
const ALERT = 'TracejudgeHallucinationFailRateHigh';
const BAD = 'weather-agent';
const GOOD = 'careful-agent';
const WRONG_ANSWER = 'It is 30°C and sunny in Paris right now.';
const RIGHT_ANSWER = 'It is 18°C with light rain in Paris right now.';

/** The judge finds the 30°C answer hallucinated (both claims) and the 18°C answer supported. */
function judge(stub: StubJudge): void {
  const wrong = (req: StubRequest): boolean => req.user.includes('30°C');
  stub.setScript(
    byMarker([
      [CLAIMS_MARKER, (req) => reply.json({ claims: wrong(req) ? ['It is 30°C in Paris.', 'It is sunny in Paris.'] : ['It is 18°C in Paris.'] })],
      [VERDICTS_MARKER, (req) => reply.json({ verdicts: wrong(req) ? [{ statement: 'a', verdict: 'yes', reason: 'tool says 18°C' }, { statement: 'b', verdict: 'yes', reason: 'tool says light rain' }] : [{ statement: 'a', verdict: 'no', reason: 'supported' }] })],
      [REASON_MARKER, reply.text('The answer contradicts the weather tool: it said 18°C and light rain.')],
    ]),
  );
}

async function alertExpr(): Promise<string> {
  const file = parse(await readFile(RULES, 'utf8')) as { groups: { rules: { alert?: string; expr: string }[] }[] };
  const rule = file.groups.flatMap((g) => g.rules).find((r) => r.alert === ALERT);
  if (!rule) throw new Error(`alert ${ALERT} not in ${RULES}`);
  return rule.expr;
}

const byAgent = (result: PromResult[]): Record<string, number> =>
  Object.fromEntries(result.map((r): [string, number] => [r.metric.gen_ai_agent_name ?? '', Number(r.value[1])]));

describe.skipIf(!hasPrometheus)('a judged hallucination in trace, log and metrics (needs /usr/bin/prometheus: apt-get install prometheus)', () => {
  let stub: StubJudge;
  let dir: string;
  const receiver = new OtlpReceiver();
  const serve = new ServeProcess();
  const prometheus = new PrometheusProcess();
  const bad: WeatherRun[] = [];
  const good: WeatherRun[] = [];

  async function sendPair(i: number): Promise<void> {
    bad.push(await runWeatherAgent({ otlpUrl: serve.otlpHttpUrl, seed: `e2e-three-bad-${i}`, agentName: BAD, answer: WRONG_ANSWER }));
    good.push(await runWeatherAgent({ otlpUrl: serve.otlpHttpUrl, seed: `e2e-three-good-${i}`, agentName: GOOD, answer: RIGHT_ANSWER }));
  }
  const records = (): Record<string, unknown>[] => serve.stdoutRecords().filter((r) => r.scorer === 'hallucination');

  beforeAll(async () => {
    stub = await startStubJudge();
    judge(stub);
    await receiver.start();
    dir = await tempDir('three');
    const yaml = [
      'sources:',
      '  otlp:',
      '    http: { port: 0 }',
      '    grpc: { enabled: false }',
      'assembly: { decisionWaitMs: 200, tickMs: 50 }',
      'judge: { timeoutMs: 10000, maxRetries: 0 }',
      'scorers:',
      '  hallucination: { type: hallucination, threshold: 0.5 }',
      'sampling:',
      '  default: { rate: 1 }',
      'emit:',
      '  stdout: { enabled: true }',
      `  otlp: { endpoint: ${JSON.stringify(receiver.httpUrl)}, protocol: http/json, timeoutMs: 5000 }`,
      '  prometheus: { port: 0 }',
      // The alerts' live_url reads tracejudge_live_info, published from live.publicUrl (docs/alerting.md).
      'live: { publicUrl: "https://tracejudge.example.com" }',
      'telemetry: { shutdownTimeoutMs: 8000 }',
      '',
    ].join('\n');
    await serve.start(dir, 'serve.yaml', yaml, childEnv({ OPENAI_BASE_URL: stub.baseURL, OPENAI_API_KEY: 'sk-e2e-three-0123456789abcdef' }));
    expect(serve.ports.metrics).toBeGreaterThan(0);
    await prometheus.start(`127.0.0.1:${serve.ports.metrics}`, [RULES]);

    // Two rounds with a scrape in between, so the counters increase within the rate window.
    await sendPair(0);
    await until('the first round scored', 30_000, () => (records().length >= 2 ? true : undefined));
    await prometheus.waitFor('sum by (gen_ai_agent_name) (tracejudge_evaluations_total{gen_ai_evaluation_name="hallucination"})', (r) => r.length === 2);
    await sleep(1500);
    await sendPair(1);
    await until('the second round scored', 30_000, () => (records().length >= 4 ? true : undefined));
    await until('carrier spans and log records of both rounds', 30_000, () =>
      receiver.spans.filter((s) => s.name === 'evaluation hallucination').length >= 4 && receiver.logs.length >= 4 ? true : undefined,
    );
  }, 120_000);

  afterAll(async () => {
    await prometheus.stop();
    await serve.stop().catch(() => serve.kill());
    serve.kill();
    await receiver.stop();
    await stub?.close();
    await removeDir(dir);
  });

  it('1. as a gen_ai.evaluation.result event on a carrier span under the agent span, in the evaluated trace', () => {
    for (const run of bad) {
      const id = expectedCarrierSpanId(receiver.spans, run.traceId, run.agentSpanId, 'hallucination');
      const span = receiver.spans.find((s) => s.spanId === id);
      expect(span, `carrier ${id} of trace ${run.traceId}`).toBeDefined();
      expect(span).toMatchObject({ traceId: run.traceId, parentSpanId: run.agentSpanId, name: 'evaluation hallucination', transport: 'http/json' });
      expect(span?.attributes['gen_ai.agent.name']).toEqual({ type: 'string', value: BAD });
      expect(span?.events.map((e) => e.name)).toEqual(['gen_ai.evaluation.result']);
      expect(span?.events[0]?.attributes).toMatchObject({
        'gen_ai.evaluation.score.value': { type: 'double', value: 1 },
        'gen_ai.evaluation.score.label': { type: 'string', value: 'fail' },
        'gen_ai.evaluation.explanation': { type: 'string', value: 'The answer contradicts the weather tool: it said 18°C and light rain.' },
      });
    }
    for (const run of good) {
      const span = receiver.spans.find((s) => s.traceId === run.traceId && s.name === 'evaluation hallucination');
      expect(span?.events[0]?.attributes['gen_ai.evaluation.score.value']).toEqual({ type: 'double', value: 0 });
      expect(span?.events[0]?.attributes['gen_ai.evaluation.score.label']).toEqual({ type: 'string', value: 'pass' });
    }
  });

  it('2. as a gen_ai.evaluation.result log event carrying the agent span trace and span ids', () => {
    for (const run of bad) {
      const log = receiver.logs.find((l) => l.traceId === run.traceId);
      expect(log).toMatchObject({ eventName: 'gen_ai.evaluation.result', spanId: run.agentSpanId, transport: 'http/json' });
      expect(log?.attributes['gen_ai.evaluation.name']).toEqual({ type: 'string', value: 'hallucination' });
      expect(log?.attributes['gen_ai.evaluation.score.label']).toEqual({ type: 'string', value: 'fail' });
      expect(log?.attributes['gen_ai.evaluation.score.value']).toEqual({ type: 'double', value: 1 });
    }
  });

  it('3. in the metrics: Prometheus scraped tracejudge_evaluation_score_count per agent', async () => {
    const counts = await prometheus.waitFor(
      'sum by (gen_ai_agent_name) (tracejudge_evaluation_score_count{gen_ai_evaluation_name="hallucination"})',
      (r) => r.length === 2 && r.every((s) => Number(s.value[1]) === 2),
    );
    expect(byAgent(counts)).toEqual({ [BAD]: 2, [GOOD]: 2 });
    const outcomes = await prometheus.query('sum by (gen_ai_agent_name, outcome) (tracejudge_evaluations_total{gen_ai_evaluation_name="hallucination"})');
    expect(outcomes.map((r) => `${r.metric.gen_ai_agent_name}:${r.metric.outcome}=${r.value[1]}`).sort()).toEqual([`${GOOD}:pass=2`, `${BAD}:fail=2`].sort());
    // Scores land in the explicit buckets: the bad agent's 1.0 in le="1" but not le="0.9".
    const buckets = await prometheus.query(`sum by (le) (tracejudge_evaluation_score_bucket{gen_ai_agent_name="${BAD}", le=~"0.9|1"})`);
    expect(Object.fromEntries(buckets.map((b) => [b.metric.le, Number(b.value[1])]))).toEqual({ '0.9': 0, '1': 2 });
  });

  it('every metric the shipped Prometheus rules select has series scraped from serve', async () => {
    const names = [...new Set((await readFile(RULES, 'utf8')).match(/tracejudge_[a-z_]+/g) ?? [])].sort();
    expect(names.length).toBeGreaterThanOrEqual(5);
    const present = await prometheus.waitFor(`count by (__name__) ({__name__=~"${names.join('|')}"})`, (r) => r.length === names.length, 20);
    expect(present.map((r) => r.metric.__name__).sort()).toEqual(names);
  });

  it("3. in the metrics: the shipped alert's fail-rate expression is above its threshold for the hallucinating agent only, and the alert is pending", async () => {
    const expr = await alertExpr();
    const firing = await prometheus.waitFor(expr, (r) => r.some((s) => s.metric.gen_ai_agent_name === BAD));
    expect(Object.keys(byAgent(firing))).toEqual([BAD]);
    expect(byAgent(firing)[BAD]).toBeGreaterThan(0.2);
    // The recording rule of the same ratio catches up at its next evaluation (1 s).
    const ratio = await prometheus.waitFor('tracejudge:hallucination_fail_ratio:rate5m', (r) => byAgent(r)[BAD] === 1);
    expect(byAgent(ratio)[BAD]).toBe(1);
    expect(byAgent(ratio)[GOOD]).toBeUndefined(); // no fail series for it: the ratio has no sample, like the alert
    const alerts = await until('the alert to go pending', 20_000, async () => {
      const body = await prometheus.api<{ data: { alerts: { state: string; labels: Record<string, string> }[] } }>('/api/v1/alerts');
      const found = body.data.alerts.filter((a) => a.labels.alertname === ALERT);
      return found.length > 0 ? found : undefined;
    }, 250);
    expect(alerts.map((a) => [a.state, a.labels.gen_ai_agent_name])).toEqual([['pending', BAD]]);
  });
});
