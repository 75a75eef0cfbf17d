/**
 * What the OpenInference LlamaIndex instrumentation writes its own way for an agent workflow (`FunctionAgent`,
 * `ReActAgent`, `AgentWorkflow`): no AGENT span, but a top-level CHAIN span `<Agent class>.run` whose
 * `input.value` is the workflow's start state and whose `output.value` a cut-off repr; the agent's name only in
 * the reprs of its workflow events (`current_agent_name='…'`); and tool spans whose `input.value` is
 * `{kwargs}` and `output.value` LlamaIndex's `ToolOutput` (`{blocks, raw_output, is_error, …}`).
 */
import type { Span } from '../../model/span.js';
import type { SpanTree } from '../tree.js';
import { attrStr, isRecord } from '../values.js';

export const LLAMAINDEX_SCOPE = 'openinference.instrumentation.llama_index';

/** True for the top-level run span of a LlamaIndex agent workflow. */
export function isLlamaIndexAgentRun(span: Span): boolean {
  return span.parentSpanId === '' && /(?:Agent|AgentWorkflow)\.run$/.test(span.name);
}

/** True for the span that only prepares a model request (`OpenAI._prepare_chat_with_tools`), not the call. */
export function isLlamaIndexRequestBuilder(span: Span): boolean {
  return span.name.endsWith('._prepare_chat_with_tools');
}

const AGENT_NAME = /current_agent_name='([^']+)'/;

/** The agent's name, from the first workflow event of the run that names it (its children's inputs and outputs). */
export function llamaIndexAgentName(tree: SpanTree, span: Span): string | undefined {
  for (const c of tree.children(span.spanId)) {
    for (const key of ['input.value', 'output.value']) {
      const m = AGENT_NAME.exec(attrStr(c.attributes, key) ?? '');
      if (m?.[1] !== undefined) return m[1];
    }
  }
  return undefined;
}

/** A tool call's arguments: the `kwargs` of `{kwargs}` (and of `{args: [], kwargs}`). */
export function llamaIndexToolArgs(input: unknown): unknown {
  if (!isRecord(input) || !isRecord(input.kwargs)) return input;
  const args = Array.isArray(input.args) ? input.args : [];
  return args.length === 0 && Object.keys(input).every((k) => k === 'kwargs' || k === 'args') ? input.kwargs : input;
}

/** The tool's own return value in a `ToolOutput`, and whether the call failed; `undefined` when not one. */
export function llamaIndexToolOutput(output: unknown): { result: unknown; isError: boolean } | undefined {
  if (!isRecord(output) || !('raw_output' in output) || !('tool_name' in output)) return undefined;
  return { result: output.raw_output, isError: output.is_error === true };
}
