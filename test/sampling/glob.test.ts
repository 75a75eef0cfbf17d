import { describe, expect, it } from 'vitest';
import { compileGlob, createPatternMatcher, globSpecificity, isGlob } from '../../src/util/glob.js';

describe('agent globs', () => {
  it.each([
    ['billing-*', 'billing-eu', true],
    ['billing-*', 'billing-', true],
    ['billing-*', 'billing', false],
    ['*-agent', 'team/support-agent', true],
    ['a?c', 'abc', true],
    ['a?c', 'ac', false],
    ['v1.2*', 'v1.2.3', true],
    ['v1.2*', 'v1x2', false],
    ['(x)[y]+*', '(x)[y]+z', true],
    ['ß*', 'ßeta', true],
  ])('%s matches %s: %s', (glob, name, want) => {
    expect(compileGlob(glob).test(name)).toBe(want);
  });

  it('counts literals and wildcards', () => {
    expect(globSpecificity('billing-*')).toEqual({ literal: 8, wildcards: 1 });
    expect(globSpecificity('b?l*')).toEqual({ literal: 2, wildcards: 2 });
    expect(isGlob('billing')).toBe(false);
    expect(isGlob('bill?ng')).toBe(true);
  });

  it('ranks exact, then literals, then wildcards, then order', () => {
    const m = createPatternMatcher({ '*': 1, 'b*': 2, 'b*g': 3, 'bi*': 4, big: 5, 'b?g*': 6 });
    expect(m('big')?.value).toBe(5);
    expect(m('bing')?.value).toBe(3); // 'b*g' and 'bi*' tie on 2 literals / 1 wildcard: 'b*g' is written first
    expect(m('bit')?.value).toBe(4);
    expect(m('bog')?.value).toBe(3);
    expect(m('bogs')?.value).toBe(6);
    expect(m('zzz')).toEqual({ key: '*', value: 1, glob: true });
    expect(createPatternMatcher({ a: 1 })('b')).toBeUndefined();
  });
});
