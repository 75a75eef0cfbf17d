/**
 * Entry points of extraction: trace (or OTLP request) → agent runs, their span contexts, and an
 * explanation. Pure over the Span model; the only parsing is of OTLP/JSON requests handed in directly.
 */
import type { MappingRule, RedactionRule } from '../config/sections/extract.js';
import type { LogRecord, Span, Trace } from '../model/span.js';
import type { AgentRun, AgentRunContext } from '../model/agent-run.js';
import { createMappingSelector } from './conventions/mapping.js';
import type { ConventionSelector } from './conventions/types.js';
import { explainFrom, noRunReason, type ExplainedRun, type TraceExplanation } from './explain.js';
import { BUILTIN_SELECTORS, nonEmptyValue, readTree, type SpanInfo } from './facts.js';
import { capRun, DEFAULT_MAX_TEXT_BYTES, redactRun } from './hygiene.js';
import { append } from './lists.js';
import { buildRun, runMembers, type BuiltRun, type RunBuildOptions } from './runs.js';
import { buildSpanTree, byStart, type SpanTree } from './tree.js';
import { isRecord } from './values.js';
import { KeyFlagTable } from './key-flags.js';

/** Extraction options; the `extract` config section fits here as it is. */
export interface ExtractOptions {
  /** Cap per extracted text and tool result, in UTF-8 bytes (default 32 KiB). */
  maxTextBytes?: number;
  /** Span attribute holding ground truth (default `tracejudge.ground_truth`), looked up on the run span then its ancestors. */
  groundTruthAttribute?: string;
  /** Redaction rules applied to every run (default none). */
  redact?: readonly RedactionRule[];
  /** User mapping rules for in-house conventions, tried before the built-in conventions. */
  mapping?: readonly MappingRule[];
  /** Extra log records (e.g. from a `/v1/logs` request) to join to spans by trace and span id. */
  logs?: readonly LogRecord[];
}

/**
 * What extraction accepts: decoded spans (a trace, traces, spans, or `{spans, logs}`). Extraction does not
 * know the wire format; OTLP/JSON text or request objects are decoded by the caller (`src/api/extract.ts`).
 */
export type DecodedInput = Trace | readonly Trace[] | readonly Span[] | { spans: readonly Span[]; logs?: readonly LogRecord[] };

/** Extraction of one trace. */
export interface TraceExtraction {
  traceId: string;
  contexts: AgentRunContext[];
  /** Computed on first read. */
  readonly explanation: TraceExplanation;
}

function isSpanArray(v: readonly unknown[]): v is readonly Span[] {
  return v.every((x) => isRecord(x) && typeof x.spanId === 'string' && typeof x.traceId === 'string' && !('spans' in x));
}

/** Normalises any accepted input to spans and logs grouped by trace id, in first-seen order. */
function groups(input: DecodedInput, extraLogs: readonly LogRecord[]): Array<{ traceId: string; spans: readonly Span[]; logs: LogRecord[] }> {
  let spans: readonly Span[] = [];
  let logs: readonly LogRecord[] = [];
  if (Array.isArray(input)) {
    if (isSpanArray(input)) spans = input;
    else {
      const traces = input as readonly Trace[];
      spans = traces.flatMap((t) => t.spans);
      logs = traces.flatMap((t) => t.logs ?? []);
    }
  } else if (isRecord(input) && Array.isArray((input as { spans?: unknown }).spans)) {
    const t = input;
    spans = t.spans;
    logs = t.logs ?? [];
  }
  // One trace (what the pipeline hands in): its spans as they are, without the grouping copy.
  if (spans.length > 0 && oneTrace(spans)) {
    const traceId = (spans[0] as Span).traceId;
    const own: LogRecord[] = [];
    for (const list of [logs, extraLogs]) for (const l of list) if (l.traceId === traceId) own.push(l);
    return [{ traceId, spans, logs: own }];
  }
  const byTrace = new Map<string, { traceId: string; spans: Span[]; logs: LogRecord[] }>();
  let last: { traceId: string; spans: Span[]; logs: LogRecord[] } | undefined;
  for (const s of spans) {
    // Spans of one trace come together (a `Trace` holds only its own): the previous span's group is the usual match.
    let g = last !== undefined && last.traceId === s.traceId ? last : byTrace.get(s.traceId);
    if (!g) byTrace.set(s.traceId, (g = { traceId: s.traceId, spans: [], logs: [] }));
    g.spans.push(s);
    last = g;
  }
  for (const list of [logs, extraLogs]) for (const l of list) byTrace.get(l.traceId)?.logs.push(l);
  return [...byTrace.values()];
}

/** Whether every span of `spans` has the first one's trace id. */
function oneTrace(spans: readonly Span[]): boolean {
  const traceId = (spans[0] as Span).traceId;
  for (let i = 1; i < spans.length; i++) if ((spans[i] as Span).traceId !== traceId) return false;
  return true;
}

/**
 * A trace's extraction whose explanation is made when first read (`extract --explain`, `explainTrace`):
 * the pipeline never reads it. A class, so the getter is on the prototype: the same getter in an object
 * literal (an accessor on every object) made extraction ~60 % slower (6.4 → 10.3 µs per span, measured).
 */
class LazyExplanation implements TraceExtraction {
  #explanation: TraceExplanation | undefined;
  // What the explanation is made from, let go once it is made. Fields rather than one object of them: one
  // allocation less per trace.
  #tree: SpanTree | undefined;
  #infos: Map<string, SpanInfo> | undefined;
  #built: BuiltRun[] | undefined;
  #uncovered: string[] | undefined;

  constructor(
    readonly traceId: string,
    readonly contexts: AgentRunContext[],
    tree: SpanTree,
    infos: Map<string, SpanInfo>,
    built: BuiltRun[],
    uncovered: string[],
  ) {
    this.#tree = tree;
    this.#infos = infos;
    this.#built = built;
    this.#uncovered = uncovered;
  }

  get explanation(): TraceExplanation {
    if (this.#explanation === undefined) {
      const tree = this.#tree as SpanTree;
      const infos = this.#infos as Map<string, SpanInfo>;
      const built = this.#built as BuiltRun[];
      const uncovered = this.#uncovered as string[];
      const runs: ExplainedRun[] = built.map((b) => ({
        spanId: b.run.spanId,
        agentName: b.run.agentName,
        convention: b.run.convention,
        kind: infos.get(b.span.spanId)?.facts.role === 'agent' ? 'agent' : 'workflow',
      }));
      this.#explanation = explainFrom(tree, infos, runs, uncovered);
      this.#tree = undefined;
      this.#infos = undefined;
      this.#built = undefined;
      this.#uncovered = undefined;
    }
    return this.#explanation;
  }
}

/** The top-level ancestor of a span (bounded walk). */
function topOf(tree: SpanTree, s: Span): Span {
  let cur = s;
  for (let i = 0; i < 10_000; i++) {
    const p = tree.parent(cur);
    if (!p) break;
    cur = p;
  }
  return cur;
}

/**
 * Agent spans that only wrap other agent spans: no input and no output of their own, no LLM or tool span of
 * their own (outside the agents below), and an agent span below. The OpenAI Agents SDK's `Agent workflow` root
 * (OpenInference marks it AGENT), a LangGraph parent graph that only routes to a sub-agent (OpenLLMetry marks
 * every compiled graph `invoke_agent`). They are not agent invocations; the agents below them are.
 * `undefined` when there is none (the common case).
 */
function wrapperAgents(tree: SpanTree, infos: Map<string, SpanInfo>, roles: ReadonlyArray<string | undefined>): Set<string> | undefined {
  let out: Set<string> | undefined;
  let checked: Set<string> | undefined;
  for (let i = 0; i < tree.ordered.length; i++) {
    if (roles[i] !== 'agent') continue;
    let cur = tree.parent(tree.ordered[i] as Span);
    for (let k = 0; cur !== undefined && k < 10_000; k++) {
      const f = infos.get(cur.spanId)?.facts;
      if (f?.role === 'agent' && !(checked ??= new Set<string>()).has(cur.spanId)) {
        checked.add(cur.spanId);
        if (f.output === undefined && (nonEmptyValue(f.input)?.length ?? 0) === 0 && !runsModel(tree, infos, cur)) (out ??= new Set<string>()).add(cur.spanId);
      }
      cur = tree.parent(cur);
    }
  }
  return out;
}

/** Whether an LLM or tool span is a member of the run of `span` (its subtree, nested agents left out). */
function runsModel(tree: SpanTree, infos: Map<string, SpanInfo>, span: Span): boolean {
  return runMembers(tree, infos, span).some((m) => {
    const role = infos.get(m.spanId)?.facts.role;
    return role === 'llm' || role === 'tool';
  });
}

/** Runs of one tree, plus reasons for LLM/tool spans left without one. */
function treeRuns(tree: SpanTree, infos: Map<string, SpanInfo>, opts: RunBuildOptions): { built: BuiltRun[]; uncovered: string[] } {
  // Each span's role, looked up once for both passes.
  const roles = tree.ordered.map((s) => infos.get(s.spanId)?.facts.role);
  const wrappers = wrapperAgents(tree, infos, roles);
  // The list, set and map below are made at their first entry (see lists.ts): many traces have one run.
  let built: BuiltRun[] = [];
  let covered: Set<string> | undefined;
  for (let i = 0; i < tree.ordered.length; i++) {
    if (roles[i] !== 'agent') continue;
    const s = tree.ordered[i] as Span;
    if (wrappers?.has(s.spanId) === true) continue;
    const members = runMembers(tree, infos, s);
    covered ??= new Set<string>();
    covered.add(s.spanId);
    for (const m of members) covered.add(m.spanId);
    built = append(built, buildRun(tree, infos, s, members, 'agent', opts));
  }
  // LLM and tool spans outside every agent: one workflow run per top-level ancestor, when it has content.
  let groups: Map<string, { top: Span; spans: Span[] }> | undefined;
  for (let i = 0; i < tree.ordered.length; i++) {
    const s = tree.ordered[i] as Span;
    if ((roles[i] !== 'llm' && roles[i] !== 'tool') || covered?.has(s.spanId) === true) continue;
    const top = topOf(tree, s);
    groups ??= new Map<string, { top: Span; spans: Span[] }>();
    const g = groups.get(top.spanId);
    if (g) g.spans.push(s);
    else groups.set(top.spanId, { top, spans: [s] });
  }
  const uncovered: string[] = [];
  if (groups !== undefined) {
    for (const { top, spans } of groups.values()) {
      const all = runMembers(tree, infos, top);
      const members = covered === undefined ? all : all.filter((m) => !covered.has(m.spanId));
      const b = buildRun(tree, infos, top, members, 'workflow', opts);
      if (b.run.output.length > 0) built = append(built, b);
      else for (const s of spans) uncovered.push(noRunReason(infos.get(s.spanId) as SpanInfo));
    }
  }
  if (built.length > 1) {
    built.sort(byRunStart);
    nameParents(tree, built);
  }
  return { built, uncovered };
}

/**
 * Sets `parentSpanId` / `parentAgentName` on each nested run: the nearest ancestor span that is itself a run
 * (sub-agents, agents used as tools; every convention). A hand-off leaves the two agents side by side, so
 * failing an ancestor the parent is the run whose OpenInference `graph.node.id` the span's
 * `graph.node.parent_id` names (the OpenAI Agents SDK's hand-offs), the latest that started before it.
 * `built` is in start order.
 */
function nameParents(tree: SpanTree, built: readonly BuiltRun[]): void {
  const bySpan = new Map<string, BuiltRun>();
  for (const b of built) bySpan.set(b.span.spanId, b);
  for (let i = 0; i < built.length; i++) {
    const b = built[i] as BuiltRun;
    let parent: BuiltRun | undefined;
    let cur = tree.parent(b.span);
    for (let k = 0; cur !== undefined && parent === undefined && k < 10_000; k++) {
      parent = bySpan.get(cur.spanId);
      cur = tree.parent(cur);
    }
    const graphParent = b.span.attributes['graph.node.parent_id'];
    if (parent === undefined && typeof graphParent === 'string' && graphParent !== '') {
      for (let j = i - 1; j >= 0 && parent === undefined; j--) {
        const c = built[j] as BuiltRun;
        if (c.span.attributes['graph.node.id'] === graphParent) parent = c;
      }
    }
    if (parent !== undefined) {
      b.run.parentSpanId = parent.run.spanId;
      b.run.parentAgentName = parent.run.agentName;
    }
  }
}

function byRunStart(a: BuiltRun, b: BuiltRun): number {
  return byStart(a.span, b.span);
}

/**
 * Extraction set up once from its options: the mapping selector compiled, the conventions in priority
 * order, and the table of attribute-key families kept across traces. A service makes one (with its
 * settings' `keyFlags`) and hands it every trace; the functions below make one per call.
 */
export class Extractor {
  readonly #options: ExtractOptions;
  readonly #selectors: readonly ConventionSelector[];
  readonly #keyFlags: KeyFlagTable;
  readonly #maxTextBytes: number;
  readonly #runOptions: RunBuildOptions;

  constructor(options: ExtractOptions = {}, keyFlags: KeyFlagTable = new KeyFlagTable()) {
    this.#options = options;
    this.#selectors = options.mapping && options.mapping.length > 0 ? [createMappingSelector(options.mapping), ...BUILTIN_SELECTORS] : BUILTIN_SELECTORS;
    this.#keyFlags = keyFlags;
    this.#maxTextBytes = options.maxTextBytes ?? DEFAULT_MAX_TEXT_BYTES;
    this.#runOptions = { groundTruthAttribute: options.groundTruthAttribute ?? 'tracejudge.ground_truth' };
  }

  /** Every trace of `input`: its agent runs with their span contexts, and its explanation (see `extractTraces`). */
  traces(input: DecodedInput): TraceExtraction[] {
    const redact = this.#options.redact;
    return groups(input, this.#options.logs ?? []).map((g) => {
      const tree = buildSpanTree(g.traceId, g.spans, g.logs, this.#keyFlags);
      const infos = readTree(tree, this.#selectors);
      const { built, uncovered } = treeRuns(tree, infos, this.#runOptions);
      const contexts: AgentRunContext[] = built.map((b) => {
        let run: AgentRun = capRun(b.run, this.#maxTextBytes);
        if (redact && redact.length > 0) run = redactRun(run, redact);
        const context: AgentRunContext = { run, span: b.span, spans: b.spans, resourceAttributes: b.span.resource.attributes };
        if (infos.get(b.span.spanId)?.facts.role !== 'agent') context.noAgentSpan = true;
        return context;
      });
      return new LazyExplanation(g.traceId, contexts, tree, infos, built, uncovered);
    });
  }

  /** Every agent run of `input` with its spans and resource attributes (see `extractAgentRunContexts`). */
  runContexts(input: DecodedInput): AgentRunContext[] {
    const traces = this.traces(input);
    // One trace (what the pipeline hands in): its contexts as they are, without a flattened copy.
    if (traces.length === 1) return (traces[0] as TraceExtraction).contexts;
    return traces.flatMap((t) => t.contexts);
  }
}
