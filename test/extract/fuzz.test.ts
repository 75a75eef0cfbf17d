/**
 * Extraction never throws: random attribute types and shapes on every key the selectors read, random
 * events and log bodies, random tree shapes. Seeded PRNG, bounded iterations.
 */
import { describe, expect, it } from 'vitest';
import { createMappingSelector } from '../../src/extract/conventions/mapping.js';
import { extractTraces } from '../../src/api/extract.js';
import { BUILTIN_SELECTORS } from '../../src/extract/facts.js';
import { buildSpanTree } from '../../src/extract/tree.js';
import { extractSection } from '../../src/config/sections/extract.js';
import { extractToolCalls, extractToolResults, getAssistantMessageFromRunOutput, getSystemMessagesFromRunInput, getUserMessageFromRunInput } from '../../src/extract/helpers.js';
import type { AttributeValue, LogRecord, Span } from '../../src/model/span.js';
import { IN_HOUSE_MAPPING } from './fixture-io.js';
import { seededRandom } from '../seeded-random.js';

const KEYS = [
  'gen_ai.operation.name', 'gen_ai.agent.name', 'gen_ai.agent.id', 'gen_ai.input.messages', 'gen_ai.output.messages', 'gen_ai.system_instructions',
  'gen_ai.tool.name', 'gen_ai.tool.call.id', 'gen_ai.tool.call.arguments', 'gen_ai.tool.call.result', 'gen_ai.retrieval.documents',
  'gen_ai.request.model', 'gen_ai.response.model', 'gen_ai.usage.input_tokens', 'gen_ai.usage.output_tokens', 'gen_ai.usage.prompt_tokens', 'error.type',
  'ai.operationId', 'ai.telemetry.functionId', 'ai.prompt', 'ai.prompt.messages', 'ai.response.text', 'ai.response.toolCalls', 'ai.response.object',
  'ai.toolCall.name', 'ai.toolCall.id', 'ai.toolCall.args', 'ai.toolCall.result', 'ai.usage.inputTokens', 'ai.model.id',
  'openinference.span.kind', 'input.value', 'input.mime_type', 'output.value', 'output.mime_type', 'agent.name', 'tool.name', 'tool.id',
  'llm.input_messages.0.message.role', 'llm.input_messages.0.message.content', 'llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments',
  'llm.output_messages.x.message.role', 'retrieval.documents.0.document.content', 'llm.model_name', 'llm.token_count.prompt',
  'traceloop.span.kind', 'traceloop.entity.name', 'traceloop.entity.input', 'traceloop.entity.output', 'llm.request.type',
  'gen_ai.prompt.0.role', 'gen_ai.prompt.0.content', 'gen_ai.completion.0.content', 'gen_ai.completion.0.tool_calls.0.arguments', 'gen_ai.prompt',
  'gen_ai.completion', 'mastra.span.type', 'mastra.agent_run.input', 'mastra.agent_run.output', 'gen_ai.tool.input', 'gen_ai.tool.output',
  'gen_ai.tool.success', 'agent.id', 'input', 'output', 'error', 'tracejudge.ground_truth', 'app.agent', 'app.request', 'app.response', 'app.tokens',
  'app.tool.args', 'app.tool.output', 'app.model', '__proto__x', 'constructor',
];
const NAMES = ['invoke_agent', 'chat gpt-4o', 'execute_tool x', 'ai.generateText', 'ai.generateText.doGenerate', 'ai.toolCall', 'agent.a', 'tool.execute t', 'agent:x', 'tool:y', 'llm:z', 'x.workflow', ''];
const STRINGS = ['', 'null', '[]', '{}', '[{"role":"user"}]', '[{"role":"assistant","parts":[{"type":"tool_call"}]}]', '{"args":[1,2],"kwargs":{"a":null}}', '"quoted"', '{bad json', 'AGENT', 'LLM', 'TOOL', 'RETRIEVER', 'agent', 'tool', 'workflow', 'invoke_agent', 'chat', 'execute_tool', 'agent_run', 'tool_call', 'model_generation', 'agent_step', '[{"type":"text","content":null}]', '{"messages":{"not":"array"}}', '{"content":[{"type":"text","text":5}]}', 'Error: x'];

function randomValue(r: () => number, depth: number): AttributeValue {
  const k = Math.floor(r() * (depth > 2 ? 6 : 9));
  switch (k) {
    case 0: return STRINGS[Math.floor(r() * STRINGS.length)] as string;
    case 1: return Math.floor(r() * 2000) - 1000;
    case 2: return r() < 0.5 ? NaN : r() * 1e20;
    case 3: return r() < 0.5;
    case 4: return BigInt(Math.floor(r() * 1e9));
    case 5: return r() < 0.5 ? null : new Uint8Array([1, 2, 3]);
    case 6: return Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, depth + 1));
    default: {
      const o: Record<string, AttributeValue> = {};
      for (let i = 0; i < Math.floor(r() * 4); i++) o[['role', 'content', 'parts', 'type', 'text', 'tool_calls', 'id', 'message', 'body'][Math.floor(r() * 9)] as string] = randomValue(r, depth + 1);
      return o;
    }
  }
}

function randomTrace(r: () => number): { spans: Span[]; logs: LogRecord[] } {
  const traceId = 'abcdefabcdefabcdefabcdefabcdef01';
  const n = 1 + Math.floor(r() * 8);
  const ids = Array.from({ length: n }, (_, i) => (i + 1).toString(16).padStart(16, '0'));
  const spans: Span[] = ids.map((id, i) => {
    const attributes: Record<string, AttributeValue> = {};
    for (let j = 0; j < 1 + Math.floor(r() * 10); j++) attributes[KEYS[Math.floor(r() * KEYS.length)] as string] = randomValue(r, 0);
    const parent = r() < 0.2 ? '' : r() < 0.1 ? 'ffffffffffffffff' : (ids[Math.floor(r() * n)] as string);
    return {
      traceId, spanId: id, parentSpanId: parent, traceState: '', flags: 0, name: NAMES[Math.floor(r() * NAMES.length)] as string, kind: 1,
      startTimeUnixNano: BigInt(Math.floor(r() * 100)), endTimeUnixNano: BigInt(Math.floor(r() * 200)), attributes,
      events: r() < 0.3 ? [{ timeUnixNano: 1n, name: ['exception', 'gen_ai.choice', 'gen_ai.user.message', 'gen_ai.tool.message', 'gen_ai.content.prompt'][Math.floor(r() * 5)] as string, attributes: { content: randomValue(r, 0), message: randomValue(r, 0), 'gen_ai.prompt': randomValue(r, 0) } }] : [],
      links: [], status: { code: r() < 0.2 ? 2 : 0, message: '' }, resource: { attributes: { 'service.name': randomValue(r, 0) } }, scope: { name: r() < 0.2 ? 'ai' : 'x', version: '', attributes: {} },
    } satisfies Span;
    void i;
  });
  const logs: LogRecord[] = r() < 0.5 ? [{ timeUnixNano: 2n, observedTimeUnixNano: 2n, severityNumber: 9, severityText: '', eventName: ['gen_ai.choice', 'gen_ai.assistant.message', 'gen_ai.tool.message'][Math.floor(r() * 3)] as string, body: randomValue(r, 0), attributes: {}, traceId, spanId: ids[0] as string, flags: 0, resource: { attributes: {} }, scope: { name: '', version: '', attributes: {} } }] : [];
  return { spans, logs };
}

describe('fuzz: extraction never throws', () => {
  it('2000 random traces with and without a mapping', () => {
    const r = seededRandom(20260101);
    let runs = 0;
    for (let i = 0; i < 2000; i++) {
      const t = randomTrace(r);
      const options = i % 2 === 0 ? { ...IN_HOUSE_MAPPING, maxTextBytes: 64, redact: [{ pattern: 'a', replacement: 'b' }] } : {};
      const out = extractTraces(t, options);
      for (const tr of out) {
        for (const c of tr.contexts) {
          runs++;
          // Everything a run carries must be JSON-serialisable and the helpers must accept it.
          expect(() => JSON.stringify(c.run)).not.toThrow();
          expect(c.run.toolResults).toEqual(extractToolResults(c.run.output));
          extractToolCalls(c.run.output);
          getUserMessageFromRunInput(c.run.input);
          getAssistantMessageFromRunOutput(c.run.output);
          getSystemMessagesFromRunInput(c.run.input);
        }
      }
    }
    expect(runs).toBeGreaterThan(100);
  });

  it('no selector throws on its own (extraction skips a throwing selector, so check them directly)', () => {
    const r = seededRandom(7);
    const mapping = createMappingSelector(extractSection.parse(IN_HOUSE_MAPPING).mapping);
    let reads = 0;
    for (let i = 0; i < 1000; i++) {
      const t = randomTrace(r);
      const tree = buildSpanTree(t.spans[0]?.traceId ?? '', t.spans, t.logs);
      for (const s of tree.ordered) {
        for (const sel of [mapping, ...BUILTIN_SELECTORS]) {
          if (sel.detect(s, tree)) {
            sel.read(s, tree);
            reads++;
          }
        }
      }
    }
    expect(reads).toBeGreaterThan(1000);
  });
});
