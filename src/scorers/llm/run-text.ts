/**
 * The run readers the LLM scorers need (docs/scorers.md), with the reference's semantics, over the Mastra
 * format-2 message that runs carry (`RunMessage`), and still over the shape tracejudge wrote before
 * (`content: string`, `toolInvocations` beside it), which custom callers may pass.
 * The shared readers come from `src/extract/helpers.ts`; the ones only the LLM scorers need live here.
 */
export {
  getUserMessageFromRunInput,
  getAssistantMessageFromRunOutput,
  getSystemMessagesFromRunInput,
  getCombinedSystemPrompt,
  extractToolResults,
} from '../../extract/helpers.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const nonEmpty = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

function lastTextPart(parts: readonly unknown[]): string | undefined {
  for (let i = parts.length - 1; i >= 0; i--) {
    const p = parts[i];
    if (isObj(p) && p.type === 'text') return typeof p.text === 'string' ? p.text : undefined;
  }
  return undefined;
}

/** The reference's internal `textOf`: string, last text part, or content/text/body/parts of an object. */
export function textOf(value: unknown, depth = 0): string | undefined {
  if (depth > 6) return undefined;
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (Array.isArray(value)) return nonEmpty(lastTextPart(value));
  if (isObj(value)) return textOf(value.content, depth + 1) ?? nonEmpty(value.text) ?? nonEmpty(value.body) ?? textOf(value.parts, depth + 1);
  return undefined;
}

function roleOf(m: unknown): string | undefined {
  if (!isObj(m)) return undefined;
  if (m.role !== 'signal') return typeof m.role === 'string' ? m.role : undefined;
  const signal = isObj(m.content) && isObj(m.content.metadata) && isObj(m.content.metadata.signal) ? m.content.metadata.signal : undefined;
  const r = signal?.tagName ?? signal?.type ?? m.type;
  return typeof r === 'string' ? r : undefined;
}

const listOf = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Every assistant message text (literal role `assistant`), in order. */
export function getAssistantMessages(output: unknown): string[] {
  if (!Array.isArray(output)) return [];
  return output.filter((m) => isObj(m) && m.role === 'assistant').map((m) => textOf(m) ?? '');
}

/** Last `maxMessages` remembered messages as `"role: text"` lines, or undefined. */
export function getConversationHistoryFromRunInput(input: unknown, maxMessages = 10): string | undefined {
  if (!isObj(input) || !Array.isArray(input.inputMessages) || maxMessages <= 0) return undefined;
  const lines: string[] = [];
  for (const m of listOf(input.rememberedMessages).slice(-maxMessages)) {
    const role = roleOf(m);
    const t = textOf(m)?.trim();
    if (role && t) lines.push(`${role}: ${t}`);
  }
  return lines.length > 0 ? lines.join('\n') : undefined;
}

/** A tool invocation as found in parts or legacy arrays. */
export interface Invocation {
  toolCallId?: string;
  toolName?: string;
  args?: unknown;
  state?: string;
  result?: unknown;
}

function invocations(message: unknown): Invocation[] {
  if (!isObj(message)) return [];
  const c = message.content;
  const parts: Invocation[] = [];
  const rawParts = isObj(c) && Array.isArray(c.parts) ? c.parts : Array.isArray(c) ? c : [];
  for (const p of rawParts) if (isObj(p) && p.type === 'tool-invocation' && isObj(p.toolInvocation)) parts.push(p.toolInvocation);
  const legacy = listOf(isObj(c) && Array.isArray(c.toolInvocations) ? c.toolInvocations : message.toolInvocations).filter(isObj) as Invocation[];
  const seen = new Set(parts.map((p) => p.toolCallId));
  return [...parts, ...legacy.filter((l) => !seen.has(l.toolCallId))];
}

/** Names of the tools called (states result / call / output-error), in order, duplicates kept. */
export function extractToolNames(output: unknown): string[] {
  const out: string[] = [];
  for (const m of listOf(output)) {
    for (const inv of invocations(m)) {
      if (typeof inv.toolName === 'string' && (inv.state === 'result' || inv.state === 'call' || inv.state === 'output-error')) out.push(inv.toolName);
    }
  }
  return out;
}

/** Faithfulness's built-in context: `JSON.stringify(result)` of legacy `content.toolInvocations` (or `toolInvocations`) results. */
export function legacyToolResultStrings(output: unknown): string[] {
  const out: string[] = [];
  for (const m of listOf(output)) {
    if (!isObj(m) || m.role !== 'assistant') continue;
    const c = m.content;
    const legacy = listOf(isObj(c) && Array.isArray(c.toolInvocations) ? c.toolInvocations : m.toolInvocations);
    for (const inv of legacy) if (isObj(inv) && inv.state === 'result') out.push(JSON.stringify(inv.result));
  }
  return out;
}

/** True when the input has the agent shape (`inputMessages` array). */
export function isAgentInput(input: unknown): boolean {
  return isObj(input) && Array.isArray(input.inputMessages);
}
