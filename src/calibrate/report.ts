/**
 * The calibration report: labeled runs matched with their records, then per scorer the confusion matrix
 * at its configured threshold, precision / recall / F1 for "fail", the threshold that maximises F1 and the
 * one that reaches the target precision; and the verdict accuracy of the whole configured set.
 *
 * Verdict of a run (the configured set's answer about the answer's quality): a fail record → fail; else a
 * pass record → pass; else (empty run, every scorer skipped or errored) → unscored, which is never a pass.
 * Operational scorers (`no-tool-errors`: did a tool call fail?) are reported per scorer, apart from the
 * verdict: an honest "the service is down" after a failed call is a right answer. A run no quality scorer
 * applies to (chit-chat) passes when an operational scorer passed it.
 */
import type { ScoreRecord } from '../model/score-record.js';
import type { ConfiguredScorer, ScoreDirection } from '../scorers/descriptor.js';
import type { CollectedRun } from './collect.js';
import { labelFromAttributes, type Label, type LabelRow } from './labels.js';
import { atPrecision, bestF1, confusion, rates, sweep, type Confusion, type Rates, type ThresholdPoint } from './metrics.js';

export type Verdict = Label | 'unscored';

/** Scorer types that report on operations, not on the answer: kept out of the verdict. */
export const OPERATIONAL_TYPES: ReadonlySet<string> = new Set(['no-tool-errors']);

/** A run with its human label. */
export interface LabeledRun {
  run: CollectedRun;
  label: Label;
  scorers: Record<string, Label>;
  split?: string;
}

export interface ThresholdReport extends Rates {
  threshold: number;
  confusion: Confusion;
}

export interface ScorerReport extends Rates {
  name: string;
  type: string;
  kind: string;
  direction: ScoreDirection;
  threshold: number;
  /** Labeled runs with a score from this scorer. */
  scored: number;
  /** Labeled runs where it was not applicable (no record). */
  notApplicable: number;
  /** Labeled runs where it failed to score (error record). */
  errors: number;
  confusion: Confusion;
  bestF1: ThresholdReport | null;
  atPrecision: ThresholdReport | null;
}

export interface VerdictReport extends Rates {
  runs: number;
  correct: number;
  /** Runs with no pass or fail record (counted as not passing). */
  unscored: number;
  confusion: Confusion;
}

export interface Misjudged {
  traceId: string;
  spanId: string;
  agent: string;
  label: Label;
  verdict: Verdict;
  split?: string;
  records: { scorer: string; score?: number; label?: Label; reason?: string; error?: string }[];
}

export interface CalibrationReport {
  runs: { found: number; labeled: number; unlabeled: number; labelsWithoutRun: string[] };
  targetPrecision: number;
  verdict: VerdictReport;
  /** The same per `split` of the labels (e.g. `tune`, `holdout`), when any label has one. */
  splits: Record<string, VerdictReport>;
  scorers: ScorerReport[];
  /** The per-scorer reports per `split`, when any label has one. */
  splitScorers: Record<string, ScorerReport[]>;
  /** Configured scorers kept out of the verdict (operational signals). */
  operational: string[];
  misjudged: Misjudged[];
}

/** Pair runs with labels: label rows (trace id, then span id and agent when given), else span attributes. */
export function matchLabels(runs: readonly CollectedRun[], rows: readonly LabelRow[], attribute: string): { labeled: LabeledRun[]; unlabeled: number; unused: string[] } {
  const used = new Set<LabelRow>();
  const byTrace = new Map<string, LabelRow[]>();
  for (const r of rows) {
    const list = byTrace.get(r.traceId) ?? [];
    list.push(r);
    byTrace.set(r.traceId, list);
  }
  const labeled: LabeledRun[] = [];
  let unlabeled = 0;
  for (const run of runs) {
    const candidates = (byTrace.get(run.traceId) ?? []).filter((r) => (r.spanId === undefined || r.spanId === run.spanId) && (r.agent === undefined || r.agent === run.agentName));
    // The most specific row wins: span id, then agent, then trace only.
    const row = candidates.sort((a, b) => Number(b.spanId !== undefined) - Number(a.spanId !== undefined) || Number(b.agent !== undefined) - Number(a.agent !== undefined))[0];
    if (row) {
      used.add(row);
      labeled.push({ run, label: row.label, scorers: row.scorers ?? {}, ...(row.split !== undefined ? { split: row.split } : {}) });
      continue;
    }
    const attr = labelFromAttributes(run.attributes, attribute);
    if (attr) labeled.push({ run, label: attr.label, scorers: attr.scorers ?? {}, ...(attr.split !== undefined ? { split: attr.split } : {}) });
    else unlabeled++;
  }
  return { labeled, unlabeled, unused: rows.filter((r) => !used.has(r)).map((r) => r.origin) };
}

/** The configured set's verdict on one run, leaving out the records of `operational` scorers (by name). */
export function verdictOf(records: readonly ScoreRecord[], operational: ReadonlySet<string> = new Set()): Verdict {
  const quality = operational.size === 0 ? records : records.filter((r) => !operational.has(r.scorer));
  if (quality.some((r) => r.label === 'fail')) return 'fail';
  if (quality.some((r) => r.label === 'pass')) return 'pass';
  // No quality scorer applied (a chit-chat run): a passing operational check still vouches for it.
  if (records.some((r) => r.label === 'pass')) return 'pass';
  return 'unscored';
}

function verdictReport(runs: readonly LabeledRun[], operational: ReadonlySet<string>): VerdictReport {
  const verdicts = runs.map((r) => ({ v: verdictOf(r.run.records, operational), label: r.label }));
  const c = confusion(verdicts.map(({ v, label }) => ({ predicted: v === 'pass' ? 'pass' : 'fail', label })));
  return { runs: runs.length, correct: c.tp + c.tn, unscored: verdicts.filter((x) => x.v === 'unscored').length, confusion: c, ...rates(c) };
}

const point = (p: ThresholdPoint | undefined): ThresholdReport | null =>
  p ? { threshold: p.threshold, confusion: p.confusion, precision: p.precision, recall: p.recall, f1: p.f1, accuracy: p.accuracy, falseAlarmRate: p.falseAlarmRate } : null;

function scorerReport(s: ConfiguredScorer, runs: readonly LabeledRun[], target: number): ScorerReport {
  const points: { score: number; label: Label; predicted: Label }[] = [];
  let notApplicable = 0;
  let errors = 0;
  for (const r of runs) {
    const rec = r.run.records.find((x) => x.scorer === s.name);
    if (!rec) {
      notApplicable++;
      continue;
    }
    if (typeof rec.score !== 'number' || rec.label === undefined) {
      errors++;
      continue;
    }
    points.push({ score: rec.score, label: r.scorers[s.name] ?? r.label, predicted: rec.label });
  }
  const c = confusion(points);
  const curve = sweep(s.direction, points);
  return {
    name: s.name,
    type: s.type,
    kind: s.kind,
    direction: s.direction,
    threshold: s.threshold,
    scored: points.length,
    notApplicable,
    errors,
    confusion: c,
    ...rates(c),
    bestF1: point(bestF1(curve, s.threshold)),
    atPrecision: point(atPrecision(curve, target)),
  };
}

/**
 * Build the report.
 *
 * @example
 * ```ts
 * const report = calibrationReport(collected.runs, collected.scorers, readLabels(['labels.jsonl']), { targetPrecision: 0.9 });
 * report.verdict.accuracy; // 0.97
 * ```
 */
export function calibrationReport(
  runs: readonly CollectedRun[],
  scorers: readonly ConfiguredScorer[],
  rows: readonly LabelRow[],
  options: { targetPrecision: number; labelAttribute?: string },
): CalibrationReport {
  const { labeled, unlabeled, unused } = matchLabels(runs, rows, options.labelAttribute ?? 'tracejudge.label');
  // Operational scorers stay out of the verdict, unless nothing else is configured.
  const opNames = scorers.filter((s) => OPERATIONAL_TYPES.has(s.type)).map((s) => s.name);
  const operational = new Set(opNames.length < scorers.length ? opNames : []);
  const splits: Record<string, VerdictReport> = {};
  const splitScorers: Record<string, ScorerReport[]> = {};
  for (const name of [...new Set(labeled.map((l) => l.split).filter((s): s is string => s !== undefined))].sort()) {
    const part = labeled.filter((l) => l.split === name);
    splits[name] = verdictReport(part, operational);
    splitScorers[name] = scorers.map((s) => scorerReport(s, part, options.targetPrecision));
  }
  const misjudged: Misjudged[] = [];
  for (const l of labeled) {
    const v = verdictOf(l.run.records, operational);
    if ((v === 'pass') === (l.label === 'pass')) continue;
    misjudged.push({
      traceId: l.run.traceId,
      spanId: l.run.spanId,
      agent: l.run.agentName,
      label: l.label,
      verdict: v,
      ...(l.split !== undefined ? { split: l.split } : {}),
      records: l.run.records.map((r) => ({
        scorer: r.scorer,
        ...(r.score !== undefined ? { score: r.score } : {}),
        ...(r.label !== undefined ? { label: r.label } : {}),
        ...(r.reason !== undefined ? { reason: r.reason } : {}),
        ...(r.error ? { error: `${r.error.type}: ${r.error.message}` } : {}),
      })),
    });
  }
  return {
    runs: { found: runs.length, labeled: labeled.length, unlabeled, labelsWithoutRun: unused },
    targetPrecision: options.targetPrecision,
    verdict: verdictReport(labeled, operational),
    splits,
    scorers: scorers.map((s) => scorerReport(s, labeled, options.targetPrecision)),
    splitScorers,
    operational: [...operational],
    misjudged,
  };
}
