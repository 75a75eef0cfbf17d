/** Completeness memoises compromise elements per text: bounded, and scores identical with or without it. */
import { describe, expect, it } from 'vitest';
import { ElementCache } from '../../src/scorers/code/completeness/element-cache.js';
import { createCompletenessScorer, extractElements } from '../../src/scorers/code/completeness/index.js';

const user = (content: string) => ({ role: 'user', content });
const assistant = (content: string) => ({ role: 'assistant', content });

describe('ElementCache', () => {
  it('computes once per text and hands out fresh arrays', () => {
    const cache = new ElementCache();
    let calls = 0;
    const compute = (t: string): string[] => {
      calls++;
      return t.split(' ');
    };
    const a = cache.get('a b', compute);
    a.push('mutated');
    expect(cache.get('a b', compute)).toEqual(['a', 'b']);
    expect(calls).toBe(1);
    expect([cache.hits, cache.misses]).toEqual([1, 1]);
  });

  it('evicts the least recently used entry past maxEntries and past maxChars', () => {
    const cache = new ElementCache({ maxEntries: 2, maxChars: 10 });
    const compute = (t: string): string[] => [t];
    cache.get('aa', compute);
    cache.get('bb', compute);
    cache.get('aa', compute); // aa is now the most recent
    cache.get('cc', compute); // evicts bb
    expect(cache.size).toBe(2);
    cache.get('aa', compute);
    expect(cache.misses).toBe(3);
    cache.get('bb', compute);
    expect(cache.misses).toBe(4);
    cache.get('x'.repeat(9), compute); // 9 + 2 chars > 10: older entries go
    expect(cache.size).toBe(1);
    cache.get('y'.repeat(11), compute); // longer than maxChars: never kept
    expect(cache.size).toBe(1);
  });
});

describe('completeness with the element cache', () => {
  const runs = [
    { input: { inputMessages: [user('What is the weather like in Paris today, and should I bring an umbrella?')] }, output: [assistant('It is cloudy in Paris; bring an umbrella.')] },
    { input: { inputMessages: [user('What is the weather like in Paris today, and should I bring an umbrella?')] }, output: [assistant('Sunny and warm. No umbrella needed.')] },
    { input: { inputMessages: [user('Summarise the quarterly report for the board')] }, output: [assistant('Revenue grew 12% while costs fell; the board should approve the plan.')] },
  ];

  it('gives the same scores and elements cold and warm', async () => {
    const elementCache = new ElementCache();
    const scorer = createCompletenessScorer({ cache: elementCache });
    const cold: unknown[] = [];
    for (const r of runs) {
      elementCache.clear();
      const res = await scorer.run(r);
      cold.push([res.score, res.preprocessStepResult]);
    }
    elementCache.clear();
    const warm: unknown[] = [];
    for (const pass of [0, 1]) {
      for (const r of runs) {
        const res = await scorer.run(r);
        if (pass === 1) warm.push([res.score, res.preprocessStepResult]);
      }
    }
    expect(warm).toEqual(cold);
    expect(elementCache.hits).toBeGreaterThan(0);
    expect(extractElements('The weather is sunny today')).toEqual(['the', 'weather', 'be', 'sunny', 'today']);
  });
});
