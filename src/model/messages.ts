/**
 * Builders and readers for the messages of an agent run, in Mastra's shapes (docs/records.md, "The agent
 * run"): a `RunMessage` is a Mastra format-2 database message, a `SystemMessage` a core system message, and
 * a `RunInput` Mastra's agent scorer input. Extraction, datasets, `runEvals` and tests all build them here,
 * so every message has the same layout: `content.parts` in order, `content.content` the joined text (omitted
 * when empty), `content.toolInvocations` the same invocations as the parts (omitted when none).
 */
import type { MessagePart, RunInput, RunMessage, SystemMessage, ToolInvocation } from './agent-run.js';

/** Where a built message gets its `id` and `createdAt` from. Both default to values that never change between runs. */
export interface MessageOptions {
  /** Default `'msg-0'`. Extraction passes an id derived from the span, so reruns give the same ids. */
  id?: string;
  /** RFC 3339; default the Unix epoch. */
  createdAt?: string;
}

const EPOCH = new Date(0).toISOString();

/**
 * A message from its parts, in the given order. Empty text parts are dropped (as Mastra does); the text
 * parts joined with newlines become `content.content`, the tool-invocation parts `content.toolInvocations`.
 *
 * @example
 * ```ts
 * messageFromParts('assistant', [{ type: 'text', text: 'Let me look.' }, { type: 'tool-invocation', toolInvocation: inv }], { id: 'a1' });
 * ```
 */
export function messageFromParts(role: RunMessage['role'], parts: readonly MessagePart[], options: MessageOptions = {}): RunMessage {
  return fromOwnParts(role, parts.slice(), options);
}

/**
 * `messageFromParts` over a parts list the message may keep (made by the caller for it, used by no one
 * else): the common message (nothing to drop) is built without a copy of its parts, and each list is made
 * at its first entry rather than grown from empty; messages are built for every run.
 */
function fromOwnParts(role: RunMessage['role'], parts: MessagePart[], options: MessageOptions): RunMessage {
  let kept: MessagePart[] | undefined;
  let text: string | undefined;
  let invocations: ToolInvocation[] | undefined;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i] as MessagePart;
    if (p.type === 'text') {
      const t = (p as { text?: unknown }).text;
      if (typeof t !== 'string' || t === '') {
        kept ??= parts.slice(0, i);
        continue;
      }
      text = text === undefined ? t : `${text}\n${t}`;
    } else if (p.type === 'tool-invocation') {
      const inv = (p as { toolInvocation: ToolInvocation }).toolInvocation;
      if (invocations === undefined) invocations = [inv];
      else invocations.push(inv);
    }
    kept?.push(p);
  }
  const content: RunMessage['content'] = { format: 2, parts: kept ?? parts };
  if (text !== undefined) content.content = text;
  if (invocations !== undefined) content.toolInvocations = invocations;
  return { id: options.id ?? 'msg-0', role, createdAt: options.createdAt ?? EPOCH, content };
}

const textPart = (text: string): MessagePart[] => (text === '' ? [] : [{ type: 'text', text }]);
const invocationParts = (invocations: readonly ToolInvocation[]): MessagePart[] => invocations.map((toolInvocation): MessagePart => ({ type: 'tool-invocation', toolInvocation }));

/**
 * A user message.
 *
 * @example
 * ```ts
 * userMessage('What is the capital of France?', { id: 'q1' }).content.content; // 'What is the capital of France?'
 * ```
 */
export function userMessage(text: string, options: MessageOptions = {}): RunMessage {
  return fromOwnParts('user', textPart(text), options);
}

/**
 * An agent's answer: the tool invocations it made, then its final text (the order in which they happened),
 * both as parts; the invocations also as the legacy `content.toolInvocations` array.
 *
 * @example
 * ```ts
 * assistantMessage('Paris.', [{ toolCallId: 'c1', toolName: 'lookup', args: {}, state: 'result', result: 'Paris' }]);
 * ```
 */
export function assistantMessage(text: string, invocations: readonly ToolInvocation[] = [], options: MessageOptions = {}): RunMessage {
  const parts = invocationParts(invocations);
  if (text !== '') parts.push({ type: 'text', text });
  return fromOwnParts('assistant', parts, options);
}

/** A message of any run role with text only (remembered turns, system prompts written as messages). */
export function textMessage(role: RunMessage['role'], text: string, options: MessageOptions = {}): RunMessage {
  return fromOwnParts(role, textPart(text), options);
}

/** A core system message. */
export function systemMessage(text: string): SystemMessage {
  return { role: 'system', content: text };
}

/**
 * An agent scorer input. A string is the user turn; missing lists default to empty.
 *
 * @example
 * ```ts
 * agentInput('hi').inputMessages[0]?.role; // 'user'
 * agentInput({ inputMessages: [userMessage('hi')], systemMessages: [systemMessage('Be brief.')] });
 * ```
 */
export function agentInput(input: string | Partial<RunInput>, options: MessageOptions = {}): RunInput {
  if (typeof input === 'string') return { inputMessages: [userMessage(input, options)], rememberedMessages: [], systemMessages: [], taggedSystemMessages: {} };
  return {
    inputMessages: input.inputMessages ?? [],
    rememberedMessages: input.rememberedMessages ?? [],
    systemMessages: input.systemMessages ?? [],
    taggedSystemMessages: input.taggedSystemMessages ?? {},
  };
}

/**
 * The plain text of a run message: `content.content`, else its text parts joined with newlines. A message
 * whose `content` is a string (the shape tracejudge wrote before it used Mastra's) gives that string.
 */
export function messageText(m: RunMessage): string {
  const c = m.content as RunMessage['content'] | string;
  if (typeof c === 'string') return c;
  if (typeof c.content === 'string') return c.content;
  let text = '';
  for (const p of c.parts ?? []) {
    if (p.type === 'text' && typeof p.text === 'string') text = text === '' ? p.text : `${text}\n${p.text}`;
  }
  return text;
}

/**
 * The tool invocations of a run message: its tool-invocation parts, then legacy `content.toolInvocations`
 * entries whose `toolCallId` no part has (also the top-level `toolInvocations` of the old tracejudge shape).
 */
export function messageInvocations(m: RunMessage): readonly ToolInvocation[] {
  const c = m.content as RunMessage['content'] | string;
  const legacy = [...(typeof c === 'object' ? (c.toolInvocations ?? []) : []), ...((m as { toolInvocations?: ToolInvocation[] }).toolInvocations ?? [])];
  const out: ToolInvocation[] = [];
  if (typeof c === 'object') for (const p of c.parts ?? []) if (p.type === 'tool-invocation') out.push(p.toolInvocation as ToolInvocation);
  if (out.length === 0) return legacy;
  const ids = new Set(out.map((i) => i.toolCallId));
  for (const l of legacy) if (!ids.has(l.toolCallId)) out.push(l);
  return out;
}
