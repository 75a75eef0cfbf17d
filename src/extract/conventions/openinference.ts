/**
 * OpenInference (Arize): `openinference.span.kind` AGENT / CHAIN / LLM / TOOL / RETRIEVER, generic
 * `input.value` / `output.value` with mime types, flattened `llm.input_messages.{i}.message.*` /
 * `llm.output_messages.{i}.message.*`, `tool.name`, and `retrieval.documents.{i}.document.content`.
 */
import type { AttributeValue, Attributes } from '../../model/span.js';
import { anyToMessages } from '../messages.js';
import { KEY_LLM_INPUT_MESSAGES, KEY_LLM_OUTPUT_MESSAGES, KEY_OPENINFERENCE_KIND, KEY_RETRIEVAL_DOCUMENTS } from '../key-flags.js';
import type { JsonCache } from '../tree.js';
import { Deferred, systemTextsOfInput } from './lazy.js';
import { asString, attr, attrStr, firstCount, firstStr, parseJsonish, unflatten } from '../values.js';
import { Facts, type ConventionSelector, type Msg, type NormToolCall, type SpanFacts, type SpanRole } from './types.js';

const ROLES: Record<string, SpanRole> = { AGENT: 'agent', LLM: 'llm', TOOL: 'tool', RETRIEVER: 'retriever', CHAIN: 'workflow' };

/** Key lists read from every span this selector reads, made once rather than per call. */
const NAME_KEYS = ['agent.name', 'graph.node.name'];
const TOOL_ID_KEYS = ['tool.id', 'tool_call.id'];
const MODEL_KEYS = ['llm.response.model_name', 'llm.model_name', 'llm.request.model_name'];
const INPUT_TOKEN_KEYS = ['llm.token_count.prompt'];
const OUTPUT_TOKEN_KEYS = ['llm.token_count.completion'];

/** `input.value` / `output.value`: JSON-parsed when the mime type says JSON (or it looks like JSON). */
function ioValue(a: Attributes, which: 'input' | 'output', j: JsonCache): unknown {
  const v = attr(a, `${which}.value`);
  if (v === undefined) return undefined;
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

/** The flattened input messages, else the parsed `input.value`. */
function inputMessages(a: Attributes, keyFlags: number, j: JsonCache): Msg[] | undefined {
  const inMsgs = flatMessages(a, 'llm.input_messages', (keyFlags & KEY_LLM_INPUT_MESSAGES) !== 0, j);
  if (inMsgs.length > 0) return inMsgs;
  const input = ioValue(a, 'input', j);
  return input !== undefined ? anyToMessages(input, 'user', 0, j) : undefined;
}

/** `keyFlags`: the span's key families (`SpanTree.keyFlags`). */
function read(span: { attributes: Attributes; name: string }, keyFlags: number, j: JsonCache): SpanFacts {
  const a = span.attributes;
  const kind = (attrStr(a, 'openinference.span.kind') ?? '').toUpperCase();
  const role = ROLES[kind];
  const facts: SpanFacts = new Facts();
  if (role) facts.role = role;
  const name = firstStr(a, NAME_KEYS);
  if (name && role === 'agent') facts.agentName = name;
  // `input.value` / `output.value` are parsed only when used: an LLM span carries its messages flattened
  // and the whole provider request / response again as JSON there.
  if (role === 'tool') {
    const input = ioValue(a, 'input', j);
    const output = ioValue(a, 'output', j);
    facts.tool = { name: attrStr(a, 'tool.name') ?? span.name, hasResult: output !== undefined };
    const id = firstStr(a, TOOL_ID_KEYS);
    if (id) facts.tool.callId = id;
    if (input !== undefined) facts.tool.args = input;
    if (output !== undefined) facts.tool.result = output;
  } else {
    const outMsgs = flatMessages(a, 'llm.output_messages', (keyFlags & KEY_LLM_OUTPUT_MESSAGES) !== 0, j);
    const output = outMsgs.length > 0 ? undefined : ioValue(a, 'output', j);
    if (outMsgs.length > 0) facts.output = outMsgs;
    else if (output !== undefined) facts.output = anyToMessages(output, 'assistant', 0, j).map((m) => (m.role === 'user' ? { ...m, role: 'assistant' } : m));
    // The input (and the system prompt inside it) is read when a run asks for it.
    const input = Deferred.of(() => inputMessages(a, keyFlags, j));
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
  read: (span, tree) => read(span, tree.keyFlags(span), tree.json),
};
