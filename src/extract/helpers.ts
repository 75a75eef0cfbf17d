/**
 * Scorer helper utilities with the reference behaviour of `@mastra/evals/scorers/utils` (docs/scorers.md).
 * Every helper accepts Mastra format-2 messages (`content.parts` / `content.toolInvocations`), the shape runs
 * carry (docs/records.md, "The agent run"), and also the shape tracejudge wrote before (`content` a string,
 * `toolInvocations` beside it). They never throw on odd input.
 */
import type { ToolInvocation } from '../model/agent-run.js';
import { isRecord } from './values.js';

type Obj = Record<string, unknown>;

function nonEmpty(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

function lastTextPart(parts: unknown[]): string | undefined {
  for (let i = parts.length - 1; i >= 0; i--) {
    const p = parts[i];
    if (isRecord(p) && p.type === 'text') return typeof p.text === 'string' ? p.text : undefined;
  }
  return undefined;
}

/**
 * Text of a message: a string `content`; the last text element of an array `content`; else
 * `content.content`, `content.text`, or the last text part of `content.parts`; else `''`.
 */
export function getTextContentFromMastraDBMessage(msg: unknown): string {
  if (!isRecord(msg)) return '';
  const c = msg.content;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) return lastTextPart(c) ?? '';
  if (isRecord(c)) {
    const inner = nonEmpty(c.content) ?? nonEmpty(c.text);
    if (inner !== undefined) return inner;
    if (Array.isArray(c.parts)) return lastTextPart(c.parts) ?? '';
  }
  return '';
}

function textOf(value: unknown, depth = 0): string | undefined {
  if (depth > 16) return undefined;
  if (typeof value === 'string') return value.length > 0 ? value : undefined;
  if (Array.isArray(value)) return nonEmpty(lastTextPart(value));
  if (isRecord(value)) return textOf(value.content, depth + 1) ?? nonEmpty(value.text) ?? nonEmpty(value.body) ?? textOf(value.parts, depth + 1);
  return undefined;
}

/** A message's role, with `signal` messages read as the role they carry. */
function effectiveRole(m: unknown): string | undefined {
  if (!isRecord(m)) return undefined;
  if (m.role !== 'signal') return typeof m.role === 'string' ? m.role : undefined;
  const content = isRecord(m.content) ? m.content : undefined;
  const meta = content && isRecord(content.metadata) ? content.metadata : undefined;
  const signal = meta && isRecord(meta.signal) ? meta.signal : undefined;
  const r = (signal && (nonEmpty(signal.tagName) ?? nonEmpty(signal.type))) ?? nonEmpty(m.type);
  return r;
}

function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** Text of the first user message of the run input (`inputMessages`, then `messages`, then prompt-like fields). */
export function getUserMessageFromRunInput(input: unknown): string | undefined {
  if (typeof input === 'string') return input;
  if (!isRecord(input)) return undefined;
  for (const key of ['inputMessages', 'messages']) {
    const first = asArray(input[key]).find((m) => effectiveRole(m) === 'user');
    if (first !== undefined) {
      const t = textOf(first);
      if (t !== undefined) return t;
    }
  }
  if (typeof input.prompt === 'string') return input.prompt;
  if (typeof input.text === 'string') return input.text;
  return textOf(input.content) ?? textOf(input.input) ?? textOf(input.user);
}

/** Text of the last non-empty assistant message of the run output. */
export function getAssistantMessageFromRunOutput(output: unknown): string | undefined {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) {
    for (let i = output.length - 1; i >= 0; i--) {
      const m: unknown = output[i];
      if (effectiveRole(m) !== 'assistant') continue;
      const t = textOf(m);
      if (t !== undefined) return t;
    }
    return undefined;
  }
  if (!isRecord(output) || (output.role !== undefined && output.role !== 'assistant')) return undefined;
  if (typeof output.text === 'string') return output.text;
  if (typeof output.content === 'string') return output.content;
  if (isRecord(output.content) || Array.isArray(output.content)) {
    return getTextContentFromMastraDBMessage(output) || getTextContentFromMastraDBMessage(output.content) || undefined;
  }
  return undefined;
}

/** System prompt texts: `systemMessages`, then system-role input messages, then tagged system messages. */
export function getSystemMessagesFromRunInput(input: unknown): string[] {
  const out: string[] = [];
  if (!isRecord(input)) return out;
  for (const m of asArray(input.systemMessages)) {
    if (!isRecord(m)) continue;
    if (typeof m.content === 'string') {
      if (m.content) out.push(m.content);
    } else if (Array.isArray(m.content)) {
      const t = m.content
        .filter((p): p is Obj => isRecord(p) && p.type === 'text' && typeof p.text === 'string')
        .map((p) => p.text as string)
        .join(' ');
      if (t) out.push(t);
    }
  }
  for (const key of ['inputMessages', 'messages']) {
    for (const m of asArray(input[key])) {
      if (!isRecord(m) || m.role !== 'system') continue;
      const t = textOf(m);
      if (t !== undefined) out.push(t);
    }
  }
  if (isRecord(input.taggedSystemMessages)) {
    for (const list of Object.values(input.taggedSystemMessages)) {
      for (const m of asArray(list)) {
        const t = textOf(m);
        if (t !== undefined) out.push(t);
      }
    }
  }
  return out;
}

/** The system prompts joined with a blank line. */
export function getCombinedSystemPrompt(input: unknown): string {
  return getSystemMessagesFromRunInput(input).join('\n\n');
}

function asInvocation(v: unknown): ToolInvocation | undefined {
  return isRecord(v) ? (v as unknown as ToolInvocation) : undefined;
}

/**
 * Tool invocations of one message: `content.parts` tool-invocation entries merged with the legacy lists
 * (`content.toolInvocations`, and the tracejudge `toolInvocations` beside `content`). Parts win for a shared
 * `toolCallId`; legacy-only entries keep their position relative to the shared ones.
 */
export function mergeToolInvocations(message: unknown): ToolInvocation[] {
  if (!isRecord(message)) return [];
  const content = isRecord(message.content) ? message.content : undefined;
  const parts: ToolInvocation[] = [];
  for (const p of asArray(content?.parts)) {
    if (isRecord(p) && p.type === 'tool-invocation') {
      const inv = asInvocation(p.toolInvocation);
      if (inv) parts.push(inv);
    }
  }
  const legacy: ToolInvocation[] = [...asArray(content?.toolInvocations), ...asArray(message.toolInvocations)]
    .map(asInvocation)
    .filter((x): x is ToolInvocation => x !== undefined);
  const partIds = new Set(parts.map((p) => p.toolCallId).filter((id) => id !== undefined));
  const out: ToolInvocation[] = [];
  let cursor = 0;
  for (const p of parts) {
    let idx = -1;
    for (let i = cursor; i < legacy.length; i++) {
      if (p.toolCallId !== undefined && legacy[i]?.toolCallId === p.toolCallId) {
        idx = i;
        break;
      }
    }
    if (idx >= 0) {
      for (let i = cursor; i < idx; i++) {
        const l = legacy[i] as ToolInvocation;
        if (!partIds.has(l.toolCallId)) out.push(l);
      }
      cursor = idx + 1;
    }
    out.push(p);
  }
  for (let i = cursor; i < legacy.length; i++) {
    const l = legacy[i] as ToolInvocation;
    if (!partIds.has(l.toolCallId)) out.push(l);
  }
  return out;
}

/** Tool call names and positions (states `result`, `call` and `output-error`), in message then invocation order. */
export function extractToolCalls(output: unknown): {
  tools: string[];
  toolCallInfos: Array<{ toolName: string; toolCallId: string; messageIndex: number; invocationIndex: number }>;
} {
  const tools: string[] = [];
  const toolCallInfos: Array<{ toolName: string; toolCallId: string; messageIndex: number; invocationIndex: number }> = [];
  asArray(output).forEach((m, messageIndex) => {
    mergeToolInvocations(m).forEach((inv, invocationIndex) => {
      if (typeof inv.toolName !== 'string' || !inv.toolName) return;
      if (inv.state !== 'result' && inv.state !== 'call' && inv.state !== 'output-error') return;
      tools.push(inv.toolName);
      toolCallInfos.push({
        toolName: inv.toolName,
        toolCallId: typeof inv.toolCallId === 'string' && inv.toolCallId ? inv.toolCallId : `${messageIndex}-${invocationIndex}`,
        messageIndex,
        invocationIndex,
      });
    });
  });
  return { tools, toolCallInfos };
}

/** A tool result as `extractToolResults` reports it. */
export interface ExtractedToolResult {
  toolName: string;
  toolCallId: string;
  args: unknown;
  result: unknown;
  resultText?: string;
}

/**
 * Every tool result of a run output, in order: invocations with `state: 'result'` and a defined result.
 * Thrown calls (`output-error`) produce nothing. `resultText` is copied when present.
 */
export function extractToolResults(output: unknown): ExtractedToolResult[] {
  const out: ExtractedToolResult[] = [];
  for (const m of asArray(output)) toolResultsOf(mergeToolInvocations(m), out);
  return out;
}

/**
 * The tool results among the merged invocations of one message (the rule of `extractToolResults`), appended
 * to `out`. Extraction calls it with the invocations it built a message from, which are that message's
 * merged invocations, without merging them back out of the message.
 */
export function toolResultsOf(invocations: readonly ToolInvocation[], out: ExtractedToolResult[] = []): ExtractedToolResult[] {
  for (const inv of invocations) {
    if (inv.state !== 'result' || inv.result === undefined) continue;
    const r: ExtractedToolResult = {
      toolName: inv.toolName,
      toolCallId: typeof inv.toolCallId === 'string' ? inv.toolCallId : '',
      args: inv.args ?? {},
      result: inv.result,
    };
    if (typeof inv.resultText === 'string') r.resultText = inv.resultText;
    out.push(r);
  }
  return out;
}

/** Text of each input message. */
export function extractInputMessages(input: unknown): string[] {
  return isRecord(input) ? asArray(input.inputMessages).map(getTextContentFromMastraDBMessage) : [];
}

/** Text of each message whose role is literally `assistant`. */
export function extractAgentResponseMessages(output: unknown): string[] {
  return asArray(output)
    .filter((m) => isRecord(m) && m.role === 'assistant')
    .map(getTextContentFromMastraDBMessage);
}
