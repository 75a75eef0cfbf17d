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
import { append } from './lists.js';
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

/**
 * Merges facts in priority order: `first`, `second`, then `more` (most spans are read by one or two
 * selectors, whose facts come without a list).
 */
function mergeFacts(first: SpanFacts | undefined, second: SpanFacts | undefined, more: readonly SpanFacts[] | undefined): SpanFacts {
  const out = new Facts();
  // Most spans have one input and one system source: the lists are made only for a second one.
  let input: Deferred<Msg[]> | undefined;
  let inputs: Array<Deferred<Msg[]>> | undefined;
  let system: Deferred<string[]> | undefined;
  let systems: Array<Deferred<string[]>> | undefined;
  let missing: string[] | undefined;
  const count = first === undefined ? 0 : second === undefined ? 1 : 2 + (more?.length ?? 0);
  for (let k = 0; k < count; k++) {
    const f = (k === 0 ? first : k === 1 ? second : more?.[k - 2]) as SpanFacts;
    if (out.role === undefined && f.role !== undefined) out.role = f.role;
    if (out.agentName === undefined && f.agentName !== undefined) out.agentName = f.agentName;
    if (f.input !== undefined) {
      if (input === undefined) input = f.input;
      else if (inputs === undefined) inputs = [input, f.input];
      else inputs.push(f.input);
    }
    if (f.system !== undefined) {
      if (system === undefined) system = f.system;
      else if (systems === undefined) systems = [system, f.system];
      else systems.push(f.system);
    }
    if (out.output === undefined && f.output !== undefined && f.output.length > 0) out.output = f.output;
    if (out.documents === undefined && f.documents !== undefined) out.documents = f.documents;
    if (out.model === undefined && f.model !== undefined) out.model = f.model;
    if (out.usage === undefined && f.usage !== undefined) out.usage = f.usage;
    if (out.error === undefined && f.error !== undefined) out.error = f.error;
    if (f.tool !== undefined) out.tool = mergeTool(out.tool, f.tool);
    // Deduplicated in first-seen order; the lists are a few names long, so no set.
    const fm = f.missing;
    if (fm !== undefined) {
      for (let i = 0; i < fm.length; i++) {
        const m = fm[i] as string;
        if (missing === undefined || !missing.includes(m)) missing = append(missing, m);
      }
    }
  }
  if (!out.output && missing !== undefined) out.missing = missing;
  // Input and system stay lazy through the merge: the first non-empty one wins when a run reads it. One
  // source is kept as it is, without a wrapper: its value may be empty, which readers take as none
  // (`nonEmptyValue`).
  out.input = inputs !== undefined ? Deferred.from(firstNonEmpty<Msg>, inputs) : input;
  out.system = systems !== undefined ? Deferred.from(firstNonEmpty<string>, systems) : system;
  return out;
}

function firstNonEmpty<T>(list: ReadonlyArray<Deferred<T[]>>): T[] | undefined {
  for (const d of list) {
    const v = d.value;
    if (v !== undefined && v.length > 0) return v;
  }
  return undefined;
}

/**
 * The value of merged facts' `input` or `system`, `undefined` when it is empty: what the merge would have
 * given by wrapping a single source in `firstNonEmpty`.
 */
export function nonEmptyValue<T>(d: Deferred<T[]> | undefined): T[] | undefined {
  const v = d?.value;
  return v !== undefined && v.length > 0 ? v : undefined;
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
  let conventions: Convention[] | undefined;
  let first: SpanFacts | undefined;
  let second: SpanFacts | undefined;
  let more: SpanFacts[] | undefined;
  for (const sel of selectors) {
    try {
      if (!sel.detect(span, tree)) continue;
      const f = sel.read(span, tree);
      if (conventions === undefined || !conventions.includes(sel.name)) conventions = append(conventions, sel.name);
      if (first === undefined) first = f;
      else if (second === undefined) second = f;
      else (more ??= []).push(f);
    } catch {
      // A selector bug on odd data must not stop extraction; the span is read by the others.
    }
  }
  const facts = mergeFacts(first, second, more);
  // `error` always present (possibly undefined): one object shape for every span's info.
  return { span, conventions: conventions ?? [], facts, error: spanError(tree, span) ?? facts.error ?? facts.tool?.error };
}

/** Reads every span of the tree. */
export function readTree(tree: SpanTree, selectors: readonly ConventionSelector[]): Map<string, SpanInfo> {
  const out = new Map<string, SpanInfo>();
  for (const s of tree.ordered) out.set(s.spanId, readSpan(s, tree, selectors));
  return out;
}
