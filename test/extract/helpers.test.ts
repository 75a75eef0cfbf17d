/** docs/scorers.md behaviour, on both Mastra format-2 messages and the tracejudge shape. */
import { describe, expect, it } from 'vitest';
import {
  extractToolCalls,
  extractToolResults,
  getAssistantMessageFromRunOutput,
  getSystemMessagesFromRunInput,
  getTextContentFromMastraDBMessage,
  getUserMessageFromRunInput,
  mergeToolInvocations,
} from '../../src/extract/helpers.js';

const inv = (id: string, state: string, extra: Record<string, unknown> = {}) => ({ toolCallId: id, toolName: `t${id}`, args: { id }, state, ...extra });

describe('text helpers', () => {
  it('getTextContentFromMastraDBMessage reads string, array, content, text and parts', () => {
    expect(getTextContentFromMastraDBMessage({ content: 'plain' })).toBe('plain');
    expect(getTextContentFromMastraDBMessage({ content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] })).toBe('b');
    expect(getTextContentFromMastraDBMessage({ content: { format: 2, content: 'flat', parts: [{ type: 'text', text: 'p' }] } })).toBe('flat');
    expect(getTextContentFromMastraDBMessage({ content: { format: 2, parts: [{ type: 'text', text: 'p1' }, { type: 'text', text: 'p2' }] } })).toBe('p2');
    expect(getTextContentFromMastraDBMessage({ content: 42 })).toBe('');
    expect(getTextContentFromMastraDBMessage(null)).toBe('');
  });

  it('getUserMessageFromRunInput takes the FIRST user message, signals by their role', () => {
    expect(getUserMessageFromRunInput('hi')).toBe('hi');
    expect(getUserMessageFromRunInput({ inputMessages: [{ role: 'system', content: 's' }, { role: 'user', content: 'u1' }, { role: 'user', content: 'u2' }] })).toBe('u1');
    expect(getUserMessageFromRunInput({ inputMessages: [{ role: 'signal', type: 'user', content: { format: 2, parts: [{ type: 'text', text: 'sig' }] } }] })).toBe('sig');
    expect(getUserMessageFromRunInput({ messages: [{ role: 'user', content: { content: 'm' } }] })).toBe('m');
    expect(getUserMessageFromRunInput({ prompt: 'p' })).toBe('p');
    expect(getUserMessageFromRunInput({ other: 1 })).toBeUndefined();
  });

  it('getAssistantMessageFromRunOutput scans assistant messages from the last', () => {
    const out = [
      { role: 'assistant', content: 'first' },
      { role: 'user', content: 'u' },
      { role: 'assistant', content: '', toolInvocations: [] },
    ];
    expect(getAssistantMessageFromRunOutput(out)).toBe('first');
    expect(getAssistantMessageFromRunOutput([{ role: 'assistant', content: { format: 2, parts: [{ type: 'text', text: 'x' }] } }])).toBe('x');
    expect(getAssistantMessageFromRunOutput({ text: 't' })).toBe('t');
    expect(getAssistantMessageFromRunOutput({ role: 'user', text: 't' })).toBeUndefined();
    expect(getAssistantMessageFromRunOutput('s')).toBe('s');
  });

  it('getSystemMessagesFromRunInput reads systemMessages, system input messages and tagged ones', () => {
    const input = {
      systemMessages: [{ role: 'system', content: 'one' }, { role: 'system', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }, { role: 'system', content: '' }],
      inputMessages: [{ role: 'system', content: 'two' }, { role: 'user', content: 'u' }],
      taggedSystemMessages: { memory: [{ role: 'system', content: 'three' }] },
    };
    expect(getSystemMessagesFromRunInput(input)).toEqual(['one', 'a b', 'two', 'three']);
  });
});

describe('tool helpers', () => {
  it('mergeToolInvocations: parts win, legacy-only entries keep their place', () => {
    const msg = {
      role: 'assistant',
      content: {
        format: 2,
        parts: [{ type: 'tool-invocation', toolInvocation: inv('b', 'result', { result: 'parts-b' }) }],
        toolInvocations: [inv('a', 'result', { result: 'a' }), inv('b', 'result', { result: 'legacy-b' }), inv('c', 'call')],
      },
    };
    const merged = mergeToolInvocations(msg);
    expect(merged.map((i) => [i.toolCallId, i.result])).toEqual([
      ['a', 'a'],
      ['b', 'parts-b'],
      ['c', undefined],
    ]);
  });

  it('reads the tracejudge shape (toolInvocations beside content)', () => {
    const output = [{ role: 'assistant', content: 'done', toolInvocations: [inv('1', 'result', { result: { ok: 1 } }), inv('2', 'output-error', { errorText: 'boom' }), inv('3', 'result', { result: 2, resultText: '2' })] }];
    expect(extractToolResults(output)).toEqual([
      { toolName: 't1', toolCallId: '1', args: { id: '1' }, result: { ok: 1 } },
      { toolName: 't3', toolCallId: '3', args: { id: '3' }, result: 2, resultText: '2' },
    ]);
    const calls = extractToolCalls(output);
    expect(calls.tools).toEqual(['t1', 't2', 't3']);
    expect(calls.toolCallInfos[1]).toEqual({ toolName: 't2', toolCallId: '2', messageIndex: 0, invocationIndex: 1 });
  });

  it('extractToolCalls excludes partial calls and falls back to m-i ids; results need a defined result', () => {
    const output = [
      { role: 'assistant', content: { format: 2, parts: [{ type: 'tool-invocation', toolInvocation: { toolName: 'x', state: 'call', args: {} } }, { type: 'tool-invocation', toolInvocation: { toolName: 'y', state: 'partial-call' } }] } },
      { role: 'assistant', content: { format: 2, parts: [], toolInvocations: [{ toolName: 'z', state: 'result', toolCallId: 'z1' }] } },
    ];
    expect(extractToolCalls(output).toolCallInfos.map((c) => c.toolCallId)).toEqual(['0-0', 'z1']);
    expect(extractToolResults(output)).toEqual([]);
    expect(extractToolResults('not an array')).toEqual([]);
  });
});
