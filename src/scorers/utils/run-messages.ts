/**
 * Message helpers the code scorers need (SCORERS §3.2–3.3), over both the Mastra format-2 message
 * (`content: { parts, toolInvocations, content }`) and tracejudge's `RunMessage` (`content: string`,
 * `toolInvocations` beside it). Kept local to the scorers until `src/extract/helpers.ts` offers the same names.
 */

/** A tool invocation as found in parts or legacy arrays. */
export interface InvocationLike {
  toolCallId?: string;
  toolName?: string;
  args?: unknown;
  state?: string;
  result?: unknown;
  isError?: boolean;
  errorText?: string;
}

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function lastTextPart(parts: readonly unknown[]): string {
  for (let i = parts.length - 1; i >= 0; i--) {
    const p = parts[i];
    if (isObj(p) && p.type === 'text') return typeof p.text === 'string' ? p.text : '';
  }
  return '';
}

/**
 * Text of one message: string content; the last text part of array content; `content.content`;
 * `content.text`; the last text part of `content.parts`; else ''.
 *
 * @example
 * ```ts
 * getTextContentFromMastraDBMessage({ role: 'assistant', content: 'hi' }); // 'hi'
 * ```
 */
export function getTextContentFromMastraDBMessage(message: unknown): string {
  if (!isObj(message)) return '';
  const c = message.content;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) return lastTextPart(c);
  if (!isObj(c)) return '';
  if (typeof c.content === 'string' && c.content !== '') return c.content;
  if (typeof c.text === 'string' && c.text !== '') return c.text;
  if (Array.isArray(c.parts)) return lastTextPart(c.parts);
  return '';
}

function invocationsOf(list: unknown): InvocationLike[] {
  return Array.isArray(list) ? list.filter(isObj) : [];
}

/**
 * Tool invocations of a message, merging `content.parts` tool-invocation entries with the legacy
 * `toolInvocations` array (parts win for shared ids; legacy-only entries keep their relative position).
 *
 * @example
 * ```ts
 * mergeToolInvocations({ role: 'assistant', content: '', toolInvocations: [{ toolCallId: '1', toolName: 'search', state: 'result' }] });
 * ```
 */
export function mergeToolInvocations(message: unknown): InvocationLike[] {
  if (!isObj(message)) return [];
  const c = message.content;
  const partsRaw = isObj(c) && Array.isArray(c.parts) ? c.parts : Array.isArray(c) ? c : [];
  const parts: InvocationLike[] = [];
  for (const p of partsRaw) if (isObj(p) && p.type === 'tool-invocation' && isObj(p.toolInvocation)) parts.push(p.toolInvocation);
  const legacy = invocationsOf(isObj(c) && Array.isArray(c.toolInvocations) ? c.toolInvocations : message.toolInvocations);
  if (parts.length === 0) return legacy;
  if (legacy.length === 0) return parts;
  const partIds = new Set(parts.map((p) => p.toolCallId));
  const out: InvocationLike[] = [];
  let cursor = 0;
  for (const p of parts) {
    let idx = -1;
    for (let k = cursor; k < legacy.length; k++) {
      if (legacy[k]?.toolCallId === p.toolCallId) {
        idx = k;
        break;
      }
    }
    if (idx >= 0) {
      for (let k = cursor; k < idx; k++) {
        const l = legacy[k] as InvocationLike;
        if (!partIds.has(l.toolCallId)) out.push(l);
      }
      cursor = idx + 1;
    }
    out.push(p);
  }
  for (let k = cursor; k < legacy.length; k++) {
    const l = legacy[k] as InvocationLike;
    if (!partIds.has(l.toolCallId)) out.push(l);
  }
  return out;
}

const CALL_STATES = new Set(['result', 'call', 'output-error']);

/** Output of {@link extractToolCalls}. */
export interface ToolCallsInfo {
  tools: string[];
  toolCallInfos: Array<{ toolName: string; toolCallId: string; messageIndex: number; invocationIndex: number }>;
}

/**
 * Tool calls of a run output in order (states `result`, `call`, `output-error`; partial calls excluded).
 *
 * @example
 * ```ts
 * extractToolCalls(run.output).tools; // ['search', 'summarize']
 * ```
 */
export function extractToolCalls(output: unknown): ToolCallsInfo {
  const tools: string[] = [];
  const toolCallInfos: ToolCallsInfo['toolCallInfos'] = [];
  if (!Array.isArray(output)) return { tools, toolCallInfos };
  output.forEach((message, m) => {
    mergeToolInvocations(message).forEach((inv, i) => {
      if (typeof inv.toolName !== 'string' || !CALL_STATES.has(inv.state ?? '')) return;
      tools.push(inv.toolName);
      toolCallInfos.push({ toolName: inv.toolName, toolCallId: inv.toolCallId ?? `${m}-${i}`, messageIndex: m, invocationIndex: i });
    });
  });
  return { tools, toolCallInfos };
}

/**
 * Every merged tool invocation of a run output (any state), for checks that inspect failures.
 *
 * @example
 * ```ts
 * allToolInvocations(run.output).some((i) => i.state === 'output-error');
 * ```
 */
export function allToolInvocations(output: unknown): InvocationLike[] {
  return Array.isArray(output) ? output.flatMap((m) => mergeToolInvocations(m)) : [];
}

/**
 * Texts of a message list joined with `sep` (`", "` for the reference's code scorers). A string is
 * returned as is; anything else gives ''.
 *
 * @example
 * ```ts
 * joinMessageTexts([{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }]); // 'a, b'
 * ```
 */
export function joinMessageTexts(messages: unknown, sep = ', '): string {
  if (typeof messages === 'string') return messages;
  if (!Array.isArray(messages)) return '';
  return messages.map((m) => getTextContentFromMastraDBMessage(m)).join(sep);
}

/**
 * The `inputMessages` of an agent-shaped run input (or undefined).
 *
 * @example
 * ```ts
 * inputMessagesOf({ inputMessages: [msg] }); // [msg]
 * ```
 */
export function inputMessagesOf(input: unknown): unknown[] | undefined {
  if (isObj(input) && Array.isArray(input.inputMessages)) return input.inputMessages as unknown[];
  return undefined;
}

/**
 * Texts of the messages whose literal role is `assistant`, joined with `sep` (quick checks).
 *
 * @example
 * ```ts
 * assistantText(run.output, ' ');
 * ```
 */
export function assistantText(output: unknown, sep: string): string {
  if (typeof output === 'string') return output;
  if (!Array.isArray(output)) return '';
  return output
    .filter((m) => isObj(m) && m.role === 'assistant')
    .map((m) => getTextContentFromMastraDBMessage(m))
    .join(sep);
}

/**
 * Results of finished tool calls (`state: 'result'` with a result) in output order (SCORERS §3.3).
 *
 * @example
 * ```ts
 * extractToolResults(run.output).map((t) => JSON.stringify({ tool: t.toolName, result: t.result }));
 * ```
 */
export function extractToolResults(output: unknown): Array<{ toolName: string; toolCallId: string; args: unknown; result: unknown }> {
  const out: Array<{ toolName: string; toolCallId: string; args: unknown; result: unknown }> = [];
  for (const inv of allToolInvocations(output)) {
    if (inv.state !== 'result' || inv.result === undefined || typeof inv.toolName !== 'string') continue;
    out.push({ toolName: inv.toolName, toolCallId: inv.toolCallId ?? '', args: inv.args ?? {}, result: inv.result });
  }
  return out;
}
