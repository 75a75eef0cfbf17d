/**
 * Message helpers for the code scorers. The Mastra-compatible helpers (docs/scorers.md) live in
 * `src/extract/helpers.ts` and are re-exported here; the joins below are the code scorers' own.
 */
import { getTextContentFromMastraDBMessage, mergeToolInvocations } from '../../extract/helpers.js';
import type { ToolInvocation } from '../../model/agent-run.js';

export { extractToolCalls, extractToolResults, getTextContentFromMastraDBMessage, mergeToolInvocations } from '../../extract/helpers.js';

/** A tool invocation as found in parts or legacy arrays (fields may be missing in odd input). */
export type InvocationLike = Partial<ToolInvocation>;

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
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
