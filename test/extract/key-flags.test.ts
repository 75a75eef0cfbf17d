/** The one-pass key-family scan agrees with a prefix test per family, key by key. */
import { describe, expect, it } from 'vitest';
import { KEY_GEN_AI, KEY_MASTRA, KEY_OPENLLMETRY_LEGACY, keyFlagsOf } from '../../src/extract/key-flags.js';

const families: Array<[number, readonly string[]]> = [
  [KEY_MASTRA, ['mastra.']],
  [KEY_GEN_AI, ['gen_ai.']],
  [KEY_OPENLLMETRY_LEGACY, ['gen_ai.prompt.0.', 'gen_ai.completion.0.', 'traceloop.entity.']],
];
const expected = (keys: readonly string[]): number => {
  let f = 0;
  for (const [flag, prefixes] of families) if (keys.some((k) => prefixes.some((p) => k.startsWith(p)))) f |= flag;
  return f;
};

describe('keyFlagsOf', () => {
  it('sets each family exactly when some key starts with one of its prefixes', () => {
    const pool = ['mastra.span.type', 'mastra', 'mastra_x', 'gen_ai.request.model', 'gen_ai', 'gen_ai.prompt.0.role', 'gen_ai.prompt.1.role', 'gen_ai.completion.0.content', 'traceloop.entity.input', 'traceloop.span.kind', 'ai.operationId', 'Mastra.x', ''];
    // Every subset of the pool (2^13 key sets).
    for (let mask = 0; mask < 1 << pool.length; mask++) {
      const keys = pool.filter((_, i) => (mask & (1 << i)) !== 0);
      const attrs = Object.fromEntries(keys.map((k) => [k, 'v']));
      expect(keyFlagsOf(attrs)).toBe(expected(keys));
    }
  });
});
