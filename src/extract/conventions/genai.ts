/**
 * OTel GenAI semantic conventions, all generations: current `invoke_agent` / `chat` / `execute_tool` spans
 * with JSON message parts; the `gen_ai.client.inference.operation.details` event form; the v1.26 prompt /
 * completion span events; and the v1.28–v1.36 per-message events (`gen_ai.user.message`, `gen_ai.choice`,
 * `gen_ai.tool.message`, …) as span events or correlated log records.
 */
import type { Attributes, Span } from '../../model/span.js';
import { anyToMessages, openAiToolCalls, textOfContent } from '../messages.js';
import type { JsonCache, SpanTree, SpanEventLike } from '../tree.js';
import { KEY_ERROR, KEY_GEN_AI, KEY_GEN_AI_AGENT, KEY_GEN_AI_CONTENT, KEY_GEN_AI_RETRIEVAL, KEY_GEN_AI_TOOL, KEY_GEN_AI_USAGE } from '../key-flags.js';
import { attr, attrJson, attrStr, firstCount, firstStr, isRecord, asString, parseJsonish } from '../values.js';
import { callbackArgs, callbackResult, isSubAgentMarker } from './langchain.js';
import { Deferred } from './lazy.js';
import { Facts, type ConventionSelector, type Msg, type SpanFacts, type SpanRole } from './types.js';

const OP_ROLES: Record<string, SpanRole> = {
  invoke_agent: 'agent',
  chat: 'llm',
  generate_content: 'llm',
  text_completion: 'llm',
  execute_tool: 'tool',
  retrieval: 'retriever',
  invoke_workflow: 'workflow',
};

const MESSAGE_EVENTS: ReadonlySet<string> = new Set([
  'gen_ai.system.message',
  'gen_ai.user.message',
  'gen_ai.assistant.message',
  'gen_ai.tool.message',
  'gen_ai.choice',
  'gen_ai.content.prompt',
  'gen_ai.content.completion',
  'gen_ai.client.inference.operation.details',
]);

/** Key lists read from every span this selector reads, made once rather than per call. */
const AGENT_NAME_KEYS = ['gen_ai.agent.name', 'gen_ai.agent.id'];
const MODEL_KEYS = ['gen_ai.response.model', 'gen_ai.request.model'];
const INPUT_TOKEN_KEYS = ['gen_ai.usage.input_tokens', 'gen_ai.usage.prompt_tokens'];
const OUTPUT_TOKEN_KEYS = ['gen_ai.usage.output_tokens', 'gen_ai.usage.completion_tokens'];

/** GenAI role of a span from its operation name, else from its span name prefix. */
function genAiRole(span: Span): SpanRole | undefined {
  const op = attrStr(span.attributes, 'gen_ai.operation.name');
  if (op && OP_ROLES[op]) return OP_ROLES[op];
  if (op) return undefined;
  const sp = span.name.indexOf(' ');
  const first = sp < 0 ? span.name : span.name.slice(0, sp);
  if (OP_ROLES[first]) return OP_ROLES[first];
  return undefined;
}

function contentEvents(tree: SpanTree, span: Span): readonly SpanEventLike[] {
  const events = tree.eventsOf(span.spanId);
  // Most spans have no events: no filtered copy for them.
  return events.length === 0 ? events : events.filter((e) => MESSAGE_EVENTS.has(e.name));
}

/** System instructions: a parts array, a string, or an array of strings. */
function systemInstructions(v: unknown, j?: JsonCache): string[] {
  const x = parseJsonish(v, j);
  if (typeof x === 'string') return x ? [x] : [];
  if (Array.isArray(x)) {
    const texts = x.map((p) => (typeof p === 'string' ? p : isRecord(p) && (p.type === undefined || p.type === 'text') ? textOfContent(p.content ?? p.text) : '')).filter((t) => t.length > 0);
    return texts.length > 0 ? [texts.join('\n')] : [];
  }
  if (isRecord(x)) {
    const t = textOfContent(x);
    return t ? [t] : [];
  }
  return [];
}

/** The event body: the log record body, else the span event attributes as an object. */
function eventBody(e: SpanEventLike, j: JsonCache): Record<string, unknown> {
  const b = e.body !== undefined && e.body !== null ? parseJsonish(e.body, j) : undefined;
  if (isRecord(b)) return b;
  if (typeof b === 'string') return { content: b };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(e.attributes)) {
    const key = k.startsWith('gen_ai.event.') ? k.slice('gen_ai.event.'.length) : k;
    out[key] = parseJsonish(v, j);
  }
  // A span event may carry the whole body as one JSON attribute.
  if (isRecord(out.body)) return out.body;
  return out;
}

/** Reads the content events of a span into input / output messages. */
function readEvents(events: readonly SpanEventLike[], facts: SpanFacts, j: JsonCache): void {
  if (events.length === 0) return;
  const input: Msg[] = [];
  const output: Msg[] = [];
  for (const e of events) {
    if (e.name === 'gen_ai.client.inference.operation.details') {
      readContentAttributes(e.attributes, facts, j);
      continue;
    }
    if (e.name === 'gen_ai.content.prompt') {
      input.push(...anyToMessages(attr(e.attributes, 'gen_ai.prompt'), 'user', 0, j));
      continue;
    }
    if (e.name === 'gen_ai.content.completion') {
      output.push(...anyToMessages(attr(e.attributes, 'gen_ai.completion'), 'assistant', 0, j));
      continue;
    }
    const body = eventBody(e, j);
    if (e.name === 'gen_ai.choice') {
      const m = isRecord(body.message) ? body.message : body;
      const msg: Msg = { role: asString(m.role) ?? 'assistant', text: textOfContent(m.content) };
      const calls = openAiToolCalls(m.tool_calls ?? body.tool_calls, j);
      if (calls.length > 0) msg.toolCalls = calls;
      const finish = asString(body.finish_reason);
      if (finish) msg.finishReason = finish;
      output.push(msg);
      continue;
    }
    const role = e.name.slice('gen_ai.'.length, -'.message'.length);
    const msg: Msg = { role: asString(body.role) ?? role, text: role === 'tool' ? '' : textOfContent(body.content) };
    if (role === 'assistant') {
      const calls = openAiToolCalls(body.tool_calls, j);
      if (calls.length > 0) msg.toolCalls = calls;
    }
    if (role === 'tool') {
      const r: { id?: string; result: unknown } = { result: parseJsonish(body.content, j) };
      const id = asString(body.id) ?? asString(body.tool_call_id);
      if (id) r.id = id;
      msg.toolResults = [r];
    }
    input.push(msg);
  }
  if (input.length > 0 && !facts.input) facts.input = Deferred.known(input);
  if (output.length > 0 && !facts.output) facts.output = output;
}

/** `gen_ai.input.messages` / `gen_ai.output.messages` / `gen_ai.system_instructions` of an attribute set. */
function readContentAttributes(a: Attributes, facts: SpanFacts, j: JsonCache): void {
  const input = attr(a, 'gen_ai.input.messages');
  if (input !== undefined && !facts.input) facts.input = Deferred.of(() => anyToMessages(input, 'user', 0, j));
  const output = attr(a, 'gen_ai.output.messages');
  if (output !== undefined && !facts.output) facts.output = anyToMessages(output, 'assistant', 0, j);
  const sys = attr(a, 'gen_ai.system_instructions');
  if (sys !== undefined && !facts.system) facts.system = Deferred.of(() => systemInstructions(sys, j));
}

/**
 * Reads the generic GenAI keys; other selectors reuse it for the `gen_ai.*` copies they carry. The last
 * span read is remembered on the tree: the AI SDK v7 selector reads a span through `readGenAi` and the
 * GenAI selector then reads the same span again. Callers get their own shallow copy (the AI SDK one
 * rewrites top-level fields); nested values are shared and never mutated.
 */
export function readGenAi(span: Span, tree: SpanTree): SpanFacts {
  return { ...sharedGenAi(span, tree) };
}

/**
 * The remembered facts themselves, for the GenAI selector: the merge only reads them, so they need no copy
 * (nor does a span that no other selector reads through `readGenAi`, the usual case). Never mutate them.
 */
function sharedGenAi(span: Span, tree: SpanTree): SpanFacts {
  const last = tree.memo.genAi;
  if (last !== undefined && last.span === span) return last.facts;
  const facts = readGenAiOnce(span, tree);
  // The memo's object is reused: one per trace rather than one per span.
  if (last !== undefined) {
    last.span = span;
    last.facts = facts;
  } else tree.memo.genAi = { span, facts };
  return facts;
}

/** Each group of keys is looked up only when the span's key flags say it has a key of that family. */
function readGenAiOnce(span: Span, tree: SpanTree): SpanFacts {
  const a = span.attributes;
  const flags = tree.keyFlags(span);
  const facts: SpanFacts = new Facts();
  let role = genAiRole(span);
  const events = contentEvents(tree, span);
  if (!role && events.length > 0) role = 'llm';
  if (!role && (attr(a, 'gen_ai.request.model') !== undefined || attr(a, 'gen_ai.input.messages') !== undefined)) role = 'llm';
  // OpenLLMetry's empty marker for a LangGraph sub-agent: the task span beside it is the run.
  if (role === 'agent' && isSubAgentMarker(tree, span)) role = 'workflow';
  if (role) facts.role = role;
  const name = (flags & KEY_GEN_AI_AGENT) !== 0 ? firstStr(a, AGENT_NAME_KEYS) : undefined;
  if (name) facts.agentName = name;
  else if (role === 'agent' && span.name.startsWith('invoke_agent ')) facts.agentName = span.name.slice('invoke_agent '.length);
  if ((flags & KEY_GEN_AI_CONTENT) !== 0) readContentAttributes(a, facts, tree.json);
  readEvents(events, facts, tree.json);
  if (role === 'tool' || ((flags & KEY_GEN_AI_TOOL) !== 0 && attr(a, 'gen_ai.tool.name') !== undefined)) {
    const toolName = attrStr(a, 'gen_ai.tool.name') ?? (span.name.startsWith('execute_tool ') ? span.name.slice('execute_tool '.length) : undefined);
    const hasResult = attr(a, 'gen_ai.tool.call.result') !== undefined;
    facts.tool = { hasResult };
    if (toolName) facts.tool.name = toolName;
    const id = attrStr(a, 'gen_ai.tool.call.id');
    if (id) facts.tool.callId = id;
    // LangChain (Python, through OpenLLMetry) puts its tool callback's envelopes here: the real arguments are
    // their `inputs`, the real result the content of the ToolMessage in `output`.
    if (attr(a, 'gen_ai.tool.call.arguments') !== undefined) facts.tool.args = callbackArgs(attrJson(a, 'gen_ai.tool.call.arguments', tree.json));
    if (hasResult) {
      const result = attrJson(a, 'gen_ai.tool.call.result', tree.json);
      const lc = callbackResult(result, tree.json);
      facts.tool.result = lc !== undefined ? lc.result : result;
      if (lc?.callId !== undefined) facts.tool.callId ??= lc.callId;
      if (lc?.isError === true) facts.tool.error = typeof lc.result === 'string' ? lc.result : 'tool error';
    }
  }
  const docs = (flags & KEY_GEN_AI_RETRIEVAL) !== 0 ? attrJson(a, 'gen_ai.retrieval.documents', tree.json) : undefined;
  if (Array.isArray(docs)) {
    const texts = docs.map((d) => (typeof d === 'string' ? d : isRecord(d) ? textOfContent(d.content ?? d.text ?? d.page_content) : '')).filter((t) => t.length > 0);
    if (texts.length > 0) facts.documents = texts;
  }
  const model = firstStr(a, MODEL_KEYS);
  if (model) facts.model = model;
  if ((flags & KEY_GEN_AI_USAGE) !== 0) {
    const inputTokens = firstCount(a, INPUT_TOKEN_KEYS);
    const outputTokens = firstCount(a, OUTPUT_TOKEN_KEYS);
    if (inputTokens !== undefined || outputTokens !== undefined) facts.usage = { inputTokens, outputTokens };
  }
  const err = (flags & KEY_ERROR) !== 0 ? attrStr(a, 'error.type') : undefined;
  if (err) facts.error = firstStr(a, ['error.message']) ?? err;
  if (role === 'llm' && !facts.output) facts.missing = ['gen_ai.output.messages'];
  return facts;
}

export const genai: ConventionSelector = {
  name: 'genai',
  // A span with `gen_ai.operation.name` has a `gen_ai.*` key: the flag answers for both.
  detect: (span, tree) => (tree.keyFlags(span) & KEY_GEN_AI) !== 0 || genAiRole(span) !== undefined || contentEvents(tree, span).length > 0,
  read: sharedGenAi,
};
