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
  KeyFlagTable,
  keyFlagsOf,
} from '../../src/extract/key-flags.js';
import { seededRandom } from '../seeded-random.js';

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
  // Keys that are exactly a prefix.
  'mastra.', 'gen_ai.', 'error.', 'gen_ai.tool.', 'llm.input_messages.', 'traceloop.entity.',
];

/** `count` key sets drawn from `pool`, each key kept with probability `share` (seeded: the same sets on every machine). */
function* keySets(seed: number, count: number, share: number): Generator<string[]> {
  const random = seededRandom(seed);
  for (let n = 0; n < count; n++) yield pool.filter(() => random() < share);
}

describe('keyFlagsOf', () => {
  it('flags each key exactly by its families', () => {
    for (const k of pool) expect(keyFlagsOf({ [k]: 'v' }), k).toBe(expected([k]));
  });

  it('sets each family exactly when some key belongs to it (deterministic key sets)', () => {
    for (const keys of keySets(7, 3000, 0.2)) expect(keyFlagsOf(Object.fromEntries(keys.map((k) => [k, 'v'])))).toBe(expected(keys));
  });
});

describe('KeyFlagTable', () => {
  it('answers as keyFlagsOf, from its remembered keys too (deterministic key sets, asked twice)', () => {
    const table = new KeyFlagTable();
    for (const keys of keySets(11, 2000, 0.25)) {
      const attrs = Object.fromEntries(keys.map((k) => [k, 'v']));
      expect(table.flagsOf(attrs)).toBe(expected(keys));
      expect(table.flagsOf(attrs)).toBe(keyFlagsOf(attrs));
    }
  });

  it('stays exact after it fills and starts over, and never holds more than maxKeys keys', () => {
    const table = new KeyFlagTable(100, 128);
    for (let i = 0; i < 1000; i++) {
      table.flagsOf({ [`custom.key.${i}`]: 1, [`gen_ai.x${i}`]: 1 });
      expect(table.tables()[0]?.entries).toBeLessThanOrEqual(100);
    }
    for (const k of pool) expect(table.flagsOf({ [k]: 'v', 'custom.key.1': 1 }), k).toBe(expected([k]));
  });

  it('does not remember keys longer than maxKeyLength, and flags them the same way every time', () => {
    const table = new KeyFlagTable(4096, 128);
    const keys = pool.map((k) => `${k}${'x'.repeat(200)}`);
    for (let round = 0; round < 2; round++) for (const k of keys) expect(table.flagsOf({ [k]: 'v' }), k).toBe(expected([k]));
    expect(table.tables()).toEqual([{ table: 'extract.key_flags', entries: 0, bytes: 0 }]);
  });

  it('reports what it holds: one entry per distinct key, bytes growing with the key text; tables share nothing', () => {
    const a = new KeyFlagTable();
    const b = new KeyFlagTable();
    a.flagsOf({ 'gen_ai.agent.name': 1, 'mastra.span.type': 1 });
    a.flagsOf({ 'gen_ai.agent.name': 1 });
    const [short] = a.tables();
    expect(short?.entries).toBe(2);
    a.flagsOf({ ['k'.repeat(100)]: 1 });
    const [longer] = a.tables();
    expect(longer?.entries).toBe(3);
    expect((longer?.bytes ?? 0) - (short?.bytes ?? 0)).toBeGreaterThanOrEqual(200);
    expect(b.tables()[0]?.entries).toBe(0);
  });

  it('names a bound that is not a positive integer', () => {
    expect(() => new KeyFlagTable(0)).toThrow(/KeyFlagTable: maxKeys must be a positive integer, got 0/);
    expect(() => new KeyFlagTable(4096, Number.NaN)).toThrow(/KeyFlagTable: maxKeyLength must be a positive integer, got NaN/);
    expect(() => new KeyFlagTable(1.5)).toThrow(expect.objectContaining({ code: 'TJ_USAGE' }));
  });
});
