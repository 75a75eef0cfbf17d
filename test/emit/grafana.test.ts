/** Sanity of the Grafana dashboard JSON and alert provisioning, against the metrics tracejudge really exports. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { toCarrierSpan } from '../../src/emit/carrier-span.js';
import { errorRecord, scoreRecord } from './records.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string): string => readFileSync(`${root}${path}`, 'utf8');

/** Prometheus series names of every instrument created in src/telemetry/instruments.ts. */
function exportedSeries(): Set<string> {
  const src = read('src/telemetry/instruments.ts');
  const out = new Set<string>();
  // Synchronous instruments, and counters summed in the process (`new SummedCounter(meter, 'name', …)`).
  for (const m of src.matchAll(/(?:meter\.create(Counter|Histogram|ObservableGauge|UpDownCounter|Gauge)\(|new Summed(Counter)\(meter, )'([a-z0-9_.]+)'/g)) {
    const [, created, summed, name = ''] = m;
    const kind = created ?? summed ?? '';
    const base = name.replace(/\./g, '_');
    if (kind === 'Counter') out.add(`${base}_total`);
    else if (kind === 'Histogram') for (const s of ['_bucket', '_sum', '_count']) out.add(base + s);
    else out.add(base);
  }
  return out;
}

interface Target {
  refId: string;
  expr?: string;
  query?: string;
  exemplar?: boolean;
  datasource?: { uid: string; type: string };
}
interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: { h: number; w: number; x: number; y: number };
  datasource?: { uid: string; type: string };
  targets?: Target[];
}
interface Dashboard {
  uid: string;
  title: string;
  schemaVersion: number;
  panels: Panel[];
  templating: { list: { name: string; type: string }[] };
}

const dashboard = JSON.parse(read('config/grafana/dashboards/tracejudge.json')) as Dashboard;
const series = exportedSeries();

describe('Grafana dashboard', () => {
  it('is a dashboard document with unique panel ids inside the 24-column grid', () => {
    expect(dashboard.uid).toBe('tracejudge-overview');
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of dashboard.panels) {
      expect(p.title, `panel ${p.id}`).toBeTruthy();
      expect(p.gridPos.x + p.gridPos.w, p.title).toBeLessThanOrEqual(24);
      expect(p.gridPos.h, p.title).toBeGreaterThan(0);
    }
    expect(dashboard.templating.list.map((v) => v.name)).toEqual(['datasource', 'agent', 'scorer']);
  });

  it('queries only metrics tracejudge exports', () => {
    expect(series.has('tracejudge_evaluation_score_bucket')).toBe(true);
    expect(series.has('tracejudge_evaluations_total')).toBe(true);
    const used = new Set<string>();
    for (const p of dashboard.panels) {
      for (const t of p.targets ?? []) {
        if (t.expr === undefined) continue;
        for (const m of t.expr.matchAll(/\btracejudge_[a-z0-9_]+/g)) used.add(m[0]);
      }
    }
    for (const name of used) expect(series, `${name} is not exported`).toContain(name);
    expect(used.size).toBeGreaterThanOrEqual(12);
  });

  it('covers scores, fail rates, hallucination, the judge and every pipeline stage', () => {
    const all = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr ?? t.query ?? '')).join('\n');
    for (const needle of [
      'tracejudge_evaluation_score_sum', 'outcome="fail"', 'gen_ai_evaluation_name="hallucination"', 'tracejudge_judge_requests_total', 'tracejudge_judge_tokens_total',
      'tracejudge_judge_duration_bucket', 'tracejudge_spans_received_total', 'tracejudge_traces_assembled_total', 'tracejudge_runs_extracted_total',
      'tracejudge_sampling_decisions_total', 'tracejudge_traces_dropped_total', 'tracejudge_spans_rejected_total', 'tracejudge_buffer_traces', 'evaluation .+',
    ]) {
      expect(all, needle).toContain(needle);
    }
  });

  it('references only provisioned datasources', () => {
    const ds = parse(read('config/grafana/provisioning/datasources/datasources.yaml')) as { datasources: { uid: string }[] };
    const uids = new Set([...ds.datasources.map((d) => d.uid), '${datasource}']);
    for (const p of dashboard.panels) {
      if (p.datasource) expect(uids, p.title).toContain(p.datasource.uid);
      for (const t of p.targets ?? []) if (t.datasource) expect(uids, p.title).toContain(t.datasource.uid);
    }
  });
});

describe('exemplars on the fail-rate panels', () => {
  const failRate = dashboard.panels.filter((p) => /fail rate|failed tool call/i.test(p.title) && p.type === 'timeseries');

  it('every fail-rate panel asks for exemplars on its fail-ratio query', () => {
    expect(failRate.map((p) => p.id).sort((a, b) => a - b)).toEqual([4, 5, 20, 21]);
    for (const p of failRate) {
      const [ratio] = p.targets ?? [];
      expect(ratio?.expr, p.title).toMatch(/tracejudge_evaluations_total\{[^}]*outcome="fail"/);
      expect(ratio?.exemplar, p.title).toBe(true);
    }
  });

  it('the Prometheus datasource opens the trace_id of an exemplar in the Tempo datasource', () => {
    const ds = (parse(read('config/grafana/provisioning/datasources/datasources.yaml')) as { datasources: { uid: string; type: string; jsonData?: { exemplarTraceIdDestinations?: { name: string; datasourceUid: string }[] } }[] }).datasources;
    const prometheus = ds.find((d) => d.uid === 'prometheus');
    expect(prometheus?.jsonData?.exemplarTraceIdDestinations).toEqual([{ name: 'trace_id', datasourceUid: 'tempo' }]);
    expect(ds.find((d) => d.uid === 'tempo')?.type).toBe('tempo');
  });
});

interface GrafanaRule {
  uid: string;
  title: string;
  condition: string;
  for: string;
  labels: Record<string, string>;
  data: { refId: string; datasourceUid: string; model: { expr?: string; type?: string; expression?: string; conditions?: { evaluator: { type: string; params: number[] } }[] } }[];
}
interface PromRule {
  alert?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
}

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

describe('Grafana alert provisioning', () => {
  const grafana = (parse(read('config/grafana/provisioning/alerting/tracejudge-alerts.yaml')) as { groups: { rules: GrafanaRule[] }[] }).groups.flatMap((g) => g.rules);
  const prom = (parse(read('config/prometheus/rules.yml')) as { groups: { rules: PromRule[] }[] }).groups.flatMap((g) => g.rules).filter((r) => r.alert);

  it('has the same alerts as the Prometheus rules, with the same expression, threshold, duration and severity', () => {
    expect(grafana.map((r) => r.title).sort()).toEqual(prom.map((r) => r.alert).sort());
    for (const rule of grafana) {
      const twin = prom.find((p) => p.alert === rule.title);
      const query = rule.data.find((d) => d.refId === 'A');
      const threshold = rule.data.find((d) => d.refId === rule.condition);
      expect(query?.datasourceUid, rule.title).toBe('prometheus');
      expect(threshold?.model.type, rule.title).toBe('threshold');
      expect(threshold?.model.expression, rule.title).toBe('A');
      const evaluator = threshold?.model.conditions?.[0]?.evaluator;
      expect(evaluator?.type, rule.title).toBe('gt');
      const limit = evaluator?.params[0] ?? Number.NaN;
      const expr = squash(query?.model.expr ?? '');
      // Either the query is the whole boolean expression (threshold 0), or the comparison moved into the threshold.
      const equivalent = limit === 0 && / and /.test(expr) ? expr : `${expr} > ${limit}`;
      expect(equivalent, rule.title).toBe(squash(twin?.expr ?? ''));
      expect(rule.for, rule.title).toBe(twin?.for);
      expect(rule.labels.severity, rule.title).toBe(twin?.labels?.severity);
    }
  });
});

/**
 * The subset of TraceQL the dashboard's Tempo panels use: one `{ … }` selector of conditions joined by `&&`,
 * each `name`, `span.<attr>`, `event.<attr>` or `resource.<attr>` compared with `=`, `!=` or `=~` (anchored, as
 * Tempo's regex matchers are) to a string. Anything else fails the parse, so the test notices a query it cannot judge.
 */
function traceqlMatches(query: string, span: ReadableSpan, variables: Record<string, string>): boolean {
  const body = /^\{(.*)\}$/.exec(query.trim())?.[1];
  if (body === undefined || /\|\||[()]/.test(body)) throw new Error(`unsupported TraceQL: ${query}`);
  return body.split('&&').every((raw) => {
    const m = /^\s*(name|(?:span|event|resource)\.[\w.]+)\s*(=~|!=|=)\s*"((?:[^"\\]|\\.)*)"\s*$/.exec(raw);
    if (!m) throw new Error(`unsupported TraceQL condition: ${raw}`);
    const [, lhs = '', op, rhs = ''] = m;
    const value = rhs.replace(/\$\{(\w+)(?::\w+)?\}/g, (_v, name: string) => variables[name] ?? '');
    const test = (v: unknown): boolean => (op === '=~' ? new RegExp(`^(?:${value})$`).test(String(v)) : op === '=' ? v === value : v !== value);
    const [scope, ...rest] = lhs.split('.');
    const key = rest.join('.');
    if (lhs === 'name') return test(span.name);
    if (scope === 'span') return test(span.attributes[key]);
    if (scope === 'resource') return test(span.resource.attributes[key]);
    return span.events.some((e) => test(e.attributes?.[key]));
  });
}

describe('the Tempo panel "Failed evaluations (Tempo)"', () => {
  const panel = dashboard.panels.find((p) => p.title === 'Failed evaluations (Tempo)');
  const query = panel?.targets?.[0]?.query ?? '';
  const resource = resourceFromAttributes({ 'service.name': 'tracejudge' });
  const scope = { name: 'tracejudge' };
  const carrier = (record: Parameters<typeof toCarrierSpan>[0]): ReadableSpan => toCarrierSpan(record, resource, scope);
  const all = { agent: '.*' };

  it('is a TraceQL query on the Tempo datasource', () => {
    expect(panel?.datasource?.type).toBe('tempo');
    expect(query).toContain('evaluation .+');
  });

  it('lists the carrier span of a failing evaluation of any scorer, as tracejudge exports it', () => {
    expect(traceqlMatches(query, carrier(scoreRecord({ scorer: 'hallucination', score: 0.8, label: 'fail' })), all)).toBe(true);
    expect(traceqlMatches(query, carrier(scoreRecord({ scorer: 'grounding', score: 0, label: 'fail' })), all)).toBe(true);
    expect(traceqlMatches(query, carrier(scoreRecord({ scorer: 'faithfulness', score: 0.2, label: 'fail' })), all)).toBe(true);
    expect(traceqlMatches(query, carrier(scoreRecord({ scorer: 'hallucination', agentName: 'billing-agent', label: 'fail' })), { agent: 'billing-agent' })).toBe(true);
  });

  it('leaves out passing evaluations, errors without a score and other agents', () => {
    expect(traceqlMatches(query, carrier(scoreRecord({ scorer: 'hallucination', score: 0.1, label: 'pass' })), all)).toBe(false);
    expect(traceqlMatches(query, carrier(scoreRecord({ scorer: 'grounding', score: 1, label: 'pass' })), all)).toBe(false);
    expect(traceqlMatches(query, carrier(errorRecord({ scorer: 'hallucination' })), all)).toBe(false);
    expect(traceqlMatches(query, carrier(scoreRecord({ scorer: 'hallucination', agentName: 'support-agent', label: 'fail' })), { agent: 'billing-agent' })).toBe(false);
  });
});

describe('dashboard panels that show an alert', () => {
  const prom = (parse(read('config/prometheus/rules.yml')) as { groups: { rules: PromRule[] }[] }).groups.flatMap((g) => g.rules).filter((r) => r.alert);
  /** The alert's expression split at `and`, each side without its trailing comparison. */
  const sides = (expr: string): string[] => expr.trim().split(/\n\s*and\s*\n/).map((side) => squash(side.replace(/\s*(?:>=|>)\s*[\d.]+\s*$/, '')));
  const alerting = dashboard.panels.filter((p) => /\(alert:/.test(p.title));

  it('exist for the hallucination, judge, default-scorer and tool-error alerts', () => {
    const named = alerting.map((p) => /^Alert: (\w+)/.exec((p as Panel & { description?: string }).description ?? '')?.[1]);
    expect(named.sort()).toEqual(['TracejudgeAnswerFailRateHigh', 'TracejudgeHallucinationFailRateHigh', 'TracejudgeJudgeErrorRateHigh', 'TracejudgeToolErrorRateHigh']);
  });

  it.each(alerting.map((p) => [p.title, p] as const))('%s queries exactly its alert\'s expression', (_title, panel) => {
    const name = /^Alert: (\w+)/.exec((panel as Panel & { description?: string }).description ?? '')?.[1];
    const rule = prom.find((r) => r.alert === name);
    expect(rule, String(name)).toBeDefined();
    expect((panel.targets ?? []).map((t) => squash(t.expr ?? ''))).toEqual(sides(rule?.expr ?? ''));
  });
});
