/**
 * A GenAI agent span whose recorded input carries a conversation: a system prompt, earlier turns with tool
 * calls and their results (one that failed, one whose call is not in the history), then the new user turn.
 * For the remembered-message tests, here and under test/mastra.
 */
import type { Span } from '../../src/model/span.js';

export const HISTORY_TRACE_ID = '5b8aa5a2d2c872e8321cf37308d69df2';
export const HISTORY_SPAN_ID = '051581bf3cb55c13';

const text = (content: string) => ({ type: 'text', content });

/** The recorded `gen_ai.input.messages`, in order (positions 0–8). */
export const HISTORY_INPUT = [
  { role: 'system', parts: [text('Be brief.')] },
  { role: 'user', parts: [text('Where is order 7?')] },
  { role: 'assistant', parts: [text('Let me check.'), { type: 'tool_call', id: 'c1', name: 'lookupOrder', arguments: { id: 7 } }] },
  { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c1', response: { status: 'shipped' } }] },
  { role: 'assistant', parts: [text('It shipped.')] },
  { role: 'assistant', parts: [{ type: 'tool_call', id: 'c2', name: 'refund', arguments: { id: 7 } }] },
  { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c2', response: 'Error: refunds are closed' }] },
  { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c9', response: 'orphan result' }] },
  { role: 'user', parts: [text('Can I get a refund?')] },
];

export const HISTORY_ANSWER = 'Refunds are closed today, sorry.';

/** The agent span (start 1 s, end 3 s after the epoch). */
export function historySpans(): Span[] {
  return [
    {
      traceId: HISTORY_TRACE_ID,
      spanId: HISTORY_SPAN_ID,
      parentSpanId: '',
      traceState: '',
      flags: 1,
      name: 'invoke_agent support-agent',
      kind: 1,
      startTimeUnixNano: 1_000_000_000n,
      endTimeUnixNano: 3_000_000_000n,
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': 'support-agent',
        'gen_ai.input.messages': JSON.stringify(HISTORY_INPUT),
        'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [text(HISTORY_ANSWER)], finish_reason: 'stop' }]),
      },
      events: [],
      links: [],
      status: { code: 0, message: '' },
      resource: { attributes: { 'service.name': 'svc' } },
      scope: { name: 'test', version: '', attributes: {} },
    },
  ];
}
