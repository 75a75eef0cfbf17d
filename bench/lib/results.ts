/**
 * One row per measured figure; printed as a table and written to bench/RESULTS.md. A scenario that cannot
 * measure something yields a row with `value: null` and a `note` saying why, never an invented number.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { MachineInfo } from './machine.js';

export interface Row {
  scenario: string;
  metric: string;
  /** The measured figure; null when not measured (then `note` says why). */
  value: number | null;
  unit?: string;
  /** The side-by-side baseline figure, same unit. */
  baseline?: number | null;
  baselineName?: string;
  /** value / baseline, or as the scenario defines it. */
  ratio?: number | null;
  /** e.g. `ratio >= 0.3`, `value >= 20000`. */
  target?: string;
  met?: boolean | null;
  note?: string;
}

function fmt(n: number | null | undefined, unit = ''): string {
  if (n === null || n === undefined || Number.isNaN(n)) return '—';
  const abs = Math.abs(n);
  const s = abs >= 1000 ? Math.round(n).toLocaleString('en-US') : abs >= 10 ? n.toFixed(1) : abs >= 0.1 ? n.toFixed(2) : n.toPrecision(2);
  return unit ? `${s} ${unit}` : s;
}

function cells(r: Row): string[] {
  const value = r.value === null ? `not measured: ${r.note ?? 'unknown'}` : fmt(r.value, r.unit);
  const baseline = r.baseline === undefined ? '' : `${fmt(r.baseline, r.unit)}${r.baselineName ? ` (${r.baselineName})` : ''}`;
  const ratio = r.ratio === undefined || r.ratio === null ? '' : `${fmt(r.ratio)}×`;
  const met = r.met === undefined || r.met === null ? (r.target ? '—' : '') : r.met ? 'yes' : '**no**';
  return [r.scenario, r.metric, value, baseline, ratio, r.target ?? '', met];
}

const HEADER = ['scenario', 'metric', 'value', 'baseline', 'ratio', 'target', 'met?'];

/** The rows as a GitHub markdown table. */
export function markdownTable(rows: readonly Row[]): string {
  const lines = [`| ${HEADER.join(' | ')} |`, `|${HEADER.map(() => '---').join('|')}|`];
  for (const r of rows) lines.push(`| ${cells(r).map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`);
  return lines.join('\n');
}

/** The rows as an aligned plain-text table for the terminal. */
export function textTable(rows: readonly Row[]): string {
  const all = [HEADER, ...rows.map(cells)];
  const widths = HEADER.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  return all.map((r) => r.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ')).join('\n');
}

export interface ResultsDoc {
  machine: MachineInfo;
  mode: 'quick' | 'full';
  rows: readonly Row[];
  notes: readonly string[];
  durationS: number;
}

/** Writes bench/RESULTS.md (or `path`). */
export function writeResults(path: string, doc: ResultsDoc): void {
  const m = doc.machine;
  const body = [
    '# Benchmark results',
    '',
    `Written by \`npm run bench${doc.mode === 'quick' ? ' -- --quick' : ''}\` (${doc.mode} mode, ${doc.durationS.toFixed(0)} s) on ${m.date}.`,
    '',
    `- Commit: \`${m.commit}\`${m.dirty ? ' (with uncommitted changes under src/ or bench/)' : ''}`,
    `- CPU: ${m.cpuModel}, ${m.cores} cores; RAM ${m.ramGiB} GiB; load average at start ${m.loadAverage}`,
    `- Node ${m.node}`,
    '',
    'Every ratio compares figures measured side by side in the same run. "—" in *met?* means no target applies',
    'or the figure could not be measured; such rows say why.',
    '',
    markdownTable(doc.rows),
    '',
    '## Notes',
    '',
    ...doc.notes.map((n) => `- ${n}`),
    '',
  ].join('\n');
  writeFileSync(path, body + keptSection(path));
}

/** Hand-written explanations of figures below target, kept across runs (they cite profiles, not this run). */
const KEPT_HEADING = '## Below target: why';

function keptSection(path: string): string {
  let old = '';
  try {
    old = readFileSync(path, 'utf8');
  } catch {
    return '';
  }
  const at = old.indexOf(KEPT_HEADING);
  return at < 0 ? '' : `\n${old.slice(at).trimEnd()}\n`;
}
