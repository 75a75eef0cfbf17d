/**
 * What the OpenInference CrewAI instrumentation writes its own way: the agent span (`<role>._execute_core`,
 * kind AGENT) has no `agent.name` but `graph.node.id` (the agent's role); its `input.value` is the agent's
 * configuration, and its `output.value` CrewAI's `TaskOutput`: the task's `description` (what the agent was
 * asked) and `raw` (its answer).
 */
import type { Attributes } from '../../model/span.js';
import { attrStr, isRecord } from '../values.js';

export const CREWAI_SCOPE = 'openinference.instrumentation.crewai';

/** The agent's name (its role) on a CrewAI agent span. */
export function crewAgentName(a: Attributes, input: unknown): string | undefined {
  const id = attrStr(a, 'graph.node.id');
  if (id !== undefined) return id;
  return isRecord(input) && isRecord(input.agent) && typeof input.agent.role === 'string' ? input.agent.role : undefined;
}

/** The task asked and the answer given, from a `TaskOutput`; `undefined` when `output` is not one. */
export function crewTaskOutput(output: unknown): { task: string; answer: string } | undefined {
  if (!isRecord(output) || typeof output.raw !== 'string' || typeof output.description !== 'string') return undefined;
  return { task: output.description, answer: output.raw };
}
