/**
 * Short, display-ready excerpts of an agent run (input, output, tool calls) for the live page and
 * `score --format table`. Read through the helpers that accept both run message shapes, so they do not
 * depend on how a convention filled the run. The text is untrusted: callers escape it where they show it.
 */
import { getAssistantMessageFromRunOutput, getUserMessageFromRunInput, mergeToolInvocations } from '../extract/helpers.js';
import type { AgentRun } from '../model/agent-run.js';

/** One tool call of a run, shortened. */
export interface ToolExcerpt {
  name: string;
  /** `result` when it returned, `error` when it threw, `call` when no result was seen. */
  state: 'result' | 'error' | 'call';
  /** The result (or the error text), shortened; empty for `call`. */
  text: string;
}

/** What the page shows of a run. */
export interface RunExcerpt {
  input: string;
  output: string;
  tools: ToolExcerpt[];
  status: 'ok' | 'error';
}

/** Longest excerpts, in characters. */
export const EXCERPT_LIMITS = { input: 300, output: 500, tool: 200, tools: 4 } as const;

/**
 * `text` on one line (whitespace runs become one space) and at most `max` characters, with `…` when cut. A cut
 * never splits a surrogate pair.
 *
 * @example
 * ```ts
 * shorten('It is\n 21 °C in   Lisbon.', 12); // 'It is 21 °C…'
 * ```
 */
export function shorten(text: string, max: number): string {
  // Only the head can show (texts may be 32 KiB), and most texts need no collapsing: a regex replace over
  // every single space costs more than the rest of an excerpt.
  const head = text.length > max * 2 + 64 ? text.slice(0, max * 2 + 64) : text;
  const flat = (NEEDS_COLLAPSE.test(head) ? head.replace(WHITESPACE_RUNS, ' ') : head).trim();
  if (flat.length <= max && head.length === text.length) return flat;
  let end = Math.min(flat.length, Math.max(0, max - 1));
  // Never split a surrogate pair.
  const code = flat.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${flat.slice(0, end).trimEnd()}…`;
}

/** A run of two or more whitespace characters, or one that is not a plain space. */
const NEEDS_COLLAPSE = /\s{2,}|[^\S ]/;
const WHITESPACE_RUNS = /\s{2,}|[^\S ]/g;

/** Readable text of a tool result: a string as is, else its JSON (results are already capped by `extract.maxTextBytes`). */
function resultText(result: unknown, max: number): string {
  if (typeof result === 'string') return shorten(result, max);
  if (result === undefined) return '';
  try {
    return shorten(JSON.stringify(result) ?? typeof result, max);
  } catch {
    // A cycle or a BigInt: not JSON.
    return `(${typeof result})`;
  }
}

/** The excerpt of `run` (limits from {@link EXCERPT_LIMITS} unless given). */
export function runExcerpt(run: AgentRun, limits: { input: number; output: number; tool: number; tools: number } = EXCERPT_LIMITS): RunExcerpt {
  const tools: ToolExcerpt[] = [];
  const output: unknown = run.output;
  for (const message of Array.isArray(output) ? (output as unknown[]) : []) {
    for (const inv of mergeToolInvocations(message)) {
      if (tools.length >= limits.tools) break;
      const name = typeof inv.toolName === 'string' ? inv.toolName : '';
      if (inv.state === 'output-error' || inv.isError === true) {
        tools.push({ name, state: 'error', text: shorten(inv.errorText ?? (typeof inv.result === 'string' ? inv.result : 'error'), limits.tool) });
      } else if (inv.state === 'result') {
        tools.push({ name, state: 'result', text: typeof inv.resultText === 'string' ? shorten(inv.resultText, limits.tool) : resultText(inv.result, limits.tool) });
      } else {
        tools.push({ name, state: 'call', text: '' });
      }
    }
  }
  return {
    input: shorten(getUserMessageFromRunInput(run.input) ?? '', limits.input),
    output: shorten(getAssistantMessageFromRunOutput(run.output) ?? '', limits.output),
    tools,
    status: run.status,
  };
}
