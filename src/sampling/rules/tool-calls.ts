/** `tool-calls`: matches runs with at least `min` (default 1) tool calls. */
import type { AgentRun } from '../../model/agent-run.js';
import { messageInvocations } from '../../model/messages.js';
import type { Predicate, SamplingInput } from '../types.js';

/** Tool calls of a run: its tool results, or the invocations in its output when more were seen there. */
function countToolCalls(run: AgentRun): number {
  let invocations = 0;
  for (const m of run.output) invocations += messageInvocations(m).length;
  return Math.max(run.toolResults.length, invocations);
}

export function toolCallsPredicate(options: { min?: number } = {}): Predicate {
  const min = options.min ?? 1;
  return {
    evaluate: (input: SamplingInput) => countToolCalls(input.run) >= min,
    describe: () => (min === 1 ? 'the run made a tool call' : `the run made at least ${min} tool calls`),
  };
}
