/**
 * The demo's terminal summary: where to send traces and where the live page is, then per agent the runs
 * scored and per scorer the mean score and fail rate, then each agent's last failing run with its reason.
 * Plain text fitted to the terminal width; the same text is the final summary.
 */
import { cut, formatTable, type Column } from '../cli/table.js';
import { failRateOf, meanOf, type Tally } from '../live/tally.js';
import type { SkippedRuns } from '../pipeline/skipped-runs.js';

export interface DemoView {
  /** Seconds since the demo started. */
  elapsedS: number;
  /** The `--duration`, when given. */
  durationS?: number;
  /** Runs the sample agents made. */
  sent: number;
  /** OTLP/HTTP base URL for `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  otlpHttp: string;
  /** `host:port` of OTLP/gRPC, when on. */
  otlpGrpc?: string;
  /** The live page URL, when served. */
  livePage?: string;
  /** Shown under the endpoints (e.g. how to authenticate). */
  notes?: string[];
  /** The sample agents, in display order (other agents seen follow). */
  agents: readonly string[];
  /** Scorer names, in column order. */
  scorers: readonly string[];
  tally: Tally;
  /** Runs with evaluations that did not apply (content not captured, nothing to ground against, …). */
  skipped?: SkippedRuns;
  /** `running`, or `final` for the closing summary. */
  phase: 'running' | 'stopping' | 'final';
}

function cell(c: { scored: number; sum: number; fails: number; unscored: number } | undefined): string {
  if (!c) return '-';
  const mean = meanOf(c);
  const rate = failRateOf(c);
  if (mean === undefined || rate === undefined) return c.unscored > 0 ? `${c.unscored} unscored` : '-';
  return `${mean.toFixed(2)}  ${Math.round(rate * 100)}% fail`;
}

/** The summary as text lines fitted to `width`. */
export function renderDemoSummary(view: DemoView, width: number): string {
  const lines: string[] = [];
  const time = view.durationS !== undefined ? `${Math.floor(view.elapsedS)} s of ${view.durationS} s` : `${Math.floor(view.elapsedS)} s (Ctrl-C to stop)`;
  const state = view.phase === 'final' ? 'final summary' : view.phase === 'stopping' ? 'stopping: scoring what is buffered' : time;
  const agents = view.tally.agents();
  const scoredRuns = agents.reduce((n, [, a]) => n + a.runs, 0);
  lines.push(cut(`tracejudge demo · ${state} · ${view.sent} runs sent by the sample agents, ${scoredRuns} scored`, width));
  // After the stop the receivers and the page are closed: say so rather than invite an app to send there.
  const closed = view.phase === 'final';
  const endpoint = `OTEL_EXPORTER_OTLP_ENDPOINT=${view.otlpHttp}${view.otlpGrpc ? `  (gRPC: ${view.otlpGrpc})` : ''}`;
  lines.push(cut(closed ? `Closed with the demo:    ${endpoint}; \`tracejudge serve\` keeps one open` : `Point your own app here: ${endpoint}`, width));
  lines.push(cut(`Live page:               ${view.livePage ? `${view.livePage}${closed ? ' (closed)' : ''}` : 'off (set live.enabled: true)'}`, width));
  for (const n of view.notes ?? []) lines.push(cut(n, width));
  lines.push('');

  const order = [...view.agents, ...agents.map(([n]) => n).filter((n) => !view.agents.includes(n))];
  const byName = new Map(agents);
  const columns: Column[] = [{ header: 'AGENT', min: 8 }, { header: 'RUNS', align: 'right' }, ...view.scorers.map((s) => ({ header: s.toUpperCase(), min: 8 }))];
  const rows = order.map((name) => {
    const a = byName.get(name);
    return [name, String(a?.runs ?? 0), ...view.scorers.map((s) => cell(a?.scorers.get(s)))];
  });
  lines.push(formatTable(columns, rows, width).trimEnd());
  lines.push('');

  lines.push('Last failing run per agent (scorer, score, trace, reason):');
  let any = false;
  for (const name of order) {
    const a = byName.get(name);
    if (!a) continue;
    let last: { scorer: string; traceId: string; score: number; reason?: string; timestamp: string } | undefined;
    // The newest failure, preferring one that says why (some code scorers have no reason step).
    for (const [scorer, c] of a.scorers) {
      const f = c.lastFail;
      if (!f) continue;
      const rank = (x: { reason?: string }): number => (x.reason !== undefined ? 1 : 0);
      if (!last || rank(f) > rank(last) || (rank(f) === rank(last) && f.timestamp >= last.timestamp)) last = { scorer, ...f };
    }
    if (!last) continue;
    any = true;
    const reason = last.reason ?? 'no reason (this scorer has no reason step)';
    const line = `  ${name}: ${last.scorer} ${last.score.toFixed(2)}, trace ${last.traceId}: ${reason.replace(/\s+/g, ' ')}`;
    // The final summary stays on screen: it says the whole reason; the live view keeps to one line each.
    lines.push(view.phase === 'final' ? line : cut(line, width));
  }
  if (!any) lines.push('  none yet');
  // Skipped runs have no record, so the table cannot show them: the count while running, the fix at the end.
  const skipped = view.skipped?.summaryLines() ?? [];
  if (skipped.length > 0) {
    lines.push('');
    if (view.phase === 'final') lines.push(...skipped);
    else lines.push(cut(skipped[0] ?? '', width));
  }
  return lines.join('\n');
}
