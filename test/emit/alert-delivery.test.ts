/**
 * A real alert delivery: failing runs sent over OTLP/HTTP to the real service, a real Prometheus (Debian
 * `prometheus`) scraping it and evaluating the shipped alert rules, a real Alertmanager (Debian
 * `prometheus-alertmanager`) routing the alert to a webhook receiver on 127.0.0.1.
 *
 * The rules are a TEST COPY of config/prometheus/rules.yml, made by {@link shortened}: the same expressions,
 * labels and annotations, with only the durations and volumes shrunk so that an alert fires within seconds —
 * windows `[5m]`/`[15m]` become `[1m]`, the minimum volume `>= 20` becomes `>= 3`, and `for: 10m` becomes
 * `for: 2s`. The test checks that nothing else differs.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { post } from '../reliability/helpers/clients.js';
import { Rng } from '../reliability/helpers/rng.js';
import { startTestService, waitUntil, type TestService } from '../reliability/helpers/service.js';
import { validRequest, type TemplateName } from '../reliability/helpers/traces.js';
import { ALERTMANAGER_BIN, AlertmanagerProcess, WebhookReceiver, hasAlertmanager } from './alertmanager-process.js';
import { PROMETHEUS_BIN, PrometheusProcess, freePort, hasPrometheus } from './prometheus-process.js';

const RULES = fileURLToPath(new URL('../../config/prometheus/rules.yml', import.meta.url));

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
const rulesOf = (text: string): Rule[] => (parse(text) as { groups: { rules: Rule[] }[] }).groups.flatMap((g) => g.rules);

/** The shipped rules with shorter windows, volumes and `for:` (see the module comment). */
function shortened(text: string): string {
  return text
    .replace(/\[(?:5|15)m\]/g, '[1m]')
    .replace(/>= 20\b/g, '>= 3')
    .replace(/^(\s+)for: 10m$/gm, '$1for: 2s');
}

const binaries = hasPrometheus && hasAlertmanager;
const why = binaries ? '' : ` — SKIPPED: needs ${PROMETHEUS_BIN} and ${ALERTMANAGER_BIN} (apt-get install prometheus prometheus-alertmanager)`;

describe('the test copy of the rules', () => {
  it('differs from the shipped rules only in windows, volumes and durations', async () => {
    const text = await readFile(RULES, 'utf8');
    const shipped = rulesOf(text);
    const copy = rulesOf(shortened(text));
    expect(copy.map((r) => r.alert ?? r.record)).toEqual(shipped.map((r) => r.alert ?? r.record));
    const normalize = (expr: string): string => expr.replace(/\[(?:1|5|15)m\]/g, '[W]').replace(/>= (?:3|20)\b/g, '>= N');
    let changed = 0;
    for (const [i, rule] of shipped.entries()) {
      const twin = copy[i] as Rule;
      expect(normalize(twin.expr)).toBe(normalize(rule.expr));
      expect(twin.labels).toEqual(rule.labels);
      expect(twin.annotations).toEqual(rule.annotations);
      if (twin.expr !== rule.expr || twin.for !== rule.for) changed++;
    }
    expect(changed).toBe(shipped.length);
  });
});

describe.skipIf(!binaries)(`a real alert delivery: Prometheus → Alertmanager → webhook${why}`, () => {
  let svc: TestService;
  let dir: string;
  let publicUrl: string;
  const prometheus = new PrometheusProcess();
  const alertmanager = new AlertmanagerProcess();
  const webhook = new WebhookReceiver();

  beforeAll(async () => {
    // The live page is served on the metrics listener; its public URL is that listener, as people would reach it.
    const metricsPort = await freePort();
    publicUrl = `http://127.0.0.1:${metricsPort}`;
    svc = await startTestService({ assembly: { decisionWaitMs: 200, tickMs: 50 }, emit: { prometheus: { port: metricsPort } }, live: { publicUrl: `${publicUrl}/` } });
    dir = await mkdtemp(join(tmpdir(), 'tj-rules-'));
    await writeFile(join(dir, 'rules.yml'), shortened(await readFile(RULES, 'utf8')));
    await webhook.start();
    await alertmanager.start(webhook.url);
    await prometheus.start(`127.0.0.1:${metricsPort}`, [join(dir, 'rules.yml')], { alertmanagers: [alertmanager.address] });
  }, 60_000);

  afterAll(async () => {
    await prometheus.stop();
    await alertmanager.stop();
    await webhook.stop();
    await svc.service.shutdown(Date.now() + 5000);
    await rm(dir, { recursive: true, force: true });
  });

  it('delivers TracejudgeAnswerFailRateHigh with the agent, the scorer, the fail rate and a link to the filtered live page', async () => {
    const rng = new Rng(randomBytes(4).readUInt32LE(0));
    // A run whose answer contradicts its tool result: grounding fails it, answered passes it.
    const send = async (): Promise<string> => {
      const req = validRequest(rng, 'aisdk6-contradiction' as TemplateName);
      expect((await post(`${svc.httpUrl}/v1/traces`, req.json, 'application/json')).status).toBe(200);
      return req.traceIds[0] ?? '';
    };
    const first = await send();
    expect(await waitUntil(() => svc.recorder.forTrace(first).some((r) => r.scorer === 'grounding' && r.label === 'fail'), 20_000)).toBe(true);
    const agent = svc.recorder.forTrace(first)[0]?.agentName ?? '';
    // increase() counts from the first sample Prometheus has: the rest are sent once it has one.
    await prometheus.waitFor('tracejudge_evaluations_total{gen_ai_evaluation_name="grounding",outcome="fail"}', (r) => r.length === 1);
    await prometheus.waitFor('tracejudge_live_info', (r) => r[0]?.metric.url === publicUrl);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await send());
    expect(await waitUntil(() => ids.every((t) => svc.recorder.forTrace(t).length > 0), 20_000)).toBe(true);

    const delivered = await waitUntil(() => webhook.alerts.some((a) => a.labels.alertname === 'TracejudgeAnswerFailRateHigh'), 45_000, 250);
    expect(delivered, `no alert at the webhook; alertmanager log: ${alertmanager.log}`).toBe(true);
    const alerts = webhook.alerts.filter((a) => a.labels.alertname === 'TracejudgeAnswerFailRateHigh');
    // answered passes every run: only grounding pages.
    expect(alerts.map((a) => a.labels.gen_ai_evaluation_name)).toEqual(['grounding']);
    const alert = alerts[0];
    expect(alert?.status).toBe('firing');
    expect(alert?.labels).toMatchObject({ gen_ai_agent_name: agent, gen_ai_evaluation_name: 'grounding', severity: 'warning' });
    expect(alert?.annotations.summary).toBe(`Agent ${agent}: 100% of grounding evaluations fail`);
    const link = `${publicUrl}/?agent=${encodeURIComponent(agent)}&scorer=grounding&outcome=fail`;
    expect(alert?.annotations.live_url).toBe(link);
    // The link opens the live page.
    const page = await fetch(alert?.annotations.live_url ?? '');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    // No other alert of the shipped rules fired on these runs (tool calls succeeded; no judge in play).
    expect([...new Set(webhook.alerts.map((a) => a.labels.alertname))]).toEqual(['TracejudgeAnswerFailRateHigh']);
  }, 120_000);
});
