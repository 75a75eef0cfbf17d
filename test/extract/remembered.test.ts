/**
 * Remembered turns are kept as Mastra keeps a conversation in memory: user and assistant messages only; a
 * tool message's result folds into the invocation of the same call in the earlier assistant message.
 */
import { describe, expect, it } from 'vitest';
import { extractAgentRuns } from '../../src/api/extract.js';
import { getConversationHistoryFromRunInput } from '../../src/scorers/llm/run-text.js';
import { HISTORY_ANSWER, HISTORY_SPAN_ID, historySpans } from './history-trace.js';

const at = (s: number) => `1970-01-01T00:00:0${s}.000000000Z`;

describe('remembered messages', () => {
  const [run] = extractAgentRuns(historySpans());

  it('splits the recorded input into system prompt, history and the new user turn', () => {
    expect(run?.input.systemMessages).toEqual([{ role: 'system', content: 'Be brief.' }]);
    expect(run?.input.inputMessages).toEqual([
      { id: `${HISTORY_SPAN_ID}-in-8`, role: 'user', createdAt: at(1), content: { format: 2, parts: [{ type: 'text', text: 'Can I get a refund?' }], content: 'Can I get a refund?' } },
    ]);
    expect(run?.output[0]?.content.content).toBe(HISTORY_ANSWER);
    expect(run?.output[0]?.createdAt).toBe(at(3));
  });

  it('folds tool results into the earlier assistant calls and has no tool role', () => {
    const lookup = { toolCallId: 'c1', toolName: 'lookupOrder', args: { id: 7 }, state: 'result', result: { status: 'shipped' } };
    const refund = { toolCallId: 'c2', toolName: 'refund', args: { id: 7 }, state: 'output-error', errorText: 'refunds are closed' };
    // A result whose call is not in the history is an invocation of its own, in the preceding assistant message.
    const orphan = { toolCallId: 'c9', toolName: 'unknown', args: {}, state: 'result', result: 'orphan result' };
    const msg = (position: number, role: string, parts: unknown[], text?: string, invocations?: unknown[]) => ({
      id: `${HISTORY_SPAN_ID}-in-${position}`,
      role,
      createdAt: at(1),
      content: { format: 2, parts, ...(text !== undefined ? { content: text } : {}), ...(invocations ? { toolInvocations: invocations } : {}) },
    });
    const part = (toolInvocation: unknown) => ({ type: 'tool-invocation', toolInvocation });
    expect(run?.input.rememberedMessages).toEqual([
      msg(1, 'user', [{ type: 'text', text: 'Where is order 7?' }], 'Where is order 7?'),
      msg(2, 'assistant', [{ type: 'text', text: 'Let me check.' }, part(lookup)], 'Let me check.', [lookup]),
      msg(4, 'assistant', [{ type: 'text', text: 'It shipped.' }], 'It shipped.'),
      msg(5, 'assistant', [part(refund), part(orphan)], undefined, [refund, orphan]),
    ]);
  });

  it('reads as a transcript of the texts', () => {
    expect(getConversationHistoryFromRunInput(run?.input)).toBe('user: Where is order 7?\nassistant: Let me check.\nassistant: It shipped.');
  });

  it('is always present, empty when the trace records no history', () => {
    const spans = historySpans();
    const only = spans.map((s) => ({ ...s, attributes: { ...s.attributes, 'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'hi' }] }]) } }));
    expect(extractAgentRuns(only)[0]?.input.rememberedMessages).toEqual([]);
  });
});
