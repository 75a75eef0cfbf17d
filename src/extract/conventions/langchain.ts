/**
 * LangChain's own serialisations, which OpenInference and OpenLLMetry record as they are when they trace
 * LangChain and LangGraph (Python): messages as `{type, data: {content, …}}` (`messages_to_dict`) or
 * `{lc: 1, type: "constructor", id: [..., "AIMessage"], kwargs: {content, …}}` (`dumpd`), graph state
 * `{messages: [...]}`, and the tool callback's envelopes around a tool's real arguments and result.
 */
import type { Span } from '../../model/span.js';
import type { JsonCache, SpanTree } from '../tree.js';
import { asString, attr, attrStr, isRecord, parseJsonish } from '../values.js';

/** LangChain message types (`type`, or the class name of a `dumpd` record) → chat roles. */
const ROLE_OF: Readonly<Record<string, string>> = {
  human: 'user',
  HumanMessage: 'user',
  HumanMessageChunk: 'user',
  ai: 'assistant',
  AIMessage: 'assistant',
  AIMessageChunk: 'assistant',
  system: 'system',
  SystemMessage: 'system',
  tool: 'tool',
  ToolMessage: 'tool',
  function: 'tool',
  FunctionMessage: 'tool',
};

/**
 * A LangChain message as an OpenAI-style message record (`role`, `content`, `tool_calls`, `tool_call_id`,
 * `name`, `status`), or `undefined` when `v` is not one. LangChain's `tool_calls` are `{name, args, id}`,
 * which the OpenAI reader takes as they are.
 */
export function langChainMessage(v: Record<string, unknown>): Record<string, unknown> | undefined {
  // The cheap tests first: most records that reach here are messages with a role.
  if (v.role !== undefined || typeof v.type !== 'string') return undefined;
  let role: string | undefined;
  let body: unknown;
  if (v.lc === 1 && v.type === 'constructor' && Array.isArray(v.id)) {
    role = ROLE_OF[asString(v.id[v.id.length - 1]) ?? ''];
    body = v.kwargs;
  } else if (isRecord(v.data)) {
    role = ROLE_OF[v.type];
    body = v.data;
  }
  if (role === undefined || !isRecord(body) || !('content' in body)) return undefined;
  const out: Record<string, unknown> = { role, content: body.content };
  if (Array.isArray(body.tool_calls) && body.tool_calls.length > 0) out.tool_calls = body.tool_calls;
  for (const k of ['tool_call_id', 'name', 'status'] as const) if (typeof body[k] === 'string') out[k] = body[k];
  return out;
}

/** A tool's result read out of a LangChain `ToolMessage`: its content (JSON-parsed), call id and status. */
export interface ToolMessageResult {
  result: unknown;
  callId?: string;
  isError: boolean;
}

/** The result a `ToolMessage` (either serialisation) carries, or `undefined` when `v` is not one. */
export function toolMessageResult(v: unknown, j?: JsonCache): ToolMessageResult | undefined {
  if (!isRecord(v)) return undefined;
  const m = langChainMessage(v);
  if (m?.role !== 'tool') return undefined;
  const out: ToolMessageResult = { result: parseJsonish(m.content, j), isError: m.status === 'error' };
  const id = asString(m.tool_call_id);
  if (id !== undefined) out.callId = id;
  return out;
}

/**
 * The tool's arguments inside LangChain's `on_tool_start` callback envelope (`{input_str, inputs, tags,
 * metadata, …}`, as OpenLLMetry records it), or `v` itself when it is not that envelope.
 */
export function callbackArgs(v: unknown): unknown {
  if (isRecord(v) && 'inputs' in v && ('input_str' in v || 'metadata' in v || 'tags' in v)) return v.inputs;
  return v;
}

/**
 * The tool's result inside LangChain's `on_tool_end` callback envelope (`{output, kwargs}`), unwrapped from
 * the `ToolMessage` LangGraph's `ToolNode` returns; `undefined` when `v` is neither.
 */
export function callbackResult(v: unknown, j?: JsonCache): ToolMessageResult | undefined {
  const inner = isRecord(v) && 'output' in v && 'kwargs' in v ? parseJsonish(v.output, j) : v;
  const msg = toolMessageResult(inner, j);
  if (msg !== undefined) return msg;
  return inner !== v ? { result: inner, isError: false } : undefined;
}

/**
 * OpenLLMetry's LangChain instrumentation, for a compiled graph run as the node of another graph (a sub-agent),
 * writes an empty `invoke_agent <name>` span (no children, no content) beside the span that did the work: the
 * `task` span of the same entity name under the same parent. That task span is the sub-agent's run.
 */
const ENTITY_NAME = 'traceloop.entity.name';

function isEmptyAgentMarker(tree: SpanTree, s: Span, name: string): boolean {
  return (
    attrStr(s.attributes, 'gen_ai.operation.name') === 'invoke_agent' &&
    attrStr(s.attributes, 'gen_ai.agent.name') === name &&
    tree.children(s.spanId).length === 0 &&
    attr(s.attributes, 'gen_ai.input.messages') === undefined &&
    attr(s.attributes, 'gen_ai.output.messages') === undefined
  );
}

/** True for the empty `invoke_agent` marker that has a working `task` sibling of the same name. */
export function isSubAgentMarker(tree: SpanTree, span: Span): boolean {
  const name = attrStr(span.attributes, 'gen_ai.agent.name');
  const parent = tree.parent(span);
  if (name === undefined || parent === undefined || !isEmptyAgentMarker(tree, span, name)) return false;
  return tree.children(parent.spanId).some((s) => s !== span && attrStr(s.attributes, 'traceloop.span.kind') === 'task' && attrStr(s.attributes, ENTITY_NAME) === name);
}

/** The sub-agent name of a `task` span that an empty `invoke_agent` marker beside it names, or `undefined`. */
export function subAgentOfTask(tree: SpanTree, span: Span): string | undefined {
  const name = attrStr(span.attributes, ENTITY_NAME);
  const parent = tree.parent(span);
  if (name === undefined || parent === undefined) return undefined;
  return tree.children(parent.spanId).some((s) => s !== span && isEmptyAgentMarker(tree, s, name)) ? name : undefined;
}

const CALLBACK_KEYS: ReadonlySet<string> = new Set(['inputs', 'outputs', 'tags', 'metadata', 'kwargs', 'input_str']);

/** `{inputs: X, tags, metadata, kwargs}` / `{outputs: X, kwargs}` (a chain callback's record) unwrapped to `X`. */
export function chainValue(v: unknown): unknown {
  if (!isRecord(v) || !Object.keys(v).every((k) => CALLBACK_KEYS.has(k))) return v;
  return 'inputs' in v ? v.inputs : 'outputs' in v ? v.outputs : v;
}
