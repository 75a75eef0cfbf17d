/**
 * OpenInference (Arize): `openinference.span.kind` AGENT / CHAIN / LLM / TOOL / RETRIEVER, generic
 * `input.value` / `output.value` with mime types, flattened `llm.input_messages.{i}.message.*` /
 * `llm.output_messages.{i}.message.*`, `tool.name`, and `retrieval.documents.{i}.document.content`.
 */
import type { AttributeValue, Attributes, Span } from '../../model/span.js';
import { anyToMessages } from '../messages.js';
import { KEY_LLM_INPUT_MESSAGES, KEY_LLM_OUTPUT_MESSAGES, KEY_OPENINFERENCE_KIND, KEY_RETRIEVAL_DOCUMENTS } from '../key-flags.js';
import type { JsonCache, SpanTree } from '../tree.js';
import { toolMessageResult } from './langchain.js';
import { CREWAI_SCOPE, crewAgentName, crewTaskOutput } from './crewai.js';
import { isLlamaIndexAgentRun, isLlamaIndexRequestBuilder, LLAMAINDEX_SCOPE, llamaIndexAgentName, llamaIndexToolArgs, llamaIndexToolOutput } from './llamaindex.js';
import { finalAnswerAsText, FINAL_ANSWER_TOOL, smolAgentName, SMOLAGENTS_SCOPE, smolTask, smolToolArgs } from './smolagents.js';
import { Deferred, systemTextsOfInput } from './lazy.js';
import { asString, attr, attrStr, firstCount, firstStr, isRecord, parseJsonish, unflatten } from '../values.js';
import { Facts, type ConventionSelector, type Msg, type NormToolCall, type SpanFacts, type SpanRole } from './types.js';

const ROLES: Record<string, SpanRole> = { AGENT: 'agent', LLM: 'llm', TOOL: 'tool', RETRIEVER: 'retriever', CHAIN: 'workflow' };

/** Key lists read from every span this selector reads, made once rather than per call. */
const NAME_KEYS = ['agent.name', 'graph.node.name'];
const TOOL_ID_KEYS = ['tool.id', 'tool_call.id'];
const MODEL_KEYS = ['llm.response.model_name', 'llm.model_name', 'llm.request.model_name'];
const INPUT_TOKEN_KEYS = ['llm.token_count.prompt'];
const OUTPUT_TOKEN_KEYS = ['llm.token_count.completion'];

/** What OpenInference writes in place of a value the app hides (`OPENINFERENCE_HIDE_INPUTS`, …): no content. */
const REDACTED = '__REDACTED__';

/** `input.value` / `output.value`: JSON-parsed when the mime type says JSON (or it looks like JSON); hidden ones absent. */
function ioValue(a: Attributes, which: 'input' | 'output', j: JsonCache): unknown {
  const v = attr(a, `${which}.value`);
  if (v === undefined || v === REDACTED) return undefined;
  const mime = attrStr(a, `${which}.mime_type`);
  return mime === 'text/plain' ? v : parseJsonish(v, j);
}

/**
 * Rebuilds `prefix.{i}.message.*` rows into messages. `present` is whether the span's key flags say some
 * key starts with `prefix.`: without one there is no row, and the key scan of `unflatten` is skipped.
 */
function flatMessages(a: Attributes, prefix: string, present: boolean, j: JsonCache): Msg[] {
  return present ? unflatten(a, prefix).map((row) => rowToMsg(row, j)) : [];
}

function rowToMsg(row: Record<string, AttributeValue>, j: JsonCache): Msg {
  const role = asString(row['message.role']) ?? 'user';
  let text = asString(row['message.content']) ?? '';
  if (!text) {
    const parts: string[] = [];
    for (const k in row) {
      if (!k.startsWith('message.contents.')) continue;
      const v = row[k];
      const m = /^message\.contents\.(\d+)\.message_content\.text$/.exec(k);
      if (m && typeof v === 'string') parts.push(v);
    }
    text = parts.join('\n');
  }
  const msg: Msg = { role, text };
  // Rows are plain objects made by `unflatten`: for-in visits exactly their own keys, in `Object.entries` order.
  let calls: Map<string, NormToolCall> | undefined;
  for (const k in row) {
    if (!k.startsWith('message.tool_calls.')) continue;
    const v = row[k];
    const m = /^message\.tool_calls\.(\d+)\.tool_call\.(id|function\.name|function\.arguments)$/.exec(k);
    if (!m) continue;
    const idx = m[1] as string;
    calls ??= new Map<string, NormToolCall>();
    const c = calls.get(idx) ?? { name: '', args: {} };
    if (m[2] === 'id') {
      const id = asString(v);
      if (id) c.id = id;
    } else if (m[2] === 'function.name') c.name = asString(v) ?? '';
    else c.args = parseJsonish(v, j);
    calls.set(idx, c);
  }
  const list = calls === undefined ? undefined : [...calls.entries()].sort((x, y) => Number(x[0]) - Number(y[0])).map((e) => e[1]).filter((c) => c.name);
  if (list !== undefined && list.length > 0) msg.toolCalls = list;
  if (role === 'tool') {
    const r: { id?: string; name?: string; result: unknown } = { result: parseJsonish(row['message.content'], j) };
    const id = asString(row['message.tool_call_id']);
    if (id) r.id = id;
    const name = asString(row['message.name']);
    if (name) r.name = name;
    msg.toolResults = [r];
  }
  return msg;
}

/**
 * The flattened input messages, else the parsed `input.value`. Flattened rows with no content at all (the
 * LangChain instrumentation writes only `llm.input_messages.0.message.role` on a LangGraph agent span, whose
 * user turn is in the graph state of `input.value`) do not hide `input.value`.
 */
function inputMessages(a: Attributes, keyFlags: number, j: JsonCache): Msg[] | undefined {
  const inMsgs = flatMessages(a, 'llm.input_messages', (keyFlags & KEY_LLM_INPUT_MESSAGES) !== 0, j);
  if (inMsgs.some((m) => m.text !== '' || m.toolCalls !== undefined || m.toolResults !== undefined)) return inMsgs;
  const input = ioValue(a, 'input', j);
  if (input !== undefined) return anyToMessages(input, 'user', 0, j);
  return inMsgs.length > 0 ? inMsgs : undefined;
}

/** The parsed `metadata` attribute (the LangChain instrumentation's run metadata), when it is a record. */
function metadataOf(span: Span, j: JsonCache): Record<string, unknown> | undefined {
  const meta = attr(span.attributes, 'metadata');
  if (meta === undefined) return undefined;
  const m = parseJsonish(meta, j);
  return isRecord(m) ? m : undefined;
}

/**
 * True for a LangGraph node span that the LangChain instrumentation marked AGENT because of its name (the
 * `agent` node of `create_react_agent` or of a hand-built graph; `metadata.langgraph_node` is its own name): one
 * step of the graph's run, not an agent invocation. A node that runs a compiled graph (a sub-agent) is one: its
 * graph's spans below it are in a nested checkpoint namespace (`<node>:<id>|…`); the compiled graph's own span
 * under it, of the same name, is then the step.
 */
function isGraphStep(tree: SpanTree, span: Span, j: JsonCache): boolean {
  const meta = metadataOf(span, j);
  if (meta?.langgraph_node !== span.name) return false;
  const parent = tree.parent(span);
  if (parent !== undefined && parent.name === span.name && metadataOf(parent, j)?.langgraph_node === span.name) return true;
  const ns = meta.langgraph_checkpoint_ns;
  return typeof ns !== 'string' || !hasNestedNamespace(tree, span, `${ns}|`, j);
}

/** Whether a span below `span` (bounded walk) runs in a checkpoint namespace under `prefix`. */
function hasNestedNamespace(tree: SpanTree, span: Span, prefix: string, j: JsonCache): boolean {
  const stack = [...tree.children(span.spanId)];
  for (let seen = 0; stack.length > 0 && seen < 10_000; seen++) {
    const s = stack.pop() as Span;
    const ns = metadataOf(s, j)?.langgraph_checkpoint_ns;
    if (typeof ns === 'string' && ns.startsWith(prefix)) return true;
    for (const c of tree.children(s.spanId)) stack.push(c);
  }
  return false;
}

/**
 * The call a LangGraph `ToolNode` made, recorded in full on the tool span's parent CHAIN span (`input.value`:
 * its `tool_call` with name, args and id, or the graph state holding it); the tool span itself has only the
 * first argument's value.
 */
function toolNodeCall(tree: SpanTree, span: Span, name: string, callId: string | undefined, j: JsonCache): { args: unknown; id?: string } | undefined {
  const parent = tree.parent(span);
  if (parent === undefined || attrStr(parent.attributes, 'openinference.span.kind') !== 'CHAIN') return undefined;
  const input = ioValue(parent.attributes, 'input', j);
  if (!isRecord(input)) return undefined;
  let call = input.tool_call;
  // A ToolNode run as a graph node gets the state: the call is the state's last AI message's of that id.
  if (call === undefined && callId !== undefined && Array.isArray(input.messages)) call = stateCall(input.messages, callId);
  if (!isRecord(call) || call.name !== name || !('args' in call)) return undefined;
  const id = asString(call.id);
  return id !== undefined ? { args: call.args, id } : { args: call.args };
}

/** The tool call of id `callId` in the AI messages of a LangGraph state, latest first. */
function stateCall(messages: readonly unknown[], callId: string): Record<string, unknown> | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    const data = isRecord(m) ? (isRecord(m.data) ? m.data : isRecord(m.kwargs) ? m.kwargs : m) : undefined;
    if (!isRecord(data) || !Array.isArray(data.tool_calls)) continue;
    for (const c of data.tool_calls) if (isRecord(c) && c.id === callId) return c;
  }
  return undefined;
}

/** A CrewAI agent span: named by its role; the task it was given is the user turn, the task's `raw` the answer. */
function crewAgentFacts(a: Attributes, facts: SpanFacts, j: JsonCache): SpanFacts {
  const name = firstStr(a, NAME_KEYS) ?? crewAgentName(a, ioValue(a, 'input', j));
  if (name !== undefined) facts.agentName = name;
  const task = crewTaskOutput(ioValue(a, 'output', j));
  if (task !== undefined) {
    facts.input = Deferred.known([{ role: 'user', text: task.task }]);
    facts.output = [{ role: 'assistant', text: task.answer }];
  }
  return facts;
}

/** `keyFlags`: the span's key families (`SpanTree.keyFlags`). */
function read(span: Span, tree: SpanTree, keyFlags: number, j: JsonCache): SpanFacts {
  const a = span.attributes;
  const kind = (attrStr(a, 'openinference.span.kind') ?? '').toUpperCase();
  const smol = span.scope.name === SMOLAGENTS_SCOPE;
  let role = kind === 'AGENT' && isGraphStep(tree, span, j) ? 'workflow' : ROLES[kind];
  // The LangChain instrumentation marks any run with "agent" in its name AGENT, a tool too (`ask_order_agent`, an
  // agent called from a tool); `tool.name`, set on tool runs only, says what it is.
  if (role === 'agent' && attrStr(a, 'tool.name') !== undefined) role = 'tool';
  // smolagents' answer tool carries the reply (read from the LLM's call), not a tool result.
  if (smol && role === 'tool' && attrStr(a, 'tool.name') === FINAL_ANSWER_TOOL) role = 'workflow';
  // A LlamaIndex agent workflow has no AGENT span: its top-level `<Agent>.run` span is the agent's run, whose
  // start state and cut-off result repr are no messages (the user turn and answer are its LLM calls').
  const llamaRun = span.scope.name === LLAMAINDEX_SCOPE && role === 'workflow' && isLlamaIndexAgentRun(span);
  if (llamaRun) role = 'agent';
  // `<LLM>._prepare_chat_with_tools` builds the request (kind LLM, no messages): the model call is its sibling.
  else if (role === 'llm' && span.scope.name === LLAMAINDEX_SCOPE && isLlamaIndexRequestBuilder(span)) role = 'workflow';
  const facts: SpanFacts = new Facts();
  if (role) facts.role = role;
  if (llamaRun) {
    const agentName = llamaIndexAgentName(tree, span);
    if (agentName !== undefined) facts.agentName = agentName;
    return facts;
  }
  if (role === 'agent' && span.scope.name === CREWAI_SCOPE) return crewAgentFacts(a, facts, j);
  const name = firstStr(a, NAME_KEYS) ?? (smol && role === 'agent' ? smolAgentName(span.name) : undefined);
  if (name && role === 'agent') facts.agentName = name;
  // `input.value` / `output.value` are parsed only when used: an LLM span carries its messages flattened
  // and the whole provider request / response again as JSON there.
  if (role === 'tool') {
    const llama = span.scope.name === LLAMAINDEX_SCOPE;
    let input = smol ? smolToolArgs(ioValue(a, 'input', j)) : llama ? llamaIndexToolArgs(ioValue(a, 'input', j)) : ioValue(a, 'input', j);
    let output = ioValue(a, 'output', j);
    const toolOutput = llama ? llamaIndexToolOutput(output) : undefined;
    if (toolOutput !== undefined) {
      output = toolOutput.result;
      if (toolOutput.isError) facts.error = typeof output === 'string' ? output : 'tool error';
    }
    const name = attrStr(a, 'tool.name') ?? span.name;
    facts.tool = { name, hasResult: output !== undefined };
    let id = firstStr(a, TOOL_ID_KEYS);
    // LangChain tools: the result is the ToolMessage the tool callback saw (its content is the result).
    const message = toolMessageResult(output, j);
    if (message !== undefined) {
      output = message.result;
      id ??= message.callId;
      if (message.isError) facts.tool.error = typeof output === 'string' ? output : 'tool error';
    }
    const call = message !== undefined ? toolNodeCall(tree, span, name, id, j) : undefined;
    if (call !== undefined && (call.id === undefined || id === undefined || call.id === id)) {
      input = call.args;
      id ??= call.id;
    }
    if (id) facts.tool.callId = id;
    if (input !== undefined) facts.tool.args = input;
    if (output !== undefined) facts.tool.result = output;
  } else {
    const flatOut = flatMessages(a, 'llm.output_messages', (keyFlags & KEY_LLM_OUTPUT_MESSAGES) !== 0, j);
    const outMsgs = smol ? finalAnswerAsText(flatOut) : flatOut;
    const output = outMsgs.length > 0 ? undefined : ioValue(a, 'output', j);
    if (outMsgs.length > 0) facts.output = outMsgs;
    else if (output !== undefined) facts.output = anyToMessages(output, 'assistant', 0, j).map((m) => (m.role === 'user' ? { ...m, role: 'assistant' } : m));
    // The input (and the system prompt inside it) is read when a run asks for it.
    const task = smol && role === 'agent' ? smolTask(ioValue(a, 'input', j)) : undefined;
    const input = task !== undefined ? Deferred.known(anyToMessages(task, 'user', 0, j)) : Deferred.of(() => inputMessages(a, keyFlags, j));
    facts.input = input;
    facts.system = Deferred.from(systemTextsOfInput, input);
    if (role === 'llm' && !facts.output) facts.missing = ['llm.output_messages', 'output.value'];
  }
  if ((keyFlags & KEY_RETRIEVAL_DOCUMENTS) !== 0) {
    const docs = unflatten(a, 'retrieval.documents')
      .map((row) => asString(row['document.content']))
      .filter((t): t is string => t !== undefined);
    if (docs.length > 0) facts.documents = docs;
  }
  const model = firstStr(a, MODEL_KEYS);
  if (model) facts.model = model;
  const inputTokens = firstCount(a, INPUT_TOKEN_KEYS);
  const outputTokens = firstCount(a, OUTPUT_TOKEN_KEYS);
  if (inputTokens !== undefined || outputTokens !== undefined) facts.usage = { inputTokens, outputTokens };
  return facts;
}

export const openinference: ConventionSelector = {
  name: 'openinference',
  detect: (span, tree) => (tree.keyFlags(span) & KEY_OPENINFERENCE_KIND) !== 0 && attr(span.attributes, 'openinference.span.kind') !== undefined,
  read: (span, tree) => read(span, tree, tree.keyFlags(span), tree.json),
};
