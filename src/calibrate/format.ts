/** The calibration report as text for people (`--format table`). JSON is the report object itself. */
import type { CalibrationReport, ScorerReport, ThresholdReport, VerdictReport } from './report.js';

const pct = (x: number | null): string => (x === null ? '—' : x.toFixed(3));
const num = (x: number): string => String(Number(x.toFixed(4)));

function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}

function matrix(c: { tp: number; fp: number; fn: number; tn: number }): string {
  return `TP ${c.tp} FP ${c.fp} FN ${c.fn} TN ${c.tn}`;
}

function verdictLine(name: string, v: VerdictReport): string {
  return `${name}: ${v.correct}/${v.runs} verdicts right (accuracy ${pct(v.accuracy)}); false alarms ${pct(v.falseAlarmRate)}; fail precision ${pct(v.precision)} recall ${pct(v.recall)} F1 ${pct(v.f1)}; ${matrix(v.confusion)}${v.unscored > 0 ? `; ${v.unscored} unscored (counted as not passing)` : ''}`;
}

/** One scorer of one split, compactly. */
function splitScorerLine(s: ScorerReport): string {
  return `${s.name} P ${pct(s.precision)} R ${pct(s.recall)} FA ${pct(s.falseAlarmRate)} (${matrix(s.confusion)})`;
}

function at(t: ThresholdReport | null, what: 'f1' | 'recall'): string {
  if (!t) return '—';
  return `${num(t.threshold)} (${what === 'f1' ? `F1 ${pct(t.f1)}` : `R ${pct(t.recall)}`})`;
}

function scorerRow(s: ScorerReport): string[] {
  return [
    s.name,
    s.type,
    `${s.direction === 'lower' ? '>' : '<'}${num(s.threshold)}`,
    String(s.scored),
    String(s.notApplicable),
    String(s.confusion.tp),
    String(s.confusion.fp),
    String(s.confusion.fn),
    String(s.confusion.tn),
    pct(s.precision),
    pct(s.recall),
    pct(s.f1),
    pct(s.falseAlarmRate),
    at(s.bestF1, 'f1'),
    at(s.atPrecision, 'recall'),
  ];
}

/**
 * The report as lines of text: the verdict accuracy (overall and per split), then one row per scorer.
 *
 * @example
 * ```ts
 * process.stdout.write(`${formatReport(report)}\n`);
 * ```
 */
export function formatReport(r: CalibrationReport): string {
  const out: string[] = [];
  out.push(`runs: ${r.runs.found} found, ${r.runs.labeled} labeled, ${r.runs.unlabeled} unlabeled${r.runs.labelsWithoutRun.length > 0 ? `, ${r.runs.labelsWithoutRun.length} labels matched no run` : ''}`);
  const apart = r.operational.length > 0 ? `; operational, not in the verdict: ${r.operational.join(', ')}` : '';
  out.push(verdictLine(`verdict (configured set${apart})`, r.verdict));
  for (const [name, v] of Object.entries(r.splits)) {
    out.push(verdictLine(`  split ${name}`, v));
    const rows = (r.splitScorers[name] ?? []).filter((s) => s.scored > 0).map(splitScorerLine);
    if (rows.length > 0) out.push(`    per scorer: ${rows.join('; ')}`);
  }
  out.push('');
  out.push(`per scorer ("fail" is positive; FAILS AT = the configured rule; N/A = labeled runs it skipped; target precision ${r.targetPrecision}):`);
  out.push(
    table(
      ['SCORER', 'TYPE', 'FAILS AT', 'N', 'N/A', 'TP', 'FP', 'FN', 'TN', 'PRECISION', 'RECALL', 'F1', 'FALSE-ALARMS', 'BEST-F1 THRESHOLD', `P>=${r.targetPrecision} THRESHOLD`],
      r.scorers.map(scorerRow),
    ),
  );
  if (r.misjudged.length > 0) {
    out.push('');
    out.push(`misjudged runs (${r.misjudged.length}):`);
    for (const m of r.misjudged) {
      const recs = m.records.map((x) => `${x.scorer}=${x.score !== undefined ? `${num(x.score)} ${x.label ?? ''}`.trim() : (x.error ?? '?')}`).join(', ');
      out.push(`  ${m.traceId} ${m.spanId} ${m.agent}${m.split ? ` [${m.split}]` : ''}: labeled ${m.label}, verdict ${m.verdict}${recs ? ` (${recs})` : ''}`);
    }
  }
  return out.join('\n');
}
