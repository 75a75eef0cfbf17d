import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { configSchema } from '../../src/config/schema.js';
import { MetricsEmitter } from '../../src/emit/metrics-emitter.js';
import { createSettings, type Settings } from '../../src/service/settings.js';
import { silentLogger } from '../../src/telemetry/log.js';
import { createMetricsEndpoint, type MetricsEndpoint } from '../../src/telemetry/metrics.js';
import { PrometheusProcess, hasPrometheus, sleep } from './prometheus-process.js';
import { errorRecord, scoreRecord } from './records.js';

const RULES = fileURLToPath(new URL('../../config/prometheus/rules.yml', import.meta.url));

/** The service's settings (its own MeterProvider and Telemetry) and the /metrics endpoint over them (the old `startMetrics`). */
async function startMetrics(config: ReturnType<typeof configSchema.parse>): Promise<{ settings: Settings; endpoint: MetricsEndpoint }> {
  const settings = createSettings(config, { env: {}, logger: silentLogger() });
  const endpoint = createMetricsEndpoint({ meters: settings.meters, host: config.emit.prometheus.host, port: config.emit.prometheus.port, logger: settings.logger });
  await endpoint.start();
  return { settings, endpoint };
}

interface RuleFile {
  groups: { rules: { alert?: string; expr: string }[] }[];
}
async function alertExpr(name: string): Promise<string> {
  const file = parse(await readFile(RULES, 'utf8')) as RuleFile;
  const rule = file.groups.flatMap((g) => g.rules).find((r) => r.alert === name);
  if (!rule) throw new Error(`alert ${name} not in ${RULES}`);
  return rule.expr;
}

describe('/metrics endpoint', () => {
  let metrics: MetricsEndpoint;
  let settings: Settings;
  let emitter: MetricsEmitter;
  beforeAll(async () => {
    const config = configSchema.parse({ emit: { prometheus: { port: 0 }, metrics: { maxAgents: 2 } } });
    ({ settings, endpoint: metrics } = await startMetrics(config));
    emitter = new MetricsEmitter(settings.telemetry);
  });
  afterAll(() => metrics.shutdown(Date.now() + 5000));

  it('serves the docs/records.md names with the explicit score buckets and bounded agent names', async () => {
    await emitter.emit([
      scoreRecord({ score: 0.75, label: 'fail' }),
      scoreRecord({ score: 0.05, label: 'pass', agentName: 'billing-agent' }),
      scoreRecord({ score: 0.3, label: 'pass', agentName: 'third-agent' }),
      errorRecord(),
    ]);
    settings.telemetry.recordSkipped('support-agent', 'similarity');
    expect(metrics.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const text = await (await fetch(metrics.url ?? '')).text();
    for (const le of ['0', '0.1', '0.2', '0.3', '0.4', '0.5', '0.6', '0.7', '0.8', '0.9', '1', '+Inf']) {
      expect(text).toMatch(new RegExp(`tracejudge_evaluation_score_bucket\\{[^}]*le="${le.replace('+', '\\+')}"`));
    }
    expect(text).toMatch(/tracejudge_evaluation_score_sum\{[^}]*gen_ai_agent_name="support-agent"/);
    expect(text).toMatch(/tracejudge_evaluation_score_count\{[^}]*gen_ai_evaluation_name="hallucination"[^}]*\} 1/);
    expect(text).toMatch(/tracejudge_evaluations_total\{[^}]*outcome="fail"[^}]*\} 1/);
    expect(text).toMatch(/tracejudge_evaluations_total\{[^}]*outcome="error"[^}]*\} 1/);
    expect(text).toMatch(/tracejudge_evaluations_total\{[^}]*outcome="skipped"[^}]*\} 1/);
    // maxAgents 2: the third distinct agent is reported as "other".
    expect(text).toContain('gen_ai_agent_name="other"');
    expect(text).not.toContain('third-agent');
    // Never trace ids on metrics.
    expect(text).not.toContain(scoreRecord().traceId);
    expect((await fetch(metrics.url?.replace('/metrics', '/nope') ?? '')).status).toBe(404);
  });
});

describe.skipIf(!hasPrometheus)('a real Prometheus scraping /metrics (needs /usr/bin/prometheus: apt-get install prometheus)', () => {
  let metrics: MetricsEndpoint;
  let emitter: MetricsEmitter;
  const prometheus = new PrometheusProcess();

  beforeAll(async () => {
    const config = configSchema.parse({ emit: { prometheus: { port: 0 } } });
    const started = await startMetrics(config);
    metrics = started.endpoint;
    emitter = new MetricsEmitter(started.settings.telemetry);
    const target = new URL(metrics.url ?? '').host;
    await prometheus.start(target, [RULES]);
  });
  afterAll(async () => {
    await prometheus.stop();
    await metrics.shutdown(Date.now() + 5000);
  });

  it('scrapes tracejudge_evaluation_score_count', async () => {
    await emitter.emit([scoreRecord({ label: 'pass', score: 0.1 }), scoreRecord({ agentName: 'billing-agent', label: 'pass', score: 0 })]);
    const result = await prometheus.waitFor('sum by (gen_ai_agent_name) (tracejudge_evaluation_score_count)', (r) => r.length === 2);
    const byAgent = Object.fromEntries(result.map((r): [string, number] => [r.metric.gen_ai_agent_name ?? '', Number(r.value[1])]));
    expect(byAgent).toEqual({ 'support-agent': 1, 'billing-agent': 1 });
  });

  it('evaluates the alert fail-rate expression and puts the hallucinating agent into pending', async () => {
    // A judged hallucination stream for support-agent; billing-agent keeps passing.
    const hallucinations = Array.from({ length: 4 }, () => scoreRecord({ score: 0.9, label: 'fail' }));
    await emitter.emit([...hallucinations, scoreRecord({ agentName: 'billing-agent', label: 'pass', score: 0.05 })]);
    const expr = await alertExpr('TracejudgeHallucinationFailRateHigh');
    await sleep(1200); // let at least one scrape see these values before the next increase
    await emitter.emit([...hallucinations, scoreRecord({ agentName: 'billing-agent', label: 'pass', score: 0.05 })]);
    const firing = await prometheus.waitFor(expr, (r) => r.some((s) => s.metric.gen_ai_agent_name === 'support-agent'));
    expect(firing.map((s) => s.metric.gen_ai_agent_name)).toEqual(['support-agent']);
    expect(Number(firing[0]?.value[1])).toBeGreaterThan(0.2);

    const alerts = await waitForAlert(prometheus, 'TracejudgeHallucinationFailRateHigh');
    expect(alerts.map((a) => [a.state, a.labels.gen_ai_agent_name, a.labels.severity])).toEqual([['pending', 'support-agent', 'warning']]);
  });

  it('loads every shipped rule', async () => {
    const body = await prometheus.api<{ data: { groups: { rules: { name: string; health: string }[] }[] } }>('/api/v1/rules');
    const rules = body.data.groups.flatMap((g) => g.rules);
    expect(rules.map((r) => r.name).sort()).toEqual([
      'TracejudgeAnswerFailRateHigh',
      'TracejudgeAssemblyStalled',
      'TracejudgeHallucinationFailRateHigh',
      'TracejudgeJudgeErrorRateHigh',
      'TracejudgePipelineStalled',
      'TracejudgeToolErrorRateHigh',
      'tracejudge:hallucination_fail_ratio:rate5m',
    ]);
  });
});

interface AlertsBody {
  data: { alerts: { state: string; labels: Record<string, string> }[] };
}
async function waitForAlert(prometheus: PrometheusProcess, name: string): Promise<AlertsBody['data']['alerts']> {
  for (let i = 0; i < 40; i++) {
    const body = await prometheus.api<AlertsBody>('/api/v1/alerts');
    const found = body.data.alerts.filter((a) => a.labels.alertname === name);
    if (found.length > 0) return found;
    await sleep(250);
  }
  return [];
}
