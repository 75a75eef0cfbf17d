/**
 * Config values that are patterns, checked where they are parsed so a bad one is reported at its key path
 * (`sampling.agents["billing-["]`, `economics.budgets[0].agent`, `extract.mapping[2].name`).
 */
import { z } from 'zod';
import { agentPatternProblem, picomatchProblem } from '../util/glob.js';

/** An agent name or agent glob (`*`, `?`): keys of `sampling.agents` and of scorer `agents:`, budget `agent`. */
export const agentPattern = z.string().superRefine((v, ctx) => {
  const problem = agentPatternProblem(v);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/**
 * Refinement for records keyed by agent patterns (`z.record(...).superRefine(agentPatternKeys)`): each bad key
 * is reported at that key, and the values are still checked (a bad key schema would hide their errors).
 */
export function agentPatternKeys(record: Readonly<Record<string, unknown>>, ctx: z.RefinementCtx): void {
  for (const key of Object.keys(record)) {
    const problem = agentPatternProblem(key);
    if (problem) ctx.addIssue({ code: 'custom', path: [key], message: problem });
  }
}

/** A picomatch glob (`agent:*`, `{a,b}-*`): span names of `extract.mapping`, `emit.metrics.allowAgents`. */
export const picomatchGlob = z
  .string()
  .min(1)
  .superRefine((v, ctx) => {
    const problem = picomatchProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
