/**
 * LangChain's own serialisations, which OpenInference and OpenLLMetry record as they are when they trace
 * LangChain and LangGraph (Python): messages as `{type, data: {content, …}}` (`messages_to_dict`) or
 * `{lc: 1, type: "constructor", id: [..., "AIMessage"], kwargs: {content, …}}` (`dumpd`), graph state
 * `{messages: [...]}`, and the tool callback's envelopes around a tool's real arguments and result.
 */
import type { JsonCache } from '../tree.js';
import { asString, isRecord, parseJsonish } from '../values.js';

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
