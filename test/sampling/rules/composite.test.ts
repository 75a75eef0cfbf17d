import { describe, expect, it } from 'vitest';
import type { PredicateConfig } from '../../../src/config/sections/sampling.js';
import { buildPredicate } from '../../../src/sampling/rules/build.js';
import { scoreBelowPredicate } from '../../../src/sampling/rules/score-below.js';
import { makeInput, type InputOptions } from '../helpers.js';

const errored: InputOptions = { run: { status: 'error' } };
const enterprise: InputOptions = { resource: { 'customer.tier': 'enterprise' } };
const both: InputOptions = { run: { status: 'error' }, resource: { 'customer.tier': 'enterprise' } };
const isErr: PredicateConfig = { type: 'errors' };
const isEnt: PredicateConfig = { type: 'attribute', key: 'customer.tier', equals: 'enterprise' };

describe('and / or / not composition', () => {
  const cases: [string, PredicateConfig, InputOptions, boolean][] = [
    ['and, both hold', { type: 'and', rules: [isErr, isEnt] }, both, true],
    ['and, one holds', { type: 'and', rules: [isErr, isEnt] }, errored, false],
    ['or, one holds', { type: 'or', rules: [isErr, isEnt] }, enterprise, true],
    ['or, none holds', { type: 'or', rules: [isErr, isEnt] }, {}, false],
    ['not, holds', { type: 'not', rule: isErr }, {}, true],
    ['not, fails', { type: 'not', rule: isErr }, errored, false],
    ['nested: enterprise and not error', { type: 'and', rules: [isEnt, { type: 'not', rule: isErr }] }, enterprise, true],
    ['nested: enterprise and not error, errored', { type: 'and', rules: [isEnt, { type: 'not', rule: isErr }] }, both, false],
    [
      'or of tool calls / retrieval',
      { type: 'or', rules: [{ type: 'tool-calls' }, { type: 'retrieval' }] },
      { run: { context: ['doc'] } },
      true,
    ],
  ];
  it.each(cases)('%s', (_name, config, input, want) => {
    expect(buildPredicate(config).evaluate(makeInput(input))).toBe(want);
  });

  it('describes nested conditions', () => {
    expect(buildPredicate({ type: 'and', rules: [isEnt, { type: 'not', rule: isErr }] }).describe()).toBe(
      '(customer.tier = "enterprise" (on resource or spans) and not the run has error status)',
    );
  });
});

describe('score-below (boost signal)', () => {
  const p = scoreBelowPredicate({ below: { grounding: 0.6, similarity: 0.3 } });
  const cases: [string, Record<string, number> | undefined, boolean][] = [
    ['no code scores supplied', undefined, false],
    ['scores above thresholds', { grounding: 0.9, similarity: 0.8 }, false],
    ['grounding below', { grounding: 0.5, similarity: 0.8 }, true],
    ['similarity below', { grounding: 0.9, similarity: 0.1 }, true],
    ['exactly at threshold is not below', { grounding: 0.6 }, false],
    ['unlisted scorer ignored', { keywords: 0 }, false],
    ['NaN ignored', { grounding: Number.NaN }, false],
  ];
  it.each(cases)('%s', (_name, codeScores, want) => {
    expect(p.evaluate(makeInput(codeScores ? { codeScores } : {}))).toBe(want);
  });
});
