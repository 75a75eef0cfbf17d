import { describe, expect, it } from 'vitest';
import { emptyRunWarning, hasInputText, hasOutputText } from '../../src/extract/empty-runs.js';
import type { AgentRun, Convention } from '../../src/model/agent-run.js';
import { agentInput, assistantMessage } from '../../src/model/messages.js';

function run(convention: Convention, input: string, output: string, toolCalls = 0): AgentRun {
  const invocations = Array.from({ length: toolCalls }, (_, i) => ({ toolCallId: `c${i}`, toolName: 'lookup', args: {}, result: { ok: true }, state: 'result' as const }));
  return {
    traceId: 'a'.repeat(32),
    spanId: 'b'.repeat(16),
    agentName: 'support-agent',
    convention,
    input: input === '' ? agentInput({}) : agentInput(input),
    output: [assistantMessage(output, invocations)],
    toolResults: invocations.map(({ toolCallId, toolName, args, result }) => ({ toolCallId, toolName, args, result })),
    context: [],
    status: 'ok',
    startTime: '2026-01-01T00:00:00.000Z',
    endTime: '2026-01-01T00:00:01.000Z',
  };
}

describe('found-but-empty runs', () => {
  it('a run with input and output text gives no warning', () => {
    expect(emptyRunWarning(run('aisdk', 'Where is my order?', 'It shipped.'), 0)).toBeUndefined();
  });

  it('whitespace is not text, and tool calls alone are not an answer', () => {
    const r = run('openinference', 'Where is my order?', '  \n', 1);
    expect(hasInputText(r)).toBe(true);
    expect(hasOutputText(r)).toBe(false);
    const w = emptyRunWarning(r, 0) ?? '';
    expect(w).toContain('has no output text (it made 1 tool call(s))');
    expect(w).toContain('(no-output)');
    expect(w).toContain('OPENINFERENCE_HIDE_OUTPUTS');
  });

  it('names what is missing and the cause where the convention keeps content', () => {
    const both = emptyRunWarning(run('genai', '', ''), 0) ?? '';
    expect(both).toContain('has no input and no output text');
    expect(both).toContain('no log records arrived for this trace');
    // Log records arrived, but not this run's content: the cause is still named, without the claim that none came.
    expect(emptyRunWarning(run('genai', '', 'Hi'), 3)).not.toContain('no log records arrived');
    expect(emptyRunWarning(run('openllmetry', '', 'Hi'), 0)).toContain('TRACELOOP_TRACE_CONTENT');
    expect(emptyRunWarning(run('aisdk', 'Hi', ''), 0)).toContain('recordOutputs');
  });
});
