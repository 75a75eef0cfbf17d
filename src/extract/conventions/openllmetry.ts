/**
 * OpenLLMetry / Traceloop: `traceloop.span.kind` agent / workflow / task / tool with
 * `traceloop.entity.input` (`{args, kwargs}`) / `traceloop.entity.output`, the legacy flattened
 * `gen_ai.prompt.{i}.*` / `gen_ai.completion.{i}.*` LLM spans, and (through the GenAI reader) the newer
 * JSON messages.
 */
import type { AttributeValue, Attributes, Span } from '../../model/span.js';
import { anyToMessages } from '../messages.js';
import { KEY_GEN_AI_COMPLETION, KEY_GEN_AI_PROMPT, KEY_OPENLLMETRY_LEGACY, KEY_OPENLLMETRY_MARKER } from '../key-flags.js';
import { asString, attr, attrStr, firstStr, isRecord, parseJsonish, unflatten } from '../values.js';
import type { JsonCache, SpanTree } from '../tree.js';
import { Deferred, systemTextsOfInput } from './lazy.js';
import { callbackArgs, callbackResult, chainValue, subAgentOfTask } from './langchain.js';
import { Facts, type ConventionSelector, type Msg, type NormToolCall, type SpanFacts } from './types.js';

/** The model keys, as a list read from every span this selector reads, made once rather than per call. */
const MODEL_KEYS = ['gen_ai.response.model', 'gen_ai.request.model'];

/** `{args, kwargs}` unwrapped: one positional argument, or the keyword arguments, or the whole record. */
function entityValue(v: unknown, j?: JsonCache): unknown {
  const x = parseJsonish(v, j);
  if (!isRecord(x) || !('args' in x || 'kwargs' in x)) return x;
  const args = Array.isArray(x.args) ? x.args : [];
  const kwargs = isRecord(x.kwargs) ? x.kwargs : {};
  const hasKw = Object.keys(kwargs).length > 0;
  if (args.length === 0) return kwargs;
  if (!hasKw) return args.length === 1 ? args[0] : args;
  return x;
}

/** A tool's arguments: LangChain's callback envelope (`{input_str, inputs, …}`) or `{args, kwargs}` unwrapped. */
function toolArgs(input: unknown, j: JsonCache): unknown {
  const x = parseJsonish(input, j);
  const inner = callbackArgs(x);
  return inner !== x ? inner : entityValue(x, j);
}

/** `present`: whether the span's key flags say some key starts with `prefix.` (else there is no message). */
function flatMsgs(a: Attributes, prefix: 'gen_ai.prompt' | 'gen_ai.completion', present: boolean, j: JsonCache): Msg[] {
  if (!present) return [];
  return unflatten(a, prefix).map((row: Record<string, AttributeValue>) => {
    const role = asString(row.role) ?? (prefix === 'gen_ai.prompt' ? 'user' : 'assistant');
    const msg: Msg = { role, text: asString(row.content) ?? '' };
    const calls = new Map<string, NormToolCall>();
    for (const [k, v] of Object.entries(row)) {
      const m = /^tool_calls\.(\d+)\.(id|name|arguments)$/.exec(k);
      if (!m) continue;
      const c = calls.get(m[1] as string) ?? { name: '', args: {} };
      if (m[2] === 'id') {
        const id = asString(v);
        if (id) c.id = id;
      } else if (m[2] === 'name') c.name = asString(v) ?? '';
      else c.args = parseJsonish(v, j);
      calls.set(m[1] as string, c);
    }
    const list = [...calls.entries()].sort((x, y) => Number(x[0]) - Number(y[0])).map((e) => e[1]).filter((c) => c.name);
    if (list.length > 0) msg.toolCalls = list;
    const finish = asString(row.finish_reason);
    if (finish) msg.finishReason = finish;
    if (role === 'tool') {
      const r: { id?: string; result: unknown } = { result: parseJsonish(row.content, j) };
      const id = asString(row.tool_call_id);
      if (id) r.id = id;
      msg.toolResults = [r];
    }
    return msg;
  });
}

/** `keyFlags`: the span's key families (`SpanTree.keyFlags`). */
function read(span: Span, tree: SpanTree, keyFlags: number, j: JsonCache): SpanFacts {
  const a = span.attributes;
  const kind = attrStr(a, 'traceloop.span.kind');
  const facts: SpanFacts = new Facts();
  const entityName = attrStr(a, 'traceloop.entity.name');
  const input = attr(a, 'traceloop.entity.input');
  const output = attr(a, 'traceloop.entity.output');
  const subAgent = kind === 'task' ? subAgentOfTask(tree, span) : undefined;
  if (subAgent !== undefined) {
    // A LangGraph sub-agent (see `subAgentOfTask`): its input and output are the graph state.
    facts.role = 'agent';
    facts.agentName = subAgent;
    if (input !== undefined) facts.input = Deferred.of(() => anyToMessages(chainValue(parseJsonish(input, j)), 'user', 0, j));
    if (output !== undefined) facts.output = anyToMessages(chainValue(parseJsonish(output, j)), 'assistant', 0, j);
    return facts;
  }
  if (kind === 'agent' || kind === 'workflow') {
    facts.role = kind === 'agent' ? 'agent' : 'workflow';
    const name = kind === 'agent' ? (entityName ?? attrStr(a, 'gen_ai.agent.name')) : (entityName ?? attrStr(a, 'traceloop.workflow.name'));
    if (name) facts.agentName = name;
  } else if (kind === 'tool') {
    facts.role = 'tool';
    facts.tool = { hasResult: output !== undefined };
    const name = entityName ?? attrStr(a, 'gen_ai.tool.name');
    if (name) facts.tool.name = name;
    if (input !== undefined) facts.tool.args = toolArgs(input, j);
    if (output !== undefined) {
      // LangChain (Python) tools: the callback's `{output, kwargs}` envelope around the ToolMessage.
      const lc = callbackResult(parseJsonish(output, j), j);
      facts.tool.result = lc !== undefined ? lc.result : entityValue(output, j);
      if (lc?.callId !== undefined) facts.tool.callId = lc.callId;
      if (lc?.isError === true) facts.tool.error = typeof lc.result === 'string' ? lc.result : 'tool error';
    }
    return facts;
  }
  const prompts = flatMsgs(a, 'gen_ai.prompt', (keyFlags & KEY_GEN_AI_PROMPT) !== 0, j);
  const completions = flatMsgs(a, 'gen_ai.completion', (keyFlags & KEY_GEN_AI_COMPLETION) !== 0, j);
  if (prompts.length > 0 || completions.length > 0 || attrStr(a, 'llm.request.type') !== undefined) {
    if (!facts.role) facts.role = 'llm';
    if (prompts.length > 0) facts.input = Deferred.known(prompts);
    if (completions.length > 0) facts.output = completions;
    else facts.missing = ['gen_ai.completion.0.content'];
  }
  if (!facts.input && input !== undefined) facts.input = Deferred.of(() => anyToMessages(entityValue(input, j), 'user', 0, j));
  if (!facts.output && output !== undefined) {
    facts.output = anyToMessages(entityValue(output, j), 'assistant', 0, j).map((m) => (m.role === 'user' ? { ...m, role: 'assistant' } : m));
  }
  const inputMsgs = facts.input;
  if (inputMsgs) facts.system = Deferred.from(systemTextsOfInput, inputMsgs);
  const model = firstStr(a, MODEL_KEYS);
  if (model) facts.model = model;
  return facts;
}

export const openllmetry: ConventionSelector = {
  name: 'openllmetry',
  detect: (span, tree) => {
    const flags = tree.keyFlags(span);
    return (
      ((flags & KEY_OPENLLMETRY_MARKER) !== 0 && (attr(span.attributes, 'traceloop.span.kind') !== undefined || attr(span.attributes, 'llm.request.type') !== undefined)) ||
      (flags & KEY_OPENLLMETRY_LEGACY) !== 0
    );
  },
  read: (span, tree) => read(span, tree, tree.keyFlags(span), tree.json),
};
