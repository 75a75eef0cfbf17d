/** Finding the agent span of a sampling input (given, or looked up by the run's span id). */
import type { Span } from '../model/span.js';
import type { SamplingInput } from './types.js';

/** The agent run span, or undefined when neither given nor present in `spans`. */
export function agentSpanOf(input: Pick<SamplingInput, 'span' | 'spans' | 'run'>): Span | undefined {
  return input.span ?? input.spans.find((s) => s.spanId === input.run.spanId);
}
