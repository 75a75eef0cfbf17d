/**
 * What the OpenInference smolagents instrumentation writes its own way: the agent span is named
 * `<agent name>.run` (no `agent.name`) with `input.value` `{task, stream, reset, …}`; a tool span's
 * `input.value` is the call's `{args, kwargs, sanitize_inputs_outputs}`; and a run ends with a call of the
 * `final_answer` tool, whose argument is the answer: it is the agent's reply, not a tool the agent used.
 */
import type { Msg } from './types.js';
import { isRecord } from '../values.js';

export const SMOLAGENTS_SCOPE = 'openinference.instrumentation.smolagents';

/** smolagents' answer tool. */
export const FINAL_ANSWER_TOOL = 'final_answer';

/** The agent name in a smolagents agent span name (`order_agent.run` → `order_agent`). */
export function smolAgentName(spanName: string): string | undefined {
  const m = /^(.+)\.run$/.exec(spanName);
  return m?.[1];
}

/** The task of a smolagents run input (`{task, …}`), or `undefined`. */
export function smolTask(input: unknown): string | undefined {
  return isRecord(input) && typeof input.task === 'string' ? input.task : undefined;
}

/** A tool call's arguments: the keyword arguments of `{args: [], kwargs}`, the positional ones when only those. */
export function smolToolArgs(input: unknown): unknown {
  if (!isRecord(input) || !('kwargs' in input) || !('args' in input)) return input;
  const args = Array.isArray(input.args) ? input.args : [];
  if (args.length === 0) return input.kwargs;
  return isRecord(input.kwargs) && Object.keys(input.kwargs).length > 0 ? input : args.length === 1 ? args[0] : args;
}

/** LLM output messages with each `final_answer` call turned into the message's text. */
export function finalAnswerAsText(msgs: Msg[]): Msg[] {
  return msgs.map((m) => {
    const calls = m.toolCalls;
    if (calls === undefined || !calls.some((c) => c.name === FINAL_ANSWER_TOOL)) return m;
    const answer = calls.find((c) => c.name === FINAL_ANSWER_TOOL)?.args;
    const text = typeof answer === 'string' ? answer : isRecord(answer) && typeof answer.answer === 'string' ? answer.answer : '';
    const rest = calls.filter((c) => c.name !== FINAL_ANSWER_TOOL);
    const out: Msg = { ...m, text: m.text || text };
    if (rest.length > 0) out.toolCalls = rest;
    else delete out.toolCalls;
    return out;
  });
}
