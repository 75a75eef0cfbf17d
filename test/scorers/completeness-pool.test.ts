/** Completeness with its compromise parse in worker threads: same elements and scores, failures surface. */
import { afterAll, describe, expect, it } from 'vitest';
import { ElementPool } from '../../src/scorers/code/completeness/element-pool.js';
import { parseElements } from '../../src/scorers/code/completeness/elements.js';
import { ElementCache } from '../../src/scorers/code/completeness/element-cache.js';
import { createCompletenessScorer } from '../../src/scorers/code/completeness/index.js';
import { ScorerRunError } from '../../src/scorers/core/errors.js';

const user = (content: string) => ({ role: 'user', content });
const assistant = (content: string) => ({ role: 'assistant', content });

const TEXTS = [
  'The quick brown fox jumps over the lazy dog',
  'The weather is sunny today',
  'First paragraph about AI.\n        Second paragraph about ML.\n        Third paragraph about DL.',
  'She has been running the Paris office since 2019 and doesn’t plan to leave.',
  'Café déjà vu: naïve users were refunded €12 on 3 March.',
  '',
];

describe('ElementPool', () => {
  const pool = new ElementPool(2);
  afterAll(() => pool.close());

  it('parses exactly as the event-loop parse, for texts in flight at the same time', async () => {
    const got = await Promise.all([...TEXTS, ...TEXTS].map((t) => pool.parse(t)));
    expect(got).toEqual([...TEXTS, ...TEXTS].map((t) => parseElements(t)));
    expect(pool.inFlight()).toBe(0);
  });
});

describe('ElementPool failures', () => {
  const url = new URL('./fixtures/crashing-element-worker.ts', import.meta.url);
  const pool = new ElementPool(1, url);
  afterAll(() => pool.close());

  it('fails the texts a dying worker held, then starts a new worker for the next text', async () => {
    const [crashed, alongside] = await Promise.allSettled([pool.parse('CRASH'), pool.parse('The weather is sunny today')]);
    expect(crashed.status).toBe('rejected');
    expect(alongside.status).toBe('rejected');
    if (crashed.status === 'rejected') expect(String(crashed.reason)).toMatch(/exited with code 3/);
    expect(await pool.parse('The weather is sunny today')).toEqual(['the', 'weather', 'be', 'sunny', 'today']);
  });
});

describe('completeness scorer with workers', () => {
  const runs = [
    { input: { inputMessages: [user('The quick brown fox jumps over the lazy dog')] }, output: [assistant('The fox jumps over the dog')] },
    { input: { inputMessages: [user('The weather is sunny today')] }, output: [assistant('I like to eat pizza')] },
    { input: { inputMessages: [user('cat cat cat cats')] }, output: [assistant('cat cats')] },
  ];

  it('gives the parity scores and the same preprocess results as the event-loop scorer', async () => {
    const inlineCache = new ElementCache();
    const pooledCache = new ElementCache();
    const inline = createCompletenessScorer({ cache: inlineCache });
    const pooled = createCompletenessScorer({ workers: 2, cache: pooledCache });
    const results = async (s: typeof inline, elementCache: ElementCache) => {
      elementCache.clear();
      const out: unknown[] = [];
      for (const r of await Promise.all(runs.map((x) => s.run(x)))) out.push([r.score, r.preprocessStepResult]);
      return out;
    };
    const a = await results(inline, inlineCache);
    const b = await results(pooled, pooledCache);
    expect(b).toEqual(a);
    expect(a.map((x) => (x as unknown[])[0])).toEqual([0.625, 0, 1]);
  });

  it('parses a text that several runs need at once only once', async () => {
    const elementCache = new ElementCache();
    const pooled = createCompletenessScorer({ workers: 1, cache: elementCache });
    const same = { input: { inputMessages: [user('Please refund order 1234, it arrived broken')] }, output: [assistant('I have refunded order 1234.')] };
    await Promise.all([pooled.run(same), pooled.run(same), pooled.run(same)]);
    expect(elementCache.misses).toBe(2);
    expect(elementCache.hits).toBe(4);
  });

  it('a missing input is still a ScorerRunError', async () => {
    await expect(createCompletenessScorer({ workers: 1 }).run({ input: undefined, output: [assistant('x')] })).rejects.toBeInstanceOf(ScorerRunError);
  });
});
