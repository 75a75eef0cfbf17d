/**
 * Mastra's OpenTelemetry exporter: the current GenAI form (`invoke_agent {agent}` / `execute_tool {tool}`
 * with `mastra.agent_run.input` / `.output` and `mastra.metadata.*`; the GenAI keys come from the GenAI
 * reader) and the early form (`agent.{agentId}`, `tool.execute {toolId}`, `chat {model}` with generic
 * `input` / `output`, `gen_ai.prompt` / `gen_ai.completion`, `gen_ai.tool.input` / `.output`).
 */
import type { Span } from '../../model/span.js';
import { anyToMessages, outputText } from '../messages.js';
import type { JsonCache } from '../tree.js';
import { KEY_MASTRA } from '../key-flags.js';
import { attr, attrStr, firstStr, parseJsonish } from '../values.js';
import { Deferred, systemTextsOfInput } from './lazy.js';
import { Facts, type ConventionSelector, type Msg, type SpanFacts, type SpanRole } from './types.js';

const TYPE_ROLES: Record<string, SpanRole> = {
  agent_run: 'agent',
  model_generation: 'llm',
  llm_generation: 'llm',
  tool_call: 'tool',
  mcp_tool_call: 'tool',
  provider_tool_call: 'tool',
  workflow_run: 'workflow',
};

/** Key lists read from every span this selector reads, made once rather than per call. */
const AGENT_NAME_KEYS = ['gen_ai.agent.name', 'gen_ai.agent.id', 'agent.id', 'mastra.metadata.agentName'];
const MODEL_KEYS = ['gen_ai.response.model', 'gen_ai.request.model'];

function isOldAgent(span: Span): boolean {
  return span.name.startsWith('agent.') && (attr(span.attributes, 'agent.id') !== undefined || attrStr(span.attributes, 'gen_ai.operation.name') === 'agent.run');
}

function isOldTool(span: Span): boolean {
  return span.name.startsWith('tool.execute ') || attrStr(span.attributes, 'gen_ai.operation.name') === 'tool.execute';
}

function roleOf(span: Span): SpanRole | undefined {
  const t = attrStr(span.attributes, 'mastra.span.type');
  if (t && TYPE_ROLES[t]) return TYPE_ROLES[t];
  if (isOldAgent(span)) return 'agent';
  if (isOldTool(span)) return 'tool';
  const op = attrStr(span.attributes, 'gen_ai.operation.name');
  if (op === 'tool_selection' || (op === 'chat' && attr(span.attributes, 'gen_ai.prompt') !== undefined)) return 'llm';
  return undefined;
}

function agentNameOf(span: Span): string | undefined {
  const fromAttrs = firstStr(span.attributes, AGENT_NAME_KEYS);
  if (fromAttrs) return fromAttrs;
  if (span.name.startsWith('invoke_agent ')) return span.name.slice('invoke_agent '.length);
  if (span.name.startsWith('agent.')) return span.name.slice('agent.'.length);
  return undefined;
}

function asAssistant(v: unknown, j: JsonCache): Msg[] {
  const t = outputText(v, 0, j);
  return t ? [{ role: 'assistant', text: t }] : [];
}

function read(span: Span, j: JsonCache): SpanFacts {
  const a = span.attributes;
  const role = roleOf(span);
  const facts: SpanFacts = new Facts();
  if (role) facts.role = role;
  if (role === 'agent') {
    const name = agentNameOf(span);
    if (name) facts.agentName = name;
    const input = attr(a, 'mastra.agent_run.input') ?? attr(a, 'mastra.input') ?? attr(a, 'input');
    if (input !== undefined) facts.input = Deferred.of(() => anyToMessages(input, 'user', 0, j));
    const output = attr(a, 'mastra.agent_run.output') ?? attr(a, 'mastra.output') ?? attr(a, 'output');
    if (output !== undefined) facts.output = asAssistant(output, j);
    const sys = attrStr(a, 'gen_ai.system_instructions');
    if (sys && !sys.trimStart().startsWith('[')) facts.system = Deferred.known([sys]);
  } else if (role === 'tool') {
    const hasResult = attr(a, 'gen_ai.tool.output') !== undefined || (attr(a, 'gen_ai.tool.call.result') === undefined && attr(a, 'output') !== undefined);
    facts.tool = {};
    const name = attrStr(a, 'gen_ai.tool.name') ?? (span.name.startsWith('tool.execute ') ? span.name.slice('tool.execute '.length) : undefined);
    if (name) facts.tool.name = name;
    const args = attr(a, 'gen_ai.tool.input') ?? (attr(a, 'gen_ai.tool.call.arguments') === undefined ? attr(a, 'input') : undefined);
    if (args !== undefined) facts.tool.args = parseJsonish(args, j);
    if (hasResult) {
      facts.tool.hasResult = true;
      facts.tool.result = parseJsonish(attr(a, 'gen_ai.tool.output') ?? attr(a, 'output'), j);
    }
    if (a['gen_ai.tool.success'] === false) facts.tool.error = firstStr(a, ['error.message']) ?? 'tool reported failure';
  } else if (role === 'llm') {
    const prompt = attr(a, 'gen_ai.prompt') ?? attr(a, 'input');
    if (prompt !== undefined && attr(a, 'gen_ai.input.messages') === undefined) facts.input = Deferred.of(() => anyToMessages(prompt, 'user', 0, j));
    const completion = attr(a, 'gen_ai.completion') ?? attr(a, 'output');
    if (completion !== undefined && attr(a, 'gen_ai.output.messages') === undefined) facts.output = asAssistant(completion, j);
  }
  const input = facts.input;
  if (input && !facts.system) facts.system = Deferred.from(systemTextsOfInput, input);
  if (a.error === true) facts.error = firstStr(a, ['error.message', 'error.type']) ?? 'error';
  const model = firstStr(a, MODEL_KEYS);
  if (model) facts.model = model;
  return facts;
}

export const mastra: ConventionSelector = {
  name: 'mastra',
  // `mastra.span.type` is one of the `mastra.*` keys the flag stands for.
  detect: (span, tree) =>
    span.scope.name === '@mastra/otel' ||
    (tree.keyFlags(span) & KEY_MASTRA) !== 0 ||
    isOldAgent(span) ||
    isOldTool(span),
  read: (span, tree) => read(span, tree.json),
};
