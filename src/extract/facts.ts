/**
 * Reads every span of a tree once through the convention selectors and merges what they say:
 * for each field the first selector (in priority order) that states it wins, so the richest source of a
 * span (its own convention) beats the `gen_ai.*` copies converters add beside it.
 */
import type { Span } from '../model/span.js';
import type { Convention } from '../model/agent-run.js';
import { aisdk } from './conventions/aisdk.js';
import { genai } from './conventions/genai.js';
import { Deferred } from './conventions/lazy.js';
import { mastra } from './conventions/mastra.js';
import { openinference } from './conventions/openinference.js';
import { openllmetry } from './conventions/openllmetry.js';
import { Facts, type ConventionSelector, type Msg, type SpanFacts, type ToolFacts } from './conventions/types.js';
import type { SpanEventLike, SpanTree } from './tree.js';
import { asString } from './values.js';

/** Built-in selectors in priority order (the mapping selector, when configured, goes first). */
export const BUILTIN_SELECTORS: readonly ConventionSelector[] = [openinference, openllmetry, aisdk, mastra, genai];

export interface SpanInfo {
  span: Span;
  /** Every convention whose markers the span carries, in priority order. */
  conventions: Convention[];
  facts: SpanFacts;
  /** Failure text when the span failed (status ERROR, `exception` event, or a convention's error key). */
  error?: string;
}

/** Each field from `a` when it states it (not `undefined`), else from `b`; a result from whichever has one. */
function mergeTool(a: ToolFacts | undefined, b: ToolFacts | undefined): ToolFacts | undefined {
  if (!a) return b;
  if (!b) return a;
  // Field by field rather than `{ ...b, ...definedOf(a) }`: the same values, without the entries walk.
  const out: ToolFacts = {
    name: a.name !== undefined ? a.name : b.name,
    callId: a.callId !== undefined ? a.callId : b.callId,
    args: a.args !== undefined ? a.args : b.args,
    result: a.result !== undefined ? a.result : b.result,
    hasResult: a.hasResult !== undefined ? a.hasResult : b.hasResult,
    error: a.error !== undefined ? a.error : b.error,
  };
  if (a.hasResult !== true && b.hasResult === true) {
    out.hasResult = true;
    out.result = b.result;
  }
  return out;
}

/** Merges facts in priority order. */
function mergeFacts(list: readonly SpanFacts[]): SpanFacts {
  const out = new Facts();
  let missing: Set<string> | undefined;
  let inputs: Array<Deferred<Msg[]>> | undefined;
  let systems: Array<Deferred<string[]>> | undefined;
  for (const f of list) {
    if (out.role === undefined && f.role !== undefined) out.role = f.role;
    if (out.agentName === undefined && f.agentName !== undefined) out.agentName = f.agentName;
    if (f.input !== undefined) (inputs ??= []).push(f.input);
    if (f.system !== undefined) (systems ??= []).push(f.system);
    if (out.output === undefined && f.output !== undefined && f.output.length > 0) out.output = f.output;
    if (out.documents === undefined && f.documents !== undefined) out.documents = f.documents;
    if (out.model === undefined && f.model !== undefined) out.model = f.model;
    if (out.usage === undefined && f.usage !== undefined) out.usage = f.usage;
    if (out.error === undefined && f.error !== undefined) out.error = f.error;
    if (f.tool !== undefined) out.tool = mergeTool(out.tool, f.tool);
    if (f.missing !== undefined && f.missing.length > 0) {
      missing ??= new Set<string>();
      for (const m of f.missing) missing.add(m);
    }
  }
  if (!out.output && missing !== undefined) out.missing = [...missing];
  // Input and system stay lazy through the merge: the first non-empty one wins when a run reads it.
  if (inputs !== undefined) out.input = Deferred.from(firstNonEmpty<Msg>, inputs);
  if (systems !== undefined) out.system = Deferred.from(firstNonEmpty<string>, systems);
  return out;
}

function firstNonEmpty<T>(list: ReadonlyArray<Deferred<T[]>>): T[] | undefined {
  for (const d of list) {
    const v = d.value;
    if (v !== undefined && v.length > 0) return v;
  }
  return undefined;
}

/** Failure text of a span from its status and `exception` events; `undefined` when it did not fail. */
function spanError(tree: SpanTree, span: Span): string | undefined {
  let excText: string | undefined;
  const events = tree.eventsOf(span.spanId);
  for (let i = 0; i < events.length; i++) {
    const e = events[i] as SpanEventLike;
    if (e.name !== 'exception') continue;
    excText = asString(e.attributes['exception.message']) ?? asString(e.attributes['exception.type']);
    break;
  }
  if (span.status.code === 2) return span.status.message || excText || 'error';
  return excText;
}

/** Reads one span through every selector that detects it. Never throws (a failing selector is skipped). */
export function readSpan(span: Span, tree: SpanTree, selectors: readonly ConventionSelector[]): SpanInfo {
  const conventions: Convention[] = [];
  const all: SpanFacts[] = [];
  for (const sel of selectors) {
    try {
      if (!sel.detect(span, tree)) continue;
      const f = sel.read(span, tree);
      if (!conventions.includes(sel.name)) conventions.push(sel.name);
      all.push(f);
    } catch {
      // A selector bug on odd data must not stop extraction; the span is read by the others.
    }
  }
  const facts = mergeFacts(all);
  // `error` always present (possibly undefined): one object shape for every span's info.
  return { span, conventions, facts, error: spanError(tree, span) ?? facts.error ?? facts.tool?.error };
}

/** Reads every span of the tree. */
export function readTree(tree: SpanTree, selectors: readonly ConventionSelector[]): Map<string, SpanInfo> {
  const out = new Map<string, SpanInfo>();
  for (const s of tree.ordered) out.set(s.spanId, readSpan(s, tree, selectors));
  return out;
}
