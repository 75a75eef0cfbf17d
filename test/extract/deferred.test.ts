import { describe, expect, it } from 'vitest';
import { Deferred } from '../../src/extract/conventions/lazy.js';

describe('Deferred facts', () => {
  it('computes once, on first read, and never before', () => {
    let calls = 0;
    const d = Deferred.of(() => {
      calls++;
      return ['a'];
    });
    expect(calls).toBe(0);
    expect(d.value).toEqual(['a']);
    expect(d.value).toBe(d.value);
    expect(calls).toBe(1);
  });

  it('a computation that throws states nothing, once, instead of failing the extraction', () => {
    let calls = 0;
    const d = Deferred.of<string[]>(() => {
      calls++;
      throw new TypeError('odd data');
    });
    expect(d.value).toBeUndefined();
    expect(d.value).toBeUndefined();
    expect(calls).toBe(1);
    expect(Deferred.known(['x']).value).toEqual(['x']);
  });
});
