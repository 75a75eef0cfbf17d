import { describe, expect, it } from 'vitest';
import { toolCallsPredicate } from '../../../src/sampling/rules/tool-calls.js';
import { retrievalPredicate } from '../../../src/sampling/rules/retrieval.js';
import { assistantMessage } from '../../../src/model/messages.js';
import { makeInput, type InputOptions } from '../helpers.js';

const oneResult: InputOptions = { run: { toolResults: [{ toolName: 'search', toolCallId: 'a', args: {}, result: 'x' }] } };
const twoInvocations: InputOptions = {
  run: {
    output: [
      assistantMessage('', [
        { toolCallId: 'a', toolName: 'search', args: {}, state: 'call' },
        { toolCallId: 'b', toolName: 'lookup', args: {}, state: 'call' },
      ]),
    ],
  },
};

describe('tool-calls rule', () => {
  const cases: [string, { min?: number }, InputOptions, boolean][] = [
    ['no tool calls', {}, {}, false],
    ['one tool result', {}, oneResult, true],
    ['invocations without results', {}, twoInvocations, true],
    ['min 2, one call', { min: 2 }, oneResult, false],
    ['min 2, two calls', { min: 2 }, twoInvocations, true],
  ];
  it.each(cases)('%s', (_name, options, input, want) => {
    expect(toolCallsPredicate(options).evaluate(makeInput(input))).toBe(want);
  });
});

describe('retrieval rule', () => {
  const cases: [string, { min?: number }, InputOptions, boolean][] = [
    ['no documents', {}, {}, false],
    ['one document', {}, { run: { context: ['doc'] } }, true],
    ['min 3, two documents', { min: 3 }, { run: { context: ['a', 'b'] } }, false],
    ['min 3, three documents', { min: 3 }, { run: { context: ['a', 'b', 'c'] } }, true],
  ];
  it.each(cases)('%s', (_name, options, input, want) => {
    expect(retrievalPredicate(options).evaluate(makeInput(input))).toBe(want);
  });
});
