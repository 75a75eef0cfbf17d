/**
 * Content hygiene before anything leaves for a judge: a byte cap on each extracted text and each tool
 * result, with a visible marker, and regex redaction over every text of a run.
 */
import type { RedactionRule } from '../config/sections/extract.js';
import type { AgentRun, MessagePart, RunMessage, SystemMessage, ToolInvocation, ToolResult } from '../model/agent-run.js';
import { isRecord, stringify } from './values.js';

/** Default cap per text and per tool result: 32 KiB. */
export const DEFAULT_MAX_TEXT_BYTES = 32 * 1024;

/**
 * Cuts `text` to at most `maxBytes` UTF-8 bytes (never inside a character) and appends
 * `…[truncated N bytes]`, N being the bytes removed. Texts within the cap are returned unchanged.
 */
export function capText(text: string, maxBytes: number): string {
  // A UTF-16 code unit is at most 3 UTF-8 bytes: most texts are provably within the cap without encoding.
  if (text.length * 3 <= maxBytes) return text;
  const buf = Buffer.from(text, 'utf8');
  if (buf.byteLength <= maxBytes) return text;
  let end = Math.max(0, maxBytes);
  // Step back over UTF-8 continuation bytes so a character is never split.
  while (end > 0 && ((buf[end] as number) & 0xc0) === 0x80) end--;
  return `${buf.subarray(0, end).toString('utf8')}…[truncated ${buf.byteLength - end} bytes]`;
}

/**
 * Caps a tool result: strings are cut with `capText`; structured values whose JSON exceeds the cap are
 * replaced by their cut JSON text (so the judge still sees the start of it). A value within the cap is
 * returned as it is: the value was cut when the result is not `Object.is` to it (see `wasCut`).
 */
function capValue(value: unknown, maxBytes: number): unknown {
  if (typeof value === 'string') return capText(value, maxBytes);
  if (value === undefined || value === null || typeof value !== 'object') return value;
  // Most structured values are far under the cap: a bound on their JSON size proves it without serialising.
  if (jsonBytesAtMost(value, maxBytes)) return value;
  const json = stringify(value);
  if (Buffer.byteLength(json, 'utf8') <= maxBytes) return value;
  return capText(json, maxBytes);
}

/** Whether `capValue` cut `value` into `capped` (a cut value is a new string; `Object.is` keeps NaN uncut). */
function wasCut(value: unknown, capped: unknown): boolean {
  return !Object.is(value, capped);
}

/** A UTF-16 code unit is at most 6 bytes of JSON string (`\u001f`, a lone surrogate escaped), 3 otherwise. */
const MAX_JSON_BYTES_PER_UNIT = 6;
/** The longest JSON text of a finite number (`-1.2345678901234567e-308`). */
const MAX_NUMBER_CHARS = 24;
/** Past this depth `stringify` would replace a value, so the bound gives up (see values.ts). */
const MAX_BOUND_DEPTH = 64;

/**
 * True when `value` is plain JSON data (strings, finite numbers, booleans, null, plain arrays and objects
 * within the depth bound) whose `JSON.stringify` text provably has at most `maxBytes` UTF-8 bytes. It sums
 * an upper bound of every token and stops as soon as the bound passes the cap, so it never walks more than
 * a cap's worth of a large value. `false` means "not proven" (the caller serialises and measures exactly),
 * never "over the cap".
 */
function jsonBytesAtMost(value: unknown, maxBytes: number): boolean {
  return jsonBudgetLeft(value, 0, maxBytes) >= 0;
}

/** `budget` less the bound of `v`'s JSON; negative as soon as the bound passes it or `v` is not plain JSON data. */
function jsonBudgetLeft(v: unknown, depth: number, budget: number): number {
  if (v === null) return budget - 4;
  switch (typeof v) {
    case 'string':
      return budget - (2 + v.length * MAX_JSON_BYTES_PER_UNIT);
    case 'boolean':
      return budget - 5;
    case 'number':
      return Number.isFinite(v) ? budget - MAX_NUMBER_CHARS : -1;
    case 'object':
      break;
    default:
      return -1;
  }
  if (depth >= MAX_BOUND_DEPTH) return -1;
  if (Array.isArray(v)) {
    budget -= 2 + v.length;
    if (budget < 0) return -1;
    for (const x of v as unknown[]) {
      budget = jsonBudgetLeft(x, depth + 1, budget);
      if (budget < 0) return -1;
    }
    return budget;
  }
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return -1;
  const o = v as Record<string, unknown>;
  if ('toJSON' in o) return -1;
  budget -= 2;
  for (const k in o) {
    if (k === '__proto__' || !Object.prototype.hasOwnProperty.call(o, k)) return -1;
    // Key, quotes, colon and comma; an `undefined` member (left out of the JSON) is counted all the same.
    budget -= 4 + k.length * MAX_JSON_BYTES_PER_UNIT;
    if (budget < 0) return -1;
    const x = o[k];
    if (x !== undefined) {
      budget = jsonBudgetLeft(x, depth + 1, budget);
      if (budget < 0) return -1;
    }
  }
  return budget;
}

/**
 * What capping one run keeps: the cap, the values cut so far, and per message whether a text was cut and the
 * invocations already capped (a part and the legacy `content.toolInvocations` entry are the same invocation:
 * it is cut once and counted once). One object passed to plain functions rather than closures over a
 * counter: every run is capped, and the closures were most of what capping allocated.
 */
class RunCap {
  cut = 0;
  textCut = false;
  /** Made on the message's first invocation: most messages have none. */
  invocations: Map<ToolInvocation, ToolInvocation> | undefined = undefined;
  constructor(readonly maxBytes: number) {}
}

/**
 * The cap functions below copy only what they cut: a value, message or run with nothing over the cap is
 * returned as it is (most runs), so capping a run costs a walk, not a copy of everything in it.
 */
function capInvocation(cap: RunCap, inv: ToolInvocation): ToolInvocation {
  const maxBytes = cap.maxBytes;
  const hasResult = 'result' in inv;
  const args = capValue(inv.args, maxBytes);
  const result = hasResult ? capValue(inv.result, maxBytes) : undefined;
  const resultText = inv.resultText !== undefined ? capText(inv.resultText, maxBytes) : undefined;
  const errorText = inv.errorText !== undefined ? capText(inv.errorText, maxBytes) : undefined;
  const argsCut = wasCut(inv.args, args);
  const resultCut = hasResult && wasCut(inv.result, result);
  if (argsCut) cap.cut++;
  if (resultCut) cap.cut++;
  if (!argsCut && !resultCut && resultText === inv.resultText && errorText === inv.errorText) return inv;
  const out: ToolInvocation = { ...inv };
  out.args = args;
  if (hasResult) out.result = result;
  if (resultText !== undefined) out.resultText = resultText;
  if (errorText !== undefined) out.errorText = errorText;
  return out;
}

/** The capped copy of `inv`, made once per message. */
function capMessageInvocation(cap: RunCap, inv: ToolInvocation): ToolInvocation {
  cap.invocations ??= new Map<ToolInvocation, ToolInvocation>();
  let c = cap.invocations.get(inv);
  if (!c) {
    c = capInvocation(cap, inv);
    cap.invocations.set(inv, c);
  }
  return c;
}

function capMessageText(cap: RunCap, text: string): string {
  const v = capText(text, cap.maxBytes);
  if (v !== text) cap.textCut = true;
  return v;
}

function capPart(cap: RunCap, p: MessagePart): MessagePart {
  if (p.type === 'text' && typeof p.text === 'string') {
    const text = capMessageText(cap, p.text);
    return text === p.text ? p : { ...p, text };
  }
  if (p.type === 'tool-invocation' && isRecord(p.toolInvocation)) {
    const inv = capMessageInvocation(cap, p.toolInvocation as unknown as ToolInvocation);
    return inv === (p.toolInvocation as unknown) ? p : { ...p, toolInvocation: inv };
  }
  return p;
}

/** `list` mapped by `f` (given `cap`), or `list` itself when `f` returned every element unchanged. */
function mapSame<T>(list: readonly T[], cap: RunCap, f: (cap: RunCap, x: T) => T): T[] {
  let out: T[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const x = list[i] as T;
    const y = f(cap, x);
    if (y !== x && out === undefined) out = list.slice(0, i);
    out?.push(y);
  }
  return out ?? (list as T[]);
}

/**
 * Caps a message's texts (`content.content` and each text part) and its tool invocations; a message with a
 * text cut counts once.
 */
function capMessage(cap: RunCap, m: RunMessage): RunMessage {
  cap.textCut = false;
  cap.invocations = undefined;
  const parts = mapSame(m.content.parts, cap, capPart);
  const text = m.content.content !== undefined ? capMessageText(cap, m.content.content) : undefined;
  const invocations = m.content.toolInvocations ? mapSame(m.content.toolInvocations, cap, capMessageInvocation) : undefined;
  if (cap.textCut) cap.cut++;
  if (parts === m.content.parts && text === m.content.content && invocations === m.content.toolInvocations) return m;
  const content: RunMessage['content'] = { ...m.content, parts };
  if (text !== undefined) content.content = text;
  if (invocations) content.toolInvocations = invocations;
  return { ...m, content };
}

function capSystem(cap: RunCap, m: SystemMessage): SystemMessage {
  const content = capText(m.content, cap.maxBytes);
  if (content === m.content) return m;
  cap.cut++;
  return { ...m, content };
}

function capContext(cap: RunCap, c: string): string {
  const v = capText(c, cap.maxBytes);
  if (v !== c) cap.cut++;
  return v;
}

/** Applies the byte cap to every text, tool argument and tool result of a run; adds a note when anything was cut. */
export function capRun(run: AgentRun, maxBytes: number): AgentRun {
  const cap = new RunCap(maxBytes);
  const inputMessages = mapSame(run.input.inputMessages, cap, capMessage);
  const rememberedMessages = mapSame(run.input.rememberedMessages, cap, capMessage);
  const systemMessages = mapSame(run.input.systemMessages, cap, capSystem);
  const output = mapSame(run.output, cap, capMessage);
  const toolResults = mapSame(run.toolResults, cap, capToolResult);
  const context = mapSame(run.context, cap, capContext);
  const input =
    inputMessages === run.input.inputMessages && rememberedMessages === run.input.rememberedMessages && systemMessages === run.input.systemMessages
      ? run.input
      : { ...run.input, inputMessages, rememberedMessages, systemMessages };
  const cut = cap.cut;
  if (cut === 0 && input === run.input && output === run.output && toolResults === run.toolResults && context === run.context) return run;
  const out: AgentRun = { ...run, input, output, toolResults, context };
  if (cut > 0) out.notes = [...(run.notes ?? []), `${cut} value(s) truncated to ${maxBytes} bytes`];
  return out;
}

/** Tool results repeat the output's invocations, so they are cut the same way but not counted again. */
function capToolResult(cap: RunCap, t: ToolResult): ToolResult {
  const r = capValue(t.result, cap.maxBytes);
  const a = capValue(t.args, cap.maxBytes);
  const resultText = t.resultText !== undefined ? capText(t.resultText, cap.maxBytes) : undefined;
  if (!wasCut(t.result, r) && !wasCut(t.args, a) && resultText === t.resultText) return t;
  const out: ToolResult = { ...t };
  out.result = r;
  out.args = a;
  if (resultText !== undefined) out.resultText = resultText;
  return out;
}

interface CompiledRule {
  re: RegExp;
  replacement: string;
}

function compile(rules: readonly RedactionRule[]): CompiledRule[] {
  return rules.map((r) => ({ re: new RegExp(r.pattern, `g${(r.flags ?? '').replace(/g/g, '')}`), replacement: r.replacement ?? '[REDACTED]' }));
}

function redactDeep(v: unknown, rules: CompiledRule[], depth: number): unknown {
  if (typeof v === 'string') {
    let out = v;
    for (const r of rules) out = out.replace(r.re, r.replacement);
    return out;
  }
  if (depth > 64) return v;
  if (Array.isArray(v)) return v.map((x) => redactDeep(x, rules, depth + 1));
  if (isRecord(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = redactDeep(x, rules, depth + 1);
    return out;
  }
  return v;
}

const ID_KEYS: ReadonlySet<string> = new Set(['traceId', 'spanId', 'convention', 'status', 'startTime', 'endTime', 'toolCallId', 'role', 'state']);

function redactRunValue(v: unknown, rules: CompiledRule[], depth: number): unknown {
  if (depth > 64) return v;
  if (Array.isArray(v)) return v.map((x) => redactRunValue(x, rules, depth + 1));
  if (isRecord(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = ID_KEYS.has(k) ? x : redactRunValue(x, rules, depth + 1);
    return out;
  }
  return redactDeep(v, rules, depth);
}

/** Message fields that are not text: the id, the role, the time; in the content, the format and each part's type. */
const MESSAGE_KEYS: ReadonlySet<string> = new Set(['id', 'role', 'createdAt']);

function redactParts(parts: unknown[], rules: CompiledRule[]): unknown[] {
  return parts.map((p) => {
    if (!isRecord(p)) return redactRunValue(p, rules, 4);
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(p)) out[k] = k === 'type' ? x : redactRunValue(x, rules, 4);
    return out;
  });
}

function redactMessage(m: unknown, rules: CompiledRule[]): unknown {
  if (!isRecord(m)) return redactRunValue(m, rules, 2);
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(m)) {
    if (MESSAGE_KEYS.has(k)) out[k] = x;
    else if (k === 'content' && isRecord(x)) {
      const content: Record<string, unknown> = {};
      for (const [ck, cx] of Object.entries(x)) content[ck] = ck === 'format' ? cx : ck === 'parts' && Array.isArray(cx) ? redactParts(cx, rules) : redactRunValue(cx, rules, 3);
      out[k] = content;
    } else out[k] = redactRunValue(x, rules, 3);
  }
  return out;
}

const redactMessages = (list: unknown, rules: CompiledRule[]): unknown => (Array.isArray(list) ? list.map((m) => redactMessage(m, rules)) : redactRunValue(list, rules, 1));

/**
 * Returns a copy of `run` with every redaction rule applied to every text it carries (messages, tool
 * arguments and results at any depth, context, ground truth, agent name, model), leaving ids, times,
 * roles, states, message formats and part types untouched. The input run is not modified.
 */
export function redactRun(run: AgentRun, rules: readonly RedactionRule[]): AgentRun {
  if (rules.length === 0) return run;
  const compiled = compile(rules);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(run)) {
    if (k === 'output') out[k] = redactMessages(v, compiled);
    else if (k === 'input' && isRecord(v)) {
      const input: Record<string, unknown> = {};
      for (const [ik, iv] of Object.entries(v)) input[ik] = ik === 'inputMessages' || ik === 'rememberedMessages' ? redactMessages(iv, compiled) : redactRunValue(iv, compiled, 1);
      out[k] = input;
    } else out[k] = ID_KEYS.has(k) ? v : redactRunValue(v, compiled, 0);
  }
  return out as unknown as AgentRun;
}
