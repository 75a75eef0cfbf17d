/**
 * Vercel AI SDK telemetry: the legacy `ai.*` spans (`ai.generateText` / `ai.streamText` outer spans,
 * `.doGenerate` / `.doStream` provider calls, `ai.toolCall`) of v3–v7, and the v7 `@ai-sdk/otel`
 * GenAI form (`invoke_agent {modelId}`, `step {n}`, `chat`, `execute_tool`), whose span name carries the
 * model id, never the agent name.
 */
import type { Span } from '../../model/span.js';
import { anyToMessages, openAiToolCalls, outputText } from '../messages.js';
import type { JsonCache, SpanTree } from '../tree.js';
import { KEY_AI_OPERATION_ID, KEY_GEN_AI, KEY_MASTRA } from '../key-flags.js';
import { attr, attrJson, attrStr, firstCount, firstStr } from '../values.js';
import { readGenAi } from './genai.js';
import { Deferred, systemTextsOfInput } from './lazy.js';
import { Facts, type ConventionSelector, type Msg, type SpanFacts } from './types.js';

const OUTER: ReadonlySet<string> = new Set(['ai.generateText', 'ai.streamText', 'ai.generateObject', 'ai.streamObject']);
const INNER: ReadonlySet<string> = new Set(['ai.generateText.doGenerate', 'ai.streamText.doStream', 'ai.generateObject.doGenerate', 'ai.streamObject.doStream']);

const NAME_KEYS = ['ai.telemetry.functionId', 'resource.name', 'ai.telemetry.metadata.agent', 'ai.telemetry.metadata.agentName'];

/** Key lists read from every span this selector reads, made once rather than per call. */
const V7_NAME_KEYS = ['gen_ai.agent.name', ...NAME_KEYS];
const MODEL_KEYS = ['ai.response.model', 'ai.model.id', 'gen_ai.response.model', 'gen_ai.request.model'];
const INPUT_TOKEN_KEYS = ['ai.usage.inputTokens', 'ai.usage.promptTokens', 'gen_ai.usage.input_tokens'];
const OUTPUT_TOKEN_KEYS = ['ai.usage.outputTokens', 'ai.usage.completionTokens', 'gen_ai.usage.output_tokens'];

function operationId(span: Span): string {
  return attrStr(span.attributes, 'ai.operationId') ?? span.name;
}

const isStep = (s: Span | undefined, tree: SpanTree): boolean =>
  s !== undefined && (tree.keyFlags(s) & KEY_MASTRA) === 0 && attrStr(s.attributes, 'gen_ai.operation.name') === 'agent_step';

/** The span carries `ai.operationId` (the legacy `ai.*` form). */
const hasOperationId = (span: Span, tree: SpanTree): boolean =>
  (tree.keyFlags(span) & KEY_AI_OPERATION_ID) !== 0 && attr(span.attributes, 'ai.operationId') !== undefined;

/**
 * The v7 GenAI form: its scope is the generic `gen_ai`, so it is recognised by the AI-SDK-only `agent_step`
 * operation on the span itself, its parent (chat, execute_tool) or a child (invoke_agent).
 */
function isV7(span: Span, tree: SpanTree): boolean {
  // The last span answered for is remembered on the tree: `detect` and `read` both ask.
  const last = tree.memo.aiSdkV7;
  if (last !== undefined && last.span === span) return last.v7;
  const v7 = isV7Once(span, tree);
  // The memo's object is reused: one per trace rather than one per span.
  if (last !== undefined) {
    last.span = span;
    last.v7 = v7;
  } else tree.memo.aiSdkV7 = { span, v7 };
  return v7;
}
function isV7Once(span: Span, tree: SpanTree): boolean {
  const flags = tree.keyFlags(span);
  // Without a `gen_ai.*` key there is no `gen_ai.operation.name`; a Mastra span is Mastra's.
  if ((flags & KEY_GEN_AI) === 0 || (flags & KEY_MASTRA) !== 0) return false;
  const op = attrStr(span.attributes, 'gen_ai.operation.name');
  if (op === undefined) return false;
  if (op === 'agent_step' || span.scope.name === 'ai' || span.scope.name.startsWith('@ai-sdk/')) return true;
  return isStep(tree.parent(span), tree) || tree.children(span.spanId).some((c) => isStep(c, tree));
}

function usage(span: Span): SpanFacts['usage'] {
  const a = span.attributes;
  const inputTokens = firstCount(a, INPUT_TOKEN_KEYS);
  const outputTokens = firstCount(a, OUTPUT_TOKEN_KEYS);
  return inputTokens !== undefined || outputTokens !== undefined ? { inputTokens, outputTokens } : undefined;
}

function responseMessage(span: Span, j: JsonCache): Msg[] | undefined {
  const a = span.attributes;
  const text = attrStr(a, 'ai.response.text') ?? (attr(a, 'ai.response.object') !== undefined ? outputText(attr(a, 'ai.response.object'), 0, j) : undefined);
  const calls = openAiToolCalls(attr(a, 'ai.response.toolCalls'), j);
  if (text === undefined && calls.length === 0) return undefined;
  const msg: Msg = { role: 'assistant', text: text ?? '' };
  if (calls.length > 0) msg.toolCalls = calls;
  const finish = attrStr(a, 'ai.response.finishReason');
  if (finish) msg.finishReason = finish;
  return [msg];
}

function readLegacy(span: Span, j: JsonCache): SpanFacts {
  const a = span.attributes;
  const op = operationId(span);
  const facts: SpanFacts = new Facts();
  const model = firstStr(a, MODEL_KEYS);
  if (model) facts.model = model;
  const u = usage(span);
  if (u) facts.usage = u;
  if (OUTER.has(op)) {
    facts.role = 'agent';
    facts.agentName = firstStr(a, NAME_KEYS) ?? op;
    const prompt = attr(a, 'ai.prompt');
    if (prompt !== undefined) splitSystem(prompt, facts, j);
    const out = responseMessage(span, j);
    if (out) facts.output = out;
  } else if (INNER.has(op)) {
    facts.role = 'llm';
    const msgs = attr(a, 'ai.prompt.messages');
    if (msgs !== undefined) splitSystem(msgs, facts, j);
    const out = responseMessage(span, j);
    if (out) facts.output = out;
    else facts.missing = ['ai.response.text'];
  } else if (op === 'ai.toolCall') {
    facts.role = 'tool';
    const hasResult = attr(a, 'ai.toolCall.result') !== undefined || attr(a, 'ai.toolCall.output') !== undefined;
    facts.tool = { hasResult };
    const name = attrStr(a, 'ai.toolCall.name');
    if (name) facts.tool.name = name;
    const id = attrStr(a, 'ai.toolCall.id');
    if (id) facts.tool.callId = id;
    const args = attr(a, 'ai.toolCall.args') ?? attr(a, 'ai.toolCall.input');
    if (args !== undefined) facts.tool.args = attrJson(a, attr(a, 'ai.toolCall.args') !== undefined ? 'ai.toolCall.args' : 'ai.toolCall.input', j);
    if (hasResult) facts.tool.result = attrJson(a, attr(a, 'ai.toolCall.result') !== undefined ? 'ai.toolCall.result' : 'ai.toolCall.output', j);
  }
  return facts;
}

/**
 * `facts.input` and `facts.system` from one prompt, parsed when either is first read: `system` messages
 * go to `facts.system` (undefined when none), the rest to `facts.input`.
 */
function splitSystem(prompt: unknown, facts: SpanFacts, j: JsonCache): void {
  const msgs = Deferred.of(() => anyToMessages(prompt, 'user', 0, j));
  facts.input = Deferred.from(nonSystemOf, msgs);
  facts.system = Deferred.from(systemTextsOfInput, msgs);
}

function nonSystemOf(msgs: Deferred<Msg[]>): Msg[] | undefined {
  return msgs.value?.filter((m) => m.role !== 'system');
}

function readV7(span: Span, tree: SpanTree): SpanFacts {
  const facts = readGenAi(span, tree);
  const op = attrStr(span.attributes, 'gen_ai.operation.name');
  if (op === 'agent_step') facts.role = 'workflow';
  if (facts.role === 'agent') {
    facts.agentName = firstStr(span.attributes, V7_NAME_KEYS) ?? 'invoke_agent';
  } else {
    // Assigned rather than deleted: a delete would turn the object into a slow dictionary-mode one.
    facts.agentName = undefined;
  }
  return facts;
}

export const aisdk: ConventionSelector = {
  name: 'aisdk',
  detect: (span, tree) => hasOperationId(span, tree) || span.name.startsWith('ai.') || isV7(span, tree),
  read: (span, tree) => (!hasOperationId(span, tree) && isV7(span, tree) ? readV7(span, tree) : readLegacy(span, tree.json)),
};
