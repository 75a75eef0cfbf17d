/**
 * Why a trace did or did not yield agent runs: the conventions matched, the spans seen with what each
 * was read as, the runs found, and a reason for every LLM or tool span left without a run.
 */
import type { Convention } from '../model/agent-run.js';
import type { SpanRole } from './conventions/types.js';
import type { SpanInfo } from './facts.js';
import { recognizeFramework, type Framework } from './frameworks.js';
import { shortId, type SpanTree } from './tree.js';

export interface ExplainedSpan {
  spanId: string;
  parentSpanId: string;
  name: string;
  role?: SpanRole;
  conventions: Convention[];
  error?: string;
}

export interface ExplainedRun {
  spanId: string;
  agentName: string;
  convention: Convention;
  /** `agent`: an agent span; `workflow`: a top-level span over LLM calls with no agent span. */
  kind: 'agent' | 'workflow';
}

/** Structured explanation of one trace (what `extract --explain` prints). */
export interface TraceExplanation {
  traceId: string;
  /** Spans matched per convention (a span may match several). */
  conventions: Array<{ convention: Convention; spans: number }>;
  spans: ExplainedSpan[];
  runs: ExplainedRun[];
  /** Why no run was found for spans that looked relevant, or for the whole trace. */
  reasons: string[];
  /** Tree notes (orphans, cycles, unjoined log records). */
  notes: string[];
  /** The agent framework recognised from the instrumentation scope; absent when none is. */
  framework?: Framework;
}

const MARKERS = 'gen_ai.operation.name, ai.operationId, openinference.span.kind, traceloop.span.kind, mastra.*, or a configured mapping';

/** Builds the structured explanation. `uncovered` are the LLM/tool spans outside every run. */
export function explainFrom(tree: SpanTree, infos: ReadonlyMap<string, SpanInfo>, runs: ExplainedRun[], uncovered: string[]): TraceExplanation {
  const counts = new Map<Convention, number>();
  const spans: ExplainedSpan[] = tree.ordered.map((s) => {
    const info = infos.get(s.spanId);
    const e: ExplainedSpan = { spanId: s.spanId, parentSpanId: s.parentSpanId, name: s.name, conventions: info?.conventions ?? [] };
    if (info?.facts.role) e.role = info.facts.role;
    if (info?.error !== undefined) e.error = info.error;
    for (const c of e.conventions) counts.set(c, (counts.get(c) ?? 0) + 1);
    return e;
  });
  const reasons: string[] = [...uncovered];
  if (tree.ordered.length === 0) reasons.push('the trace has no spans');
  else if (counts.size === 0) {
    const names = tree.ordered.slice(0, 5).map((s) => `\`${s.name}\``).join(', ');
    reasons.push(`no span carries a known convention marker (${MARKERS}); spans seen: ${names}${tree.ordered.length > 5 ? ', …' : ''}`);
  } else if (runs.length === 0 && uncovered.length === 0) {
    const conv = [...counts.keys()].join(', ');
    reasons.push(`${tree.ordered.length} span(s) matched ${conv} but none is an agent, LLM or tool span`);
  }
  const e: TraceExplanation = {
    traceId: tree.traceId,
    conventions: [...counts.entries()].map(([convention, n]) => ({ convention, spans: n })),
    spans,
    runs,
    reasons,
    notes: [...tree.notes],
  };
  const framework = recognizeFramework(tree.ordered);
  if (framework !== undefined) e.framework = framework;
  return e;
}

/** The reason an LLM span outside every agent gave no run. */
export function noRunReason(info: SpanInfo): string {
  const s = info.span;
  const missing = info.facts.missing && info.facts.missing.length > 0 ? info.facts.missing.map((m) => `\`${m}\``).join(' or ') : 'output';
  const what = info.facts.role === 'tool' ? 'tool span' : 'span';
  return `${what} \`${shortId(s.spanId)}\` \`${s.name}\` has no agent parent and no ${missing}`;
}

/** One line per fact: a summary, each run, each reason, each note. */
export function explainText(e: TraceExplanation): string {
  const lines: string[] = [];
  const conv = e.conventions.length > 0 ? e.conventions.map((c) => `${c.convention}(${c.spans})`).join(' ') : 'none';
  const framework = e.framework !== undefined ? `, framework ${e.framework.name}` : '';
  lines.push(`trace ${e.traceId}: ${e.spans.length} span(s), conventions ${conv}${framework}, ${e.runs.length} run(s)`);
  for (const r of e.runs) lines.push(`trace ${e.traceId}: run ${r.kind} span \`${shortId(r.spanId)}\` \`${r.agentName}\` (${r.convention})`);
  for (const r of e.reasons) lines.push(`trace ${e.traceId}: no run: ${r}`);
  for (const n of e.notes) lines.push(`trace ${e.traceId}: note: ${n}`);
  return lines.join('\n');
}
