/**
 * Convention-agnostic run building over the span facts: one run per agent span (nested agents are
 * separate runs and their spans are not the parent's), or per top-level LLM workflow where no agent span
 * covers the LLM calls.
 */
import type { Span } from '../model/span.js';
import type { AgentRun, Convention, MessagePart, RunMessage, SystemMessage, ToolInvocation } from '../model/agent-run.js';
import { assistantMessage, messageFromParts, systemMessage, userMessage } from '../model/messages.js';
import type { Msg, NormToolCall, SpanFacts } from './conventions/types.js';
import type { SpanInfo } from './facts.js';
import { toolResultsOf } from './helpers.js';
import { isoSeconds, YEAR_10000_SECS } from './iso-date.js';
import { readableResult } from './messages.js';
import { byStart, descendants, shortId, type SpanTree, type TreeMemo } from './tree.js';
import { asString, attr, parseJsonish } from './values.js';

export interface RunBuildOptions {
  groundTruthAttribute: string;
}

/** A run and the spans it was read from (before hygiene). */
export interface BuiltRun {
  run: AgentRun;
  span: Span;
  /** The run span and its members in start order. */
  spans: Span[];
}

/**
 * RFC 3339 with nanosecond precision, from Unix nanoseconds (`1970-01-01T00:00:00.000000000Z` for 0).
 * `memo` (the tree's) keeps the date part of the last second: a run's start and end, and consecutive runs,
 * mostly fall in the same second.
 */
export function rfc3339(ns: bigint, memo: TreeMemo = {}): string {
  // One decimal conversion instead of two bigint divisions.
  const digits = (ns < 0n ? 0n : ns).toString();
  const split = digits.length - 9;
  const secs = split > 0 ? Number(digits.slice(0, split)) : 0;
  if (secs >= MAX_DATE_SECS) return rfc3339Slow(ns);
  const frac = split > 0 ? digits.slice(split) : digits.padStart(9, '0');
  if (secs !== memo.secs || memo.datePart === undefined) {
    memo.secs = secs;
    // Years 1970–9999 by arithmetic; later ones (six-digit years) as `Date` writes them.
    memo.datePart = secs < YEAR_10000_SECS ? isoSeconds(secs) : new Date(secs * 1000).toISOString().slice(0, 19);
  }
  return `${memo.datePart}.${frac}Z`;
}

/** Seconds at which `Date` runs out (±8.64e15 ms); beyond it the exact original arithmetic decides. */
const MAX_DATE_SECS = 8.64e12;

function rfc3339Slow(ns: bigint): string {
  const n = ns < 0n ? 0n : ns;
  const ms = n / 1_000_000n;
  const d = new Date(Number(ms));
  if (Number.isNaN(d.getTime())) return '1970-01-01T00:00:00.000000000Z';
  const frac = (n % 1_000_000_000n).toString().padStart(9, '0');
  return `${d.toISOString().slice(0, 19)}.${frac}Z`;
}

/** True when `test` holds for a strict ancestor of `s` (bounded walk, nearest first). */
function someAncestor(tree: SpanTree, s: Span, test: (ancestor: Span) => boolean): boolean {
  let cur = tree.parent(s);
  for (let i = 0; cur && i < 10_000; i++) {
    if (test(cur)) return true;
    cur = tree.parent(cur);
  }
  return false;
}

function factsOf(infos: ReadonlyMap<string, SpanInfo>, s: Span): SpanFacts {
  return infos.get(s.spanId)?.facts ?? {};
}

function isAssistantLike(m: Msg): boolean {
  return m.role !== 'user' && m.role !== 'system' && m.role !== 'tool';
}

function lastText(msgs: Msg[] | undefined): string | undefined {
  if (!msgs) return undefined;
  for (let i = msgs.length - 1; i >= 0; i--) {
    const m = msgs[i] as Msg;
    if (isAssistantLike(m) && m.text) return m.text;
  }
  return undefined;
}

const TOOL_FINISH: ReadonlySet<string> = new Set(['tool_call', 'tool_calls', 'tool-calls', 'function_call']);

/** Final answer: the run span's output, else the last LLM answer that did not stop to call tools. */
function finalText(runFacts: SpanFacts, llmFacts: readonly SpanFacts[]): string | undefined {
  const own = lastText(runFacts.output);
  if (own !== undefined) return own;
  let fallback: string | undefined;
  for (let i = llmFacts.length - 1; i >= 0; i--) {
    const out = (llmFacts[i] as SpanFacts).output;
    const t = lastText(out);
    if (t === undefined) continue;
    const finish = out?.[out.length - 1]?.finishReason;
    if (!finish || !TOOL_FINISH.has(finish)) return t;
    fallback ??= t;
  }
  return fallback;
}

interface InputParts {
  user: RunMessage[];
  system: SystemMessage[];
  remembered: RunMessage[];
}

/** Where the messages of a run get their ids and times: `<spanId>-in-<position in the recorded list>`, at the span start. */
interface InputIds {
  spanId: string;
  createdAt: string;
}

/** The user turn that started the run (the last user message), the system prompt apart, and the history before it. */
function runInput(runFacts: SpanFacts, firstLlm: SpanFacts | undefined, ids: InputIds): InputParts {
  const hasUser = (msgs: Msg[] | undefined): msgs is Msg[] => (msgs ?? []).some((m) => m.role === 'user' && m.text);
  const runIn = runFacts.input?.value;
  // The first LLM call's input is parsed only when the run span lacks the user turn (or the system prompt).
  const llmIn = (): Msg[] | undefined => firstLlm?.input?.value;
  let msgs: Msg[];
  if (hasUser(runIn)) msgs = runIn;
  else {
    const firstIn = llmIn();
    msgs = hasUser(firstIn) ? firstIn : (runIn ?? firstIn ?? []);
  }
  let idx = -1;
  for (let i = msgs.length - 1; i >= 0; i--) {
    const m = msgs[i] as Msg;
    if (m.role === 'user' && m.text) {
      idx = i;
      break;
    }
  }
  const user = idx >= 0 ? [userMessage((msgs[idx] as Msg).text, { id: `${ids.spanId}-in-${idx}`, createdAt: ids.createdAt })] : [];
  const remembered = idx > 0 ? rememberedMessages(msgs.slice(0, idx), ids) : [];
  const sysTexts =
    runFacts.system?.value ??
    nonEmptyList((runIn ?? []).filter((m) => m.role === 'system').map((m) => m.text)) ??
    firstLlm?.system?.value ??
    nonEmptyList((llmIn() ?? []).filter((m) => m.role === 'system').map((m) => m.text)) ??
    [];
  return { user, system: sysTexts.filter((t) => t.length > 0).map(systemMessage), remembered };
}

/** A remembered message being assembled: its parts in order, and its calls still waiting for a result. */
interface Draft {
  role: 'user' | 'assistant';
  position: number;
  parts: MessagePart[];
}

/**
 * The conversation before the user turn, as Mastra keeps it in memory: user and assistant messages (system
 * messages are `systemMessages`). Mastra has no tool role: a tool message's results fold into the invocation
 * of the same call id in an earlier assistant message (its state becomes `result` or `output-error`), and a
 * result whose call is not there becomes an invocation of its own, in the preceding assistant message or a
 * new one. Messages with neither text nor tool invocations are left out.
 */
function rememberedMessages(msgs: readonly Msg[], ids: InputIds): RunMessage[] {
  const drafts: Draft[] = [];
  const open = new Map<string, ToolInvocation>();
  const assistantAt = (position: number): Draft => {
    const last = drafts[drafts.length - 1];
    if (last?.role === 'assistant') return last;
    const d: Draft = { role: 'assistant', position, parts: [] };
    drafts.push(d);
    return d;
  };
  msgs.forEach((m, position) => {
    if (m.role === 'system') return;
    const isUser = m.role === 'user';
    const isTool = m.role === 'tool' || (isUser && !m.text && (m.toolResults?.length ?? 0) > 0);
    if (!isTool) {
      const d: Draft = { role: isUser ? 'user' : 'assistant', position, parts: [] };
      if (m.text) d.parts.push({ type: 'text', text: m.text });
      (m.toolCalls ?? []).forEach((c, ci) => {
        const inv = invocation(c.id ?? `${ids.spanId}-in-${position}-${ci}`, c.name, c.args, { hasResult: false });
        if (c.id !== undefined) open.set(c.id, inv);
        d.parts.push({ type: 'tool-invocation', toolInvocation: inv });
      });
      drafts.push(d);
    }
    (m.toolResults ?? []).forEach((r, ri) => {
      const outcome = messageOutcome({ result: r.result, isError: r.isError === true });
      const pending = r.id !== undefined ? open.get(r.id) : undefined;
      if (pending) {
        Object.assign(pending, invocation(pending.toolCallId, pending.toolName, pending.args, outcome));
        open.delete(pending.toolCallId);
        return;
      }
      const inv = invocation(r.id ?? `${ids.spanId}-in-${position}-${ri}`, r.name ?? 'unknown', {}, outcome);
      assistantAt(position).parts.push({ type: 'tool-invocation', toolInvocation: inv });
    });
  });
  return drafts
    .filter((d) => d.parts.length > 0)
    .map((d) => messageFromParts(d.role, d.parts, { id: `${ids.spanId}-in-${d.position}`, createdAt: ids.createdAt }));
}

function nonEmptyList(list: string[]): string[] | undefined {
  const l = list.filter((t) => t.length > 0);
  return l.length > 0 ? l : undefined;
}

function invocation(callId: string, name: string, args: unknown, outcome: { error?: string; result?: unknown; hasResult: boolean }): ToolInvocation {
  const inv: ToolInvocation = { toolCallId: callId, toolName: name, args: args ?? {}, state: 'call' };
  if (outcome.error !== undefined) {
    inv.state = 'output-error';
    inv.errorText = outcome.error;
  } else if (outcome.hasResult) {
    inv.state = 'result';
    inv.result = outcome.result;
    const readable = readableResult(outcome.result);
    if (readable !== undefined) inv.resultText = readable;
  }
  return inv;
}

/** Tool results seen in messages (tool turns, tool-result parts), by call id. */
function messageResults(llmFacts: readonly SpanFacts[]): Map<string, { result: unknown; isError: boolean }> {
  const out = new Map<string, { result: unknown; isError: boolean }>();
  for (const f of llmFacts) {
    for (const m of [...(f.input?.value ?? []), ...(f.output ?? [])]) {
      for (const r of m.toolResults ?? []) if (r.id && !out.has(r.id)) out.set(r.id, { result: r.result, isError: r.isError === true });
    }
  }
  return out;
}

type Outcome = { error?: string; result?: unknown; hasResult: boolean };

const ERROR_TEXT = /^\s*(?:error|exception)\b\s*[:-]\s*/i;

/**
 * Outcome of a tool result seen only in a message. A result flagged as an error, or a string starting
 * with `Error:` (what agent loops send back to the model when a tool throws and no tool span recorded
 * it), is an error, not a result.
 */
function messageOutcome(r: { result: unknown; isError: boolean }): Outcome {
  const text = readableResult(r.result) ?? (typeof r.result === 'string' ? r.result : undefined);
  if (r.isError) return { hasResult: false, error: text ?? asString(r.result) ?? 'tool error' };
  if (text !== undefined && typeof r.result === 'string' && ERROR_TEXT.test(text)) return { hasResult: false, error: text.replace(ERROR_TEXT, '') || text };
  return { hasResult: true, result: r.result };
}

/**
 * Tool invocations of a run, in time order: one per tool span, plus one per tool call that an LLM asked
 * for but no tool span recorded (conventions that do not trace tools, or tool spans lost on failure),
 * with its result or error taken from the later messages.
 */
function toolInvocations(tools: Span[], llms: Span[], llmFacts: readonly SpanFacts[], infos: ReadonlyMap<string, SpanInfo>): ToolInvocation[] {
  // Tool results recovered from the conversation, read (every LLM input parsed) only when a tool span
  // lacks its result or a call was never traced as a tool span.
  let recovered: Map<string, { result: unknown; isError: boolean }> | undefined;
  const fromMessages = (): Map<string, { result: unknown; isError: boolean }> => (recovered ??= messageResults(llmFacts));
  const asked: Array<{ call: NormToolCall; id: string; at: bigint }> = [];
  const seenAsk = new Set<string>();
  llms.forEach((l, li) => {
    ((llmFacts[li] as SpanFacts).output ?? []).forEach((m) =>
      (m.toolCalls ?? []).forEach((c, ci) => {
        const id = c.id ?? `${l.spanId}-${li}-${ci}`;
        if (seenAsk.has(id)) return;
        seenAsk.add(id);
        asked.push({ call: c, id, at: l.endTimeUnixNano });
      }),
    );
  });
  const timed: Array<{ at: bigint; inv: ToolInvocation }> = [];
  const used = new Set(tools.map((t) => infos.get(t.spanId)?.facts.tool?.callId).filter((id): id is string => id !== undefined));
  for (const t of tools) {
    const info = infos.get(t.spanId);
    const f = info?.facts.tool ?? {};
    const name = f.name ?? t.name;
    let callId = f.callId;
    // Tool spans without a call id (OpenInference TOOL, Traceloop tool spans) take the id of the first
    // unused call of the same name that an LLM asked for, so ids match the conversation.
    if (callId === undefined) {
      const match = asked.find((a) => a.call.name === name && a.call.id !== undefined && !used.has(a.id));
      if (match) {
        callId = match.id;
        used.add(match.id);
      }
    }
    let outcome: Outcome = { hasResult: f.hasResult === true, result: f.result };
    if (info?.error !== undefined) outcome = { error: info.error, hasResult: false };
    else if (!outcome.hasResult && callId !== undefined && fromMessages().has(callId)) outcome = messageOutcome(fromMessages().get(callId) as { result: unknown; isError: boolean });
    timed.push({ at: t.startTimeUnixNano, inv: invocation(callId ?? t.spanId, name, f.args, outcome) });
  }
  for (const a of asked) {
    if (used.has(a.id)) continue;
    const r = a.call.id !== undefined ? fromMessages().get(a.call.id) : undefined;
    timed.push({ at: a.at, inv: invocation(a.id, a.call.name, a.call.args, r ? messageOutcome(r) : { hasResult: false }) });
  }
  // Stable sort keeps span order for equal times.
  return timed.sort((x, y) => (x.at < y.at ? -1 : x.at > y.at ? 1 : 0)).map((x) => x.inv);
}

function groundTruth(tree: SpanTree, span: Span, key: string): unknown {
  let cur: Span | undefined = span;
  for (let i = 0; cur && i < 10_000; i++) {
    const v = attr(cur.attributes, key);
    if (v !== undefined) return parseJsonish(v, tree.json);
    cur = tree.parent(cur);
  }
  return undefined;
}

/** Builds one run rooted at `span` over `members` (its subtree minus nested agent subtrees). */
export function buildRun(
  tree: SpanTree,
  infos: ReadonlyMap<string, SpanInfo>,
  span: Span,
  members: Span[],
  kind: 'agent' | 'workflow',
  options: RunBuildOptions,
): BuiltRun {
  const info = infos.get(span.spanId);
  const runFacts = info?.facts ?? {};
  const sorted = [...members].sort(byStart);
  // Each member's facts are looked up once, here; the LLM spans' facts travel beside them.
  const sortedFacts = sorted.map((s) => factsOf(infos, s));
  const llms: Span[] = [];
  const llmFacts: SpanFacts[] = [];
  if (runFacts.role === 'llm') {
    llms.push(span);
    llmFacts.push(runFacts);
  }
  // Nested tool spans (a tool calling a tool) are read through the outermost; an LLM span with an LLM span
  // below it (a wrapper around the provider call) does not count its usage twice. One walk up from each span
  // instead of an ancestor test per pair.
  const toolIds = new Set<string>();
  for (let i = 0; i < sorted.length; i++) {
    const s = sorted[i] as Span;
    const f = sortedFacts[i] as SpanFacts;
    if (f.role === 'llm') {
      llms.push(s);
      llmFacts.push(f);
    } else if (f.role === 'tool') toolIds.add(s.spanId);
  }
  const tools = toolIds.size === 0 ? [] : sorted.filter((s) => toolIds.has(s.spanId) && !someAncestor(tree, s, (a) => a.spanId !== s.spanId && toolIds.has(a.spanId)));
  const aboveLlm = new Set<string>();
  if (llms.length > 1) {
    for (const o of llms) {
      someAncestor(tree, o, (a) => {
        if (a !== o) aboveLlm.add(a.spanId);
        return false;
      });
    }
  }
  const startTime = rfc3339(span.startTimeUnixNano, tree.memo);
  const endTime = rfc3339(span.endTimeUnixNano, tree.memo);
  const input = runInput(runFacts, llmFacts[0], { spanId: span.spanId, createdAt: startTime });
  const text = finalText(runFacts, llmFacts);
  const invocations = toolInvocations(tools, llms, llmFacts, infos);
  const output: RunMessage[] = [];
  if (text !== undefined || invocations.length > 0) output.push(assistantMessage(text ?? '', invocations, { id: `${span.spanId}-out-0`, createdAt: endTime }));
  const spans = [span, ...sorted];
  const context: string[] = [];
  for (const d of runFacts.documents ?? []) context.push(d);
  for (const f of sortedFacts) for (const d of f.documents ?? []) context.push(d);
  let model: string | undefined;
  for (const f of llmFacts) model ??= f.model;
  model ??= runFacts.model;
  let usage: AgentRun['usage'];
  for (let i = 0; i < llms.length; i++) {
    if (aboveLlm.has((llms[i] as Span).spanId)) continue;
    const u = (llmFacts[i] as SpanFacts).usage;
    if (!u) continue;
    usage ??= { inputTokens: 0, outputTokens: 0 };
    usage.inputTokens += u.inputTokens ?? 0;
    usage.outputTokens += u.outputTokens ?? 0;
  }
  if (!usage && runFacts.usage) usage = { inputTokens: runFacts.usage.inputTokens ?? 0, outputTokens: runFacts.usage.outputTokens ?? 0 };
  const convention: Convention = info?.conventions[0] ?? (llms[0] ? infos.get(llms[0].spanId)?.conventions[0] : undefined) ?? 'genai';
  const run: AgentRun = {
    traceId: span.traceId,
    spanId: span.spanId,
    agentName: runFacts.agentName ?? span.name,
    convention,
    input: { inputMessages: input.user, rememberedMessages: input.remembered, systemMessages: input.system, taggedSystemMessages: {} },
    output,
    // The one output message's merged invocations are `invocations` (`assistantMessage` writes each once, as a
    // part and in the legacy list, in the same order): their results without merging them back out.
    toolResults: toolResultsOf(invocations),
    context,
    status: info?.error !== undefined ? 'error' : 'ok',
    startTime,
    endTime,
  };
  if (model !== undefined) run.model = model;
  if (usage) run.usage = usage;
  const service = asString(span.resource.attributes['service.name']);
  if (service !== undefined) run.serviceName = service;
  const gt = groundTruth(tree, span, options.groundTruthAttribute);
  if (gt !== undefined) run.groundTruth = gt;
  const notes: string[] = [];
  if (kind === 'workflow') notes.push(`no agent span: run built from the top-level span ${shortId(span.spanId)} \`${span.name}\``);
  if (tree.orphans.length > 0) {
    const orphanIds = new Set(tree.orphans.map((o) => o.spanId));
    for (const s of spans) if (orphanIds.has(s.spanId)) notes.push(`span ${shortId(s.spanId)} \`${s.name}\` arrived without its parent`);
  }
  if (info?.error !== undefined) notes.push(`run span failed: ${info.error}`);
  if (notes.length > 0) run.notes = notes;
  return { run, span, spans };
}

/** Members of a run: the subtree under `span`, pruned at nested agent spans. */
export function runMembers(tree: SpanTree, infos: ReadonlyMap<string, SpanInfo>, span: Span): Span[] {
  return descendants(tree, span, (s) => factsOf(infos, s).role === 'agent');
}
