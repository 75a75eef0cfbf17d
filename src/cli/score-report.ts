/**
 * What `score` shows people: the `--format table` table (agent, scorer, score and label, excerpts of the
 * run's input and output, the reason), fitted to the terminal, and the closing summary per agent and scorer
 * (count, mean, fails) that goes to stderr. Both are fed as pipeline observers, so they see every record
 * with its run, whatever emitters are configured.
 */
import { runExcerpt, type RunExcerpt } from '../live/excerpt.js';
import { meanOf, Tally } from '../live/tally.js';
import type { ScoreRecord } from '../model/score-record.js';
import type { RunObserver, ScoredRun } from '../pipeline/pipeline.js';
import { SkippedRuns } from '../pipeline/skipped-runs.js';
import { cut, formatTable, type Column } from './table.js';

/** Every record with an excerpt of its run, for the table. */
export class TableRows implements RunObserver {
  readonly rows: { record: ScoreRecord; run: RunExcerpt }[] = [];
  runScored({ context, records }: ScoredRun): void {
    if (records.length === 0) return;
    const run = runExcerpt(context.run);
    for (const record of records) this.rows.push({ record, run });
  }
}

/** Counts per agent and scorer for the closing summary, and the skipped runs by reason. */
export class SummaryTally implements RunObserver {
  readonly tally = new Tally(1000);
  readonly skipped = new SkippedRuns();
  runs = 0;
  runScored(run: ScoredRun): void {
    this.runs++;
    this.tally.addRun(run.context.run.agentName, run.records);
    this.skipped.runScored(run);
  }
}

/** A score for people: two decimals (whole numbers as they are), with its label. */
function scoreCell(r: ScoreRecord): string {
  if (r.score === undefined) return `error ${r.error?.type ?? ''}`.trimEnd();
  const n = Number.isInteger(r.score) ? String(r.score) : r.score.toFixed(2);
  return r.label ? `${n} ${r.label}` : n;
}

const TABLE_COLUMNS: readonly Column[] = [
  { header: 'TRACE', max: 8 },
  { header: 'AGENT', max: 20, min: 8 },
  { header: 'SCORER', max: 16, min: 8 },
  { header: 'SCORE', max: 16 },
  { header: 'INPUT', weight: 1, min: 12 },
  { header: 'OUTPUT', weight: 1, min: 12 },
];

/**
 * The `--format table` table, fitted to `width` (the terminal's, else 120): one row per record, and under a
 * record that failed or has a reason (or an error message) one indented line with its whole trace id and the
 * reason, so the excerpts keep the width.
 */
export function tableOf(rows: readonly { record: ScoreRecord; run: RunExcerpt }[], width: number): string {
  const lines = formatTable(
    TABLE_COLUMNS,
    rows.map(({ record: r, run }) => [r.traceId.slice(0, 8), r.agentName, r.scorer, scoreCell(r), run.input, run.output]),
    width,
  )
    .trimEnd()
    .split('\n');
  const out = [lines[0] ?? ''];
  rows.forEach(({ record: r }, i) => {
    out.push(lines[i + 1] ?? '');
    // Under a failing or erroring record, the whole trace id (the TRACE column keeps its first 8 characters,
    // which no trace backend takes) and the reason.
    const why = r.reason ?? r.error?.message;
    if (why || r.label === 'fail') out.push(cut(`          ↳ trace ${r.traceId}${why ? `: ${why.replace(/\s+/g, ' ')}` : ''}`, width));
  });
  return out.join('\n');
}

/**
 * The closing summary (stderr): one line per agent and scorer with count, mean and fails, then the skipped
 * runs and evaluations by reason with how to turn content capture on (when any were skipped).
 */
export function summaryOf(tally: Tally, runs: number, width: number, skipped?: SkippedRuns): string {
  const rows: string[][] = [];
  let evaluations = 0;
  for (const [agent, counts] of tally.agents()) {
    for (const [scorer, c] of [...counts.scorers].sort(([a], [b]) => a.localeCompare(b))) {
      evaluations += c.evaluations;
      const mean = meanOf(c);
      rows.push([agent, scorer, String(c.evaluations), mean === undefined ? '-' : mean.toFixed(2), String(c.fails), String(c.unscored)]);
    }
  }
  const head = `summary: ${runs} run(s), ${evaluations} evaluation(s)${skipped && !skipped.empty ? `, ${skipped.evaluations} skipped` : ''}`;
  const tail = skipped ? skipped.summaryLines() : [];
  if (rows.length === 0) return [head, ...tail].join('\n');
  const table = formatTable(
    [{ header: 'AGENT', max: 32, min: 8 }, { header: 'SCORER', max: 24, min: 8 }, { header: 'COUNT', align: 'right' }, { header: 'MEAN', align: 'right' }, { header: 'FAILS', align: 'right' }, { header: 'UNSCORED', align: 'right' }],
    rows,
    width,
  );
  return [head, table.trimEnd(), ...tail].join('\n');
}
