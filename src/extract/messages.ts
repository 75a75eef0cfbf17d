/**
 * Normalises the message shapes the conventions write (GenAI parts, OpenAI chat, AI SDK prompt parts,
 * Mastra format-2, Anthropic blocks, LangChain messages and graph state, free JSON) into `Msg`, and makes
 * wrapped values readable.
 */
import { langChainMessage } from './conventions/langchain.js';
import type { Msg, NormToolCall, NormToolResult } from './conventions/types.js';
import type { JsonCache } from './tree.js';
import { append } from './lists.js';
import { asString, isRecord, parseJsonish, prop, stringify } from './values.js';

const TEXT_KEYS = ['text', 'content', 'value'] as const;

/**
 * Plain text of a content value: a string; the text parts of a part array joined with newlines;
 * or the `text` / `content` of an object. Tool parts are not text.
 */
export function textOfContent(content: unknown, depth = 0): string {
  if (depth > 8) return '';
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const texts: string[] = [];
    for (const p of content) {
      if (typeof p === 'string') texts.push(p);
      else if (isRecord(p)) {
        const type = asString(p.type);
        if (type === undefined || type === 'text' || type === 'output_text' || type === 'input_text') {
          const t = textOfContent(p.text ?? p.content, depth + 1);
          if (t) texts.push(t);
        }
      }
    }
    return texts.join('\n');
  }
  if (isRecord(content)) {
    if (content.format === 2 || Array.isArray(content.parts)) {
      const c = asString(content.content);
      return c ?? textOfContent(content.parts, depth + 1);
    }
    for (const k of TEXT_KEYS) {
      const v = content[k];
      if (typeof v === 'string') return v;
    }
  }
  return '';
}

/**
 * Tool calls found in a content part array (GenAI `tool_call`, AI SDK `tool-call`, Anthropic `tool_use`,
 * Mastra `tool-invocation`), appended to `out`; `undefined` when there are none.
 */
function partToolCalls(parts: unknown[], j: JsonCache | undefined, out?: NormToolCall[]): NormToolCall[] | undefined {
  for (const p of parts) {
    if (!isRecord(p)) continue;
    const type = asString(p.type);
    if (type === 'tool_call' || type === 'tool-call' || type === 'tool_use' || type === 'function_call') {
      const name = asString(p.name) ?? asString(p.toolName);
      if (!name) continue;
      out = append(out, withId({ name, args: parseJsonish(p.arguments ?? p.input ?? p.args ?? {}, j) }, asString(p.id) ?? asString(p.toolCallId) ?? asString(p.call_id)));
    } else if (type === 'tool-invocation' && isRecord(p.toolInvocation)) {
      const ti = p.toolInvocation;
      const name = asString(ti.toolName);
      if (name) out = append(out, withId({ name, args: parseJsonish(ti.args ?? {}, j) }, asString(ti.toolCallId)));
    }
  }
  return out;
}

/** Tool results found in a content part array; `undefined` when there are none. */
function partToolResults(parts: unknown[], j?: JsonCache): NormToolResult[] | undefined {
  let out: NormToolResult[] | undefined;
  for (const p of parts) {
    if (!isRecord(p)) continue;
    const type = asString(p.type);
    if (type === 'tool_call_response' || type === 'tool-result' || type === 'tool_result' || type === 'function_call_output') {
      const raw = p.response ?? p.result ?? p.output ?? p.content;
      const isError = p.isError === true || p.is_error === true || (isRecord(raw) && (raw.type === 'error-text' || raw.type === 'error-json'));
      const r: NormToolResult = { result: parseJsonish(raw, j) };
      const id = asString(p.id) ?? asString(p.toolCallId) ?? asString(p.tool_use_id) ?? asString(p.call_id);
      if (id) r.id = id;
      const name = asString(p.toolName) ?? asString(p.name);
      if (name) r.name = name;
      if (isError) r.isError = true;
      out = append(out, r);
    }
  }
  return out;
}

function withId(o: NormToolCall, id: string | undefined): NormToolCall {
  if (id) o.id = id;
  return o;
}

/** OpenAI-style `tool_calls: [{id, function: {name, arguments}}]` (also the flat `{id, name, arguments}`). */
export function openAiToolCalls(v: unknown, j?: JsonCache): NormToolCall[] {
  const list = parseJsonish(v, j);
  if (!Array.isArray(list)) return [];
  const out: NormToolCall[] = [];
  for (const c of list) {
    if (!isRecord(c)) continue;
    const fn = isRecord(c.function) ? c.function : c;
    const name = asString(fn.name) ?? asString(c.toolName);
    if (!name) continue;
    out.push(withId({ name, args: parseJsonish(fn.arguments ?? c.args ?? c.input ?? {}, j) }, asString(c.id) ?? asString(c.toolCallId)));
  }
  return out;
}

/** One message object of any known shape (LangChain's read as the OpenAI shape), or `undefined` when it has no role. */
function toMsg(raw: unknown, j?: JsonCache): Msg | undefined {
  if (!isRecord(raw)) return undefined;
  const m = langChainMessage(raw) ?? raw;
  const role = asString(m.role) ?? (isRecord(m.message) ? asString(m.message.role) : undefined);
  if (!role) return undefined;
  const body: Record<string, unknown> = isRecord(m.message) && m.content === undefined && m.parts === undefined ? m.message : m;
  let parts: unknown[] | undefined;
  if (Array.isArray(body.parts)) parts = body.parts;
  else if (Array.isArray(body.content)) parts = body.content;
  else if (isRecord(body.content) && Array.isArray(body.content.parts)) parts = body.content.parts;
  let text = '';
  if (typeof body.content === 'string') text = body.content;
  else if (isRecord(body.content)) text = textOfContent(body.content);
  if (!text && parts) text = textOfContent(parts);
  const msg: Msg = { role, text };
  let calls = parts ? partToolCalls(parts, j) : undefined;
  const openAi = body.tool_calls ?? body.toolCalls;
  // Most messages have no OpenAI-style calls: `openAiToolCalls(undefined)` is empty anyway.
  if (openAi !== undefined) {
    const more = openAiToolCalls(openAi, j);
    if (calls === undefined) calls = more.length > 0 ? more : undefined;
    else calls.push(...more);
  }
  if (isRecord(body.content) && Array.isArray(body.content.toolInvocations)) {
    for (const ti of body.content.toolInvocations) if (isRecord(ti)) calls = partToolCalls([{ type: 'tool-invocation', toolInvocation: ti }], j, calls);
  }
  if (calls !== undefined) msg.toolCalls = dedupeCalls(calls);
  let results = parts ? partToolResults(parts, j) : undefined;
  if (role === 'tool' && results === undefined) {
    const r: NormToolResult = { result: parseJsonish(body.content ?? body.parts, j) };
    const id = asString(body.tool_call_id) ?? asString(body.toolCallId) ?? asString(body.id);
    if (id) r.id = id;
    const name = asString(body.name);
    if (name) r.name = name;
    results = [r];
  }
  if (results !== undefined) msg.toolResults = results;
  const finish = asString(m.finish_reason) ?? asString(m.finishReason);
  if (finish) msg.finishReason = finish;
  return msg;
}

/** `calls` without a repeated id (the first call of an id kept); the list itself when no id repeats. */
function dedupeCalls(calls: NormToolCall[]): NormToolCall[] {
  // A few calls are compared pairwise, without a set: ids mostly do not repeat.
  if (calls.length <= 16 && !repeatsId(calls)) return calls;
  const seen = new Set<string>();
  return calls.filter((c) => {
    if (!c.id) return true;
    if (seen.has(c.id)) return false;
    seen.add(c.id);
    return true;
  });
}

function repeatsId(calls: readonly NormToolCall[]): boolean {
  for (let i = 1; i < calls.length; i++) {
    const id = (calls[i] as NormToolCall).id;
    if (!id) continue;
    for (let k = 0; k < i; k++) if ((calls[k] as NormToolCall).id === id) return true;
  }
  return false;
}

const INPUT_KEYS = ['prompt', 'input', 'query', 'question', 'text', 'message', 'content', 'user_input', 'userMessage'] as const;

/**
 * Messages from any recorded input: a string is one `defaultRole` message; an array of messages is
 * normalised; `{messages}` / `{prompt, system}` / `{input}` objects are unwrapped; anything else becomes
 * one message holding its JSON.
 */
export function anyToMessages(value: unknown, defaultRole = 'user', depth = 0, j?: JsonCache): Msg[] {
  const v = parseJsonish(value, j);
  if (v === undefined || v === null || depth > 6) return [];
  if (typeof v === 'string') return v.length > 0 ? [{ role: defaultRole, text: v }] : [];
  if (Array.isArray(v)) {
    const msgs = v.map((m) => toMsg(m, j));
    if (v.length > 0 && !msgs.includes(undefined)) return msgs as Msg[];
    if (v.length === 1) return anyToMessages(v[0], defaultRole, depth + 1, j);
    const t = textOfContent(v);
    return t ? [{ role: defaultRole, text: t }] : [{ role: defaultRole, text: stringify(v) }];
  }
  if (isRecord(v)) {
    const one = toMsg(v, j);
    if (one) return [one];
    const out: Msg[] = [];
    const sys = asString(v.system) ?? asString(v.instructions);
    if (sys) out.push({ role: 'system', text: sys });
    if (Array.isArray(v.messages)) return [...out, ...anyToMessages(v.messages, defaultRole, depth + 1, j)];
    for (const k of INPUT_KEYS) {
      const x = prop(v, k);
      if (x !== undefined && x !== null && x !== '') return [...out, ...anyToMessages(x, defaultRole, depth + 1, j)];
    }
    if (out.length > 0 && Object.keys(v).length === 1) return out;
    return [...out, { role: defaultRole, text: stringify(v) }];
  }
  return [{ role: defaultRole, text: stringify(v) }];
}

const OUTPUT_KEYS = ['text', 'content', 'output', 'answer', 'result', 'response', 'completion', 'message'] as const;

/** Readable text of any recorded output (string, message(s), `{text}`-like object, else its JSON). */
export function outputText(value: unknown, depth = 0, j?: JsonCache): string {
  const v = parseJsonish(value, j);
  if (v === undefined || v === null || depth > 6) return '';
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) {
    const msgs = v.map((m) => toMsg(m, j));
    if (v.length > 0 && msgs.every((m) => m !== undefined)) {
      const last = [...(msgs)].reverse().find((m) => m.role !== 'user' && m.role !== 'system' && m.text);
      return last?.text ?? '';
    }
    return textOfContent(v) || stringify(v);
  }
  if (isRecord(v)) {
    const m = toMsg(v, j);
    if (m) return m.text;
    if (Array.isArray(v.messages)) return outputText(v.messages, depth + 1, j);
    if (Array.isArray(v.choices) && isRecord(v.choices[0])) return outputText(v.choices[0].message ?? v.choices[0].text, depth + 1, j);
    for (const k of OUTPUT_KEYS) {
      const x = prop(v, k);
      if (typeof x === 'string') return x;
      if (isRecord(x) || Array.isArray(x)) {
        const t = outputText(x, depth + 1, j);
        if (t) return t;
      }
    }
    return stringify(v);
  }
  return stringify(v);
}

/**
 * A readable text for a wrapped tool result (content-block arrays, MCP `{content: [...]}`, AI SDK
 * `{type, value}` outputs), or `undefined` when the result is not wrapped.
 */
export function readableResult(result: unknown): string | undefined {
  if (Array.isArray(result) && result.length > 0 && result.every((b) => isRecord(b) && typeof b.type === 'string')) {
    const t = textOfContent(result);
    return t || undefined;
  }
  if (isRecord(result)) {
    if (Array.isArray(result.content) && result.content.every((b) => isRecord(b) && typeof b.type === 'string')) {
      const t = textOfContent(result.content);
      return t || undefined;
    }
    const type = asString(result.type);
    if (type && 'value' in result && Object.keys(result).length <= 3) {
      if (type === 'content' && Array.isArray(result.value)) return textOfContent(result.value) || undefined;
      if (type === 'text' || type === 'error-text') return typeof result.value === 'string' ? result.value : undefined;
      if (type === 'json' || type === 'error-json') return stringify(result.value);
    }
  }
  return undefined;
}
