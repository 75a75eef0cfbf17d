/** The one-pass key-family scan agrees with a prefix (or exact key) test per family, key by key. */
import { describe, expect, it } from 'vitest';
import {
  KEY_AI_OPERATION_ID,
  KEY_ERROR,
  KEY_GEN_AI,
  KEY_GEN_AI_AGENT,
  KEY_GEN_AI_COMPLETION,
  KEY_GEN_AI_CONTENT,
  KEY_GEN_AI_PROMPT,
  KEY_GEN_AI_RETRIEVAL,
  KEY_GEN_AI_TOOL,
  KEY_GEN_AI_USAGE,
  KEY_LLM_INPUT_MESSAGES,
  KEY_LLM_OUTPUT_MESSAGES,
  KEY_MASTRA,
  KEY_OPENINFERENCE_KIND,
  KEY_OPENLLMETRY_LEGACY,
  KEY_OPENLLMETRY_MARKER,
  KEY_RETRIEVAL_DOCUMENTS,
  keyFlagsOf,
} from '../../src/extract/key-flags.js';

const prefixFamilies: Array<[number, readonly string[]]> = [
  [KEY_MASTRA, ['mastra.']],
  [KEY_GEN_AI, ['gen_ai.']],
  [KEY_OPENLLMETRY_LEGACY, ['gen_ai.prompt.0.', 'gen_ai.completion.0.', 'traceloop.entity.']],
  [KEY_GEN_AI_PROMPT, ['gen_ai.prompt.']],
  [KEY_GEN_AI_COMPLETION, ['gen_ai.completion.']],
  [KEY_LLM_INPUT_MESSAGES, ['llm.input_messages.']],
  [KEY_LLM_OUTPUT_MESSAGES, ['llm.output_messages.']],
  [KEY_RETRIEVAL_DOCUMENTS, ['retrieval.documents.']],
  [KEY_GEN_AI_AGENT, ['gen_ai.agent.']],
  [KEY_GEN_AI_TOOL, ['gen_ai.tool.']],
  [KEY_GEN_AI_USAGE, ['gen_ai.usage.']],
  [KEY_GEN_AI_RETRIEVAL, ['gen_ai.retrieval.']],
  [KEY_ERROR, ['error.']],
];
const exactFamilies: Array<[number, readonly string[]]> = [
  [KEY_GEN_AI_CONTENT, ['gen_ai.input.messages', 'gen_ai.output.messages', 'gen_ai.system_instructions']],
  [KEY_OPENINFERENCE_KIND, ['openinference.span.kind']],
  [KEY_OPENLLMETRY_MARKER, ['traceloop.span.kind', 'llm.request.type']],
  [KEY_AI_OPERATION_ID, ['ai.operationId']],
];
const expected = (keys: readonly string[]): number => {
  let f = 0;
  for (const [flag, prefixes] of prefixFamilies) if (keys.some((k) => prefixes.some((p) => k.startsWith(p)))) f |= flag;
  for (const [flag, names] of exactFamilies) if (keys.some((k) => names.includes(k))) f |= flag;
  return f;
};

const pool = [
  'mastra.span.type', 'mastra', 'mastra_x', 'Mastra.x', '', 'gen_ai', 'gen_ai.request.model', 'gen_ai.prompt.0.role',
  'gen_ai.prompt.1.role', 'gen_ai.prompt', 'gen_ai.completion.0.content', 'gen_ai.completion.2.content', 'traceloop.entity.input',
  'traceloop.span.kind', 'traceloop.span.kinds', 'llm.request.type', 'llm.input_messages.0.message.role', 'llm.input_messages',
  'llm.output_messages.3.message.content', 'retrieval.documents.0.document.content', 'retrieval.documents', 'gen_ai.agent.name',
  'gen_ai.agent', 'gen_ai.tool.call.result', 'gen_ai.usage.input_tokens', 'gen_ai.retrieval.documents', 'error.type', 'error',
  'gen_ai.input.messages', 'gen_ai.input.messages.0', 'gen_ai.output.messages', 'gen_ai.system_instructions',
  'openinference.span.kind', 'openinference.span', 'ai.operationId', 'ai.operationIdx', 'toString', 'constructor',
];

describe('keyFlagsOf', () => {
  it('flags each key exactly by its families', () => {
    for (const k of pool) expect(keyFlagsOf({ [k]: 'v' }), k).toBe(expected([k]));
  });

  it('sets each family exactly when some key belongs to it (deterministic key sets)', () => {
    let x = 7;
    for (let n = 0; n < 3000; n++) {
      const keys: string[] = [];
      for (const k of pool) {
        x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
        if (x % 5 === 0) keys.push(k);
      }
      expect(keyFlagsOf(Object.fromEntries(keys.map((k) => [k, 'v'])))).toBe(expected(keys));
    }
  });

  it('stays exact after its key cache fills and starts over', () => {
    for (let i = 0; i < 10_000; i++) keyFlagsOf({ [`custom.key.${i}`]: 1, [`gen_ai.x${i}`]: 1 });
    for (const k of pool) expect(keyFlagsOf({ [k]: 'v', 'custom.key.1': 1 }), k).toBe(expected([k]));
  });

  it('flags keys too long to be cached the same way, every time', () => {
    const long = 'x'.repeat(200);
    const keys = pool.map((k) => `${k}${long}`);
    for (let round = 0; round < 2; round++) for (const k of keys) expect(keyFlagsOf({ [k]: 'v' }), k).toBe(expected([k]));
  });
});
