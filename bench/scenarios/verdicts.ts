/**
 * Verdict accuracy of the embedded default (no config, no judge key) on the repo's labeled set
 * (test/fixtures/labeled/, docs/calibration.md): the share of runs whose verdict matches the human label,
 * on the tuning part, on the holdout part and overall, with the pre-issue-14 default (completeness,
 * keyword coverage, grounding) as the baseline. Same engine as `tracejudge calibrate`.
 */
import { fileURLToPath } from 'node:url';
import { collectRuns } from '../../src/calibrate/collect.js';
import { readLabels } from '../../src/calibrate/labels.js';
import { calibrationReport, type CalibrationReport } from '../../src/calibrate/report.js';
import { parseConfig } from '../../src/config/load.js';
import type { AgentRun } from '../../src/model/agent-run.js';
import { createSamplingPolicy } from '../../src/sampling/policy.js';
import { createScorerRegistry } from '../../src/scorers/registry.js';
import { createSettings } from '../../src/service/settings.js';
import { silentLogger } from '../../src/telemetry/log.js';
import type { Row } from '../lib/results.js';
import type { BenchContext } from './context.js';

const DIR = fileURLToPath(new URL('../../test/fixtures/labeled/', import.meta.url));
const FILES = [`${DIR}aisdk6.json`, `${DIR}openinference.json`];
/** The blind set (issue 28): written from a brief by people who never read the scorers, a third kept aside. */
const BLIND = fileURLToPath(new URL('../../test/fixtures/blind/', import.meta.url));
const BLIND_FILES = [`${BLIND}aisdk6.json`, `${BLIND}openinference.json`, `${BLIND}genai.json`];

/** The code scorers the embedded default ran before issue 14. */
const OLD_DEFAULT = { completeness: { type: 'completeness', workers: 0 }, keywords: { type: 'keyword-coverage' }, grounding: { type: 'grounding' } };

async function collected(raw: Record<string, unknown>, files: readonly string[]): Promise<Awaited<ReturnType<typeof collectRuns>>> {
  const registry = createScorerRegistry();
  const config = parseConfig(raw, '<bench>', {}, { scorers: registry });
  const settings = createSettings(config, { env: {}, logger: silentLogger(), scorers: registry, prometheus: false });
  return collectRuns(config, settings, files);
}

async function reportFor(raw: Record<string, unknown>, dir = DIR, files = FILES): Promise<CalibrationReport> {
  const { runs, scorers } = await collected(raw, files);
  return calibrationReport(runs, scorers, readLabels([`${dir}labels.jsonl`]), { targetPrecision: 0.9 });
}

/**
 * Where the judge goes (issue 28, item 4), on the blind set's runs as the embedded default scored them: a
 * `hallucination` judge at its built-in rate 0.1, sampled by the rate alone (`rules: []`, as before) and with
 * the built-in unverified-first rule. Figures are expectations (the mean of each decision's probability), so
 * 486 runs give them without sampling noise: judge calls per run, and the share of the wrong answers that the
 * code scorers passed which reach the judge.
 */
async function judgeRoutingRows(): Promise<Row[]> {
  const { runs } = await collected({}, BLIND_FILES);
  const labels = new Map(readLabels([`${BLIND}labels.jsonl`]).map((l) => [`${l.traceId}:${l.spanId ?? ''}`, l.label]));
  const measure = (section: unknown): { perRun: number; missed: number; missedRuns: number } => {
    const policy = createSamplingPolicy(parseConfig({ sampling: section }, '<bench>', {}).sampling, { hallucination: 'judge' }, 0);
    let calls = 0;
    let missed = 0;
    let missedRuns = 0;
    for (const r of runs) {
      const codeScores: Record<string, number> = {};
      let codeUnverified: Record<string, number> | undefined;
      for (const rec of r.records) {
        if (typeof rec.score === 'number') codeScores[rec.scorer] = rec.score;
        if (typeof rec.unverified === 'number') (codeUnverified ??= {})[rec.scorer] = rec.unverified;
      }
      const run = { traceId: r.traceId, spanId: r.spanId, agentName: r.agentName, convention: 'genai', input: [], output: [], toolResults: [], context: [], status: 'ok', startTime: '', endTime: '' } as unknown as AgentRun;
      const d = policy.decide({ run, spans: [], resourceAttributes: {}, scorer: 'hallucination', scorerKind: 'judge', codeScores, ...(codeUnverified ? { codeUnverified } : {}) }, 0);
      calls += d.rate;
      const codePassed = r.records.every((x) => x.label !== 'fail');
      if (labels.get(`${r.traceId}:${r.spanId}`) === 'fail' && codePassed) {
        missedRuns++;
        missed += d.rate;
      }
    }
    return { perRun: calls / runs.length, missed: missedRuns > 0 ? missed / missedRuns : 0, missedRuns };
  };
  const today = measure({ rules: [] });
  const first = measure(undefined);
  return [
    {
      scenario: 'verdicts',
      metric: `judge calls per run, hallucination at rate 0.1 (blind set, ${runs.length} runs): unverified-first vs the rate alone`,
      value: first.perRun,
      unit: 'calls/run',
      baseline: today.perRun,
      baselineName: 'rate alone (rules: [])',
      ratio: today.perRun > 0 ? first.perRun / today.perRun : null,
      target: 'ratio <= 1.05',
      met: today.perRun > 0 ? first.perRun / today.perRun <= 1.05 : null,
    },
    {
      scenario: 'verdicts',
      metric: `wrong answers the code scorers passed that reach the judge (${first.missedRuns} runs): unverified-first vs the rate alone`,
      value: first.missed,
      unit: 'share',
      baseline: today.missed,
      baselineName: 'rate alone (rules: [])',
      ratio: today.missed > 0 ? first.missed / today.missed : null,
      note: 'measured, no target: on this set about half of the right and of the missed wrong answers alike have an unverified specific, so the signal moves little',
    },
  ];
}

/** The blind set's rows: verdicts right, false alarms and grounding's recall (contradictions + fabrications) per part. */
function blindRows(r: CalibrationReport): Row[] {
  const rows: Row[] = [];
  for (const [name, right, alarms] of [['tune', 0.95, 0.03], ['holdout', 0.9, 0.05]] as const) {
    const v = r.splits[name];
    const g = r.splitScorers[name]?.find((s) => s.name === 'grounding');
    const row = (metric: string, value: number | null | undefined, target: string, met: (x: number) => boolean): Row => ({
      scenario: 'verdicts',
      metric,
      value: value ?? null,
      unit: 'share',
      target,
      met: value === null || value === undefined ? null : met(value),
    });
    rows.push(row(`blind set, ${name}: verdicts right (${v?.correct ?? 0}/${v?.runs ?? 0})`, v?.accuracy, `value >= ${right}`, (x) => x >= right));
    rows.push(row(`blind set, ${name}: false alarms (FP ${v?.confusion.fp ?? 0} of ${(v?.confusion.fp ?? 0) + (v?.confusion.tn ?? 0)} pass-labeled)`, v?.falseAlarmRate, `value <= ${alarms}`, (x) => x <= alarms));
    rows.push(row(`blind set, ${name}: contradictions + fabrications caught (grounding recall)`, g?.recall, 'value >= 0.85', (x) => x >= 0.85));
  }
  return rows;
}

export async function verdictsScenario(ctx: BenchContext): Promise<Row[]> {
  const now = await reportFor({});
  const before = await reportFor({ scorers: OLD_DEFAULT });
  const rows: Row[] = [];
  const part = (name: string, r: CalibrationReport): CalibrationReport['verdict'] | undefined => (name === 'all' ? r.verdict : r.splits[name]);
  for (const [name, target] of [['tune', 0.95], ['holdout', 0.9], ['all', 0.95]] as const) {
    const v = part(name, now);
    const b = part(name, before);
    const value = v?.accuracy ?? null;
    rows.push({
      scenario: 'verdicts',
      metric: `default verdict accuracy, ${name} (${v?.correct ?? 0}/${v?.runs ?? 0} runs)`,
      value,
      unit: 'share',
      baseline: b?.accuracy ?? null,
      baselineName: 'old default (completeness, keywords, grounding)',
      target: `value >= ${target}`,
      met: value === null ? null : value >= target,
    });
  }
  rows.push(...blindRows(await reportFor({}, BLIND, BLIND_FILES)));
  rows.push(...(await judgeRoutingRows()));
  ctx.notes.push(
    `verdicts: labeled set of ${now.runs.labeled} runs (AI SDK 6 + OpenInference, scripted mock models); per scorer F1 for "fail": ${now.scorers
      .map((s) => `${s.name} ${s.f1 === null ? '—' : s.f1.toFixed(3)}`)
      .join(', ')}. Regenerate with node scripts/fixtures/labeled/generate.mjs; details with tracejudge calibrate.`,
  );
  return rows;
}
