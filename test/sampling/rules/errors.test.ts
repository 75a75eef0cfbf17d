import { describe, expect, it } from 'vitest';
import { errorsPredicate } from '../../../src/sampling/rules/errors.js';
import { makeInput, type InputOptions } from '../helpers.js';

describe('errors rule', () => {
  const cases: [string, { includeSpans?: boolean }, InputOptions, boolean][] = [
    ['ok run', {}, {}, false],
    ['run with error status', {}, { run: { status: 'error' } }, true],
    ['child span error, default options', {}, { children: [{ status: { code: 2, message: 'boom' } }] }, false],
    ['child span error, includeSpans', { includeSpans: true }, { children: [{ status: { code: 2, message: 'boom' } }] }, true],
    ['child span ok, includeSpans', { includeSpans: true }, { children: [{ status: { code: 1, message: '' } }] }, false],
    ['error run, includeSpans', { includeSpans: true }, { run: { status: 'error' } }, true],
  ];
  it.each(cases)('%s', (_name, options, input, want) => {
    expect(errorsPredicate(options).evaluate(makeInput(input))).toBe(want);
  });
});
