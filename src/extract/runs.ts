/**
 * Convention-agnostic run building over the span facts: one run per agent span (nested agents are
 * separate runs and their spans are not the parent's), or per top-level LLM workflow where no agent span
 * covers the LLM calls.
 */
import type { Span } from '../model/span.js';
import type { AgentRun, Convention, MessagePart, RunInput, RunMessage, SystemMessage, ToolInvocation } from '../model/agent-run.js';
import { assistantMessage, messageFromParts, systemMessage, userMessage } from '../model/messages.js';
import { systemTextsOf } from './conventions/lazy.js';
import type { Msg, NormToolCall, SpanFacts } from './conventions/types.js';
import { nonEmptyValue, type SpanInfo } from './facts.js';
import { toolResultsOf } from './helpers.js';
import { isoSeconds, YEAR_10000_SECS } from './iso-date.js';
import { readableResult } from './messages.js';
import { descendants, shortId, sortByStart, type SpanTree, type TreeMemo } from './tree.js';
import { append } from './lists.js';
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

/** Where the messages of a run get their ids and times: `<spanId>-in-<position in the recorded list>`, at the span start. */
interface InputIds {
  spanId: string;
  createdAt: string;
}

function hasUser(msgs: Msg[] | undefined): msgs is Msg[] {
  if (msgs === undefined) return false;
  for (const m of msgs) if (m.role === 'user' && m.text) return true;
  return false;
}

/**
 * The run input: the user turn that started the run (the last user message), the system prompt apart, and
 * the history before it. Messages get their ids from `spanId` and their time `createdAt` (see `InputIds`).
 */
function runInput(runFacts: SpanFacts, firstLlm: SpanFacts | undefined, spanId: string, createdAt: string): RunInput {
  const runIn = nonEmptyValue(runFacts.input);
  // The first LLM call's input is parsed only when the run span lacks the user turn (or the system prompt).
  let msgs: Msg[];
  if (hasUser(runIn)) msgs = runIn;
  else {
    const firstIn = nonEmptyValue(firstLlm?.input);
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
  const user = idx >= 0 ? [userMessage((msgs[idx] as Msg).text, { id: `${spanId}-in-${idx}`, createdAt })] : [];
  const remembered = idx > 0 ? rememberedMessages(msgs.slice(0, idx), { spanId, createdAt }) : [];
  const sysTexts = nonEmptyValue(runFacts.system) ?? systemTextsOf(runIn) ?? nonEmptyValue(firstLlm?.system) ?? systemTextsOf(nonEmptyValue(firstLlm?.input)) ?? [];
  const system: SystemMessage[] = [];
  for (const t of sysTexts) if (t.length > 0) system.push(systemMessage(t));
  return { inputMessages: user, rememberedMessages: remembered, systemMessages: system, taggedSystemMessages: {} };
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
  const add = (msgs: readonly Msg[] | undefined): void => {
    if (msgs === undefined) return;
    for (const m of msgs) for (const r of m.toolResults ?? []) if (r.id && !out.has(r.id)) out.set(r.id, { result: r.result, isError: r.isError === true });
  };
  for (const f of llmFacts) {
    add(nonEmptyValue(f.input));
    add(f.output);
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
  // The calls LLMs asked for, once per id; the list and the set are made for the first call.
  let asked: Array<{ call: NormToolCall; id: string; at: bigint }> | undefined;
  let seenAsk: Set<string> | undefined;
  for (let li = 0; li < llms.length; li++) {
    const l = llms[li] as Span;
    const out = (llmFacts[li] as SpanFacts).output;
    if (out === undefined) continue;
    for (const m of out) {
      const calls = m.toolCalls;
      if (calls === undefined) continue;
      for (let ci = 0; ci < calls.length; ci++) {
        const c = calls[ci] as NormToolCall;
        const id = c.id ?? `${l.spanId}-${li}-${ci}`;
        if (seenAsk === undefined) seenAsk = new Set<string>();
        else if (seenAsk.has(id)) continue;
        seenAsk.add(id);
        const a = { call: c, id, at: l.endTimeUnixNano };
        if (asked === undefined) asked = [a];
        else asked.push(a);
      }
    }
  }
  if (tools.length === 0 && asked === undefined) return [];
  let invocations: ToolInvocation[] = [];
  let used: Set<string> | undefined;
  if (asked !== undefined) {
    used = new Set<string>();
    for (const t of tools) {
      const id = infos.get(t.spanId)?.facts.tool?.callId;
      if (id !== undefined) used.add(id);
    }
  }
  for (const t of tools) {
    const info = infos.get(t.spanId);
    const f = info?.facts.tool ?? {};
    const name = f.name ?? t.name;
    let callId = f.callId;
    // Tool spans without a call id (OpenInference TOOL, Traceloop tool spans) take the id of the first
    // unused call of the same name that an LLM asked for, so ids match the conversation.
    if (callId === undefined && asked !== undefined && used !== undefined) {
      for (const a of asked) {
        if (a.call.name === name && a.call.id !== undefined && !used.has(a.id)) {
          callId = a.id;
          used.add(a.id);
          break;
        }
      }
    }
    let outcome: Outcome;
    if (info?.error !== undefined) outcome = { error: info.error, hasResult: false };
    else if (f.hasResult !== true && callId !== undefined && (recovered ??= messageResults(llmFacts)).has(callId)) {
      outcome = messageOutcome(recovered.get(callId) as { result: unknown; isError: boolean });
    } else outcome = { hasResult: f.hasResult === true, result: f.result };
    invocations = append(invocations, invocation(callId ?? t.spanId, name, f.args, outcome));
  }
  const untraced: Array<{ at: bigint; inv: ToolInvocation }> = [];
  if (asked !== undefined && used !== undefined) {
    for (const a of asked) {
      if (used.has(a.id)) continue;
      const r = a.call.id !== undefined ? (recovered ??= messageResults(llmFacts)).get(a.call.id) : undefined;
      untraced.push({ at: a.at, inv: invocation(a.id, a.call.name, a.call.args, r ? messageOutcome(r) : { hasResult: false }) });
    }
  }
  // Tool spans come in start order: with no untraced call among them, the invocations are in time order.
  if (untraced.length === 0) return invocations;
  const timed = tools.map((t, i) => ({ at: t.startTimeUnixNano, inv: invocations[i] as ToolInvocation }));
  for (const u of untraced) timed.push(u);
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

/** The tool spans among a run's `spans` (the run span first) that have no tool span (`toolIds`) above them. */
function outermostTools(tree: SpanTree, spans: readonly Span[], toolIds: ReadonlySet<string>): Span[] {
  let out: Span[] = [];
  // From 1: the run span is not a member.
  for (let i = 1; i < spans.length; i++) {
    const s = spans[i] as Span;
    if (toolIds.has(s.spanId) && !someAncestor(tree, s, (a) => a.spanId !== s.spanId && toolIds.has(a.spanId))) out = append(out, s);
  }
  return out;
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
  // The run span, then its members in start order (sorted in place past the first slot; `concat` makes the
  // list at its size).
  const spans = sortByStart([span].concat(members), 1);
  let llms: Span[] = [];
  let llmFacts: SpanFacts[] = [];
  if (runFacts.role === 'llm') {
    llms = [span];
    llmFacts = [runFacts];
  }
  // Each member's facts are looked up once, here: roles, and documents in span order after the run span's.
  const context: string[] = [];
  if (runFacts.documents !== undefined) for (const d of runFacts.documents) context.push(d);
  // Nested tool spans (a tool calling a tool) are read through the outermost; an LLM span with an LLM span
  // below it (a wrapper around the provider call) does not count its usage twice. One walk up from each span
  // instead of an ancestor test per pair. Both sets are made only when needed (most runs need neither).
  let toolIds: Set<string> | undefined;
  for (let i = 1; i < spans.length; i++) {
    const s = spans[i] as Span;
    const f = factsOf(infos, s);
    if (f.role === 'llm') {
      llms = append(llms, s);
      llmFacts = append(llmFacts, f);
    } else if (f.role === 'tool') (toolIds ??= new Set<string>()).add(s.spanId);
    if (f.documents !== undefined) for (const d of f.documents) context.push(d);
  }
  const tools = toolIds === undefined ? [] : outermostTools(tree, spans, toolIds);
  let aboveLlm: Set<string> | undefined;
  if (llms.length > 1) {
    const above = (aboveLlm = new Set<string>());
    for (const o of llms) {
      someAncestor(tree, o, (a) => {
        if (a !== o) above.add(a.spanId);
        return false;
      });
    }
  }
  const startTime = rfc3339(span.startTimeUnixNano, tree.memo);
  const endTime = rfc3339(span.endTimeUnixNano, tree.memo);
  const input = runInput(runFacts, llmFacts[0], span.spanId, startTime);
  const text = finalText(runFacts, llmFacts);
  const invocations = toolInvocations(tools, llms, llmFacts, infos);
  const output: RunMessage[] = [];
  if (text !== undefined || invocations.length > 0) output.push(assistantMessage(text ?? '', invocations, { id: `${span.spanId}-out-0`, createdAt: endTime }));
  let model: string | undefined;
  for (const f of llmFacts) model ??= f.model;
  model ??= runFacts.model;
  let usage: AgentRun['usage'];
  for (let i = 0; i < llms.length; i++) {
    if (aboveLlm?.has((llms[i] as Span).spanId) === true) continue;
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
    input,
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
  // Made for the first note: most runs have none.
  let notes: string[] | undefined;
  if (kind === 'workflow') notes = [`no agent span: run built from the top-level span ${shortId(span.spanId)} \`${span.name}\``];
  if (tree.orphans.length > 0) {
    const orphanIds = new Set(tree.orphans.map((o) => o.spanId));
    for (const s of spans) if (orphanIds.has(s.spanId)) (notes ??= []).push(`span ${shortId(s.spanId)} \`${s.name}\` arrived without its parent`);
  }
  if (info?.error !== undefined) (notes ??= []).push(`run span failed: ${info.error}`);
  if (notes !== undefined) run.notes = notes;
  return { run, span, spans };
}

/** Members of a run: the subtree under `span`, pruned at nested agent spans. */
export function runMembers(tree: SpanTree, infos: ReadonlyMap<string, SpanInfo>, span: Span): Span[] {
  return descendants(tree, span, (s) => factsOf(infos, s).role === 'agent');
}
