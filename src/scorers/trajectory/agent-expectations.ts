/**
 * Per-agent trajectory expectations from config: expected steps, blacklisted tools and sequences, step and
 * token budgets, and tracejudge's `requires` rule ("never `refund` without `orders` first"), keyed by agent
 * name or glob (exact name beats every glob; among globs the most specific wins, as in `sampling.agents`).
 */
import { z } from 'zod';
import { expectationFields } from '../utils/expectation-schema.js';
import { agentPatternKeys } from '../../config/patterns.js';
import { createPatternMatcher } from '../../util/glob.js';
import type { Trajectory, TrajectoryExpectation, TrajectoryStep } from '../utils/trajectory-types.js';

/** One agent's entry: an expectation plus the `view` and `requires` extensions. */
export const agentTrajectorySchema = z
  .strictObject({
    ...expectationFields,
    /**
     * `tools` (default): only tool calls and nested agent/workflow runs are steps, so rules speak in tool
     * names (`blacklistedSequences: [[orders, refund]]` sees consecutive tool calls). `all`: model
     * generations are steps too (needed for `maxTotalTokens`).
     */
    view: z.enum(['tools', 'all']).default('tools'),
    /** `tool: [tools that must have been called earlier in the run]`, e.g. `{ refund: [orders] }`. */
    requires: z.record(z.string().min(1), z.array(z.string().min(1)).min(1)).default({}),
  })
  .superRefine((v, ctx) => {
    if (v.maxTotalTokens !== undefined && v.view === 'tools') {
      ctx.addIssue({ code: 'custom', path: ['maxTotalTokens'], message: 'a token budget needs view: all (model generations carry the tokens)' });
    }
  });

export type AgentTrajectoryConfig = z.output<typeof agentTrajectorySchema>;

/** `agents:` — agent name or glob → its trajectory rules. */
export const agentTrajectoriesSchema = z.record(z.string(), agentTrajectorySchema).superRefine(agentPatternKeys);

/** A `requires` rule that a run broke: `tool` was called before any call of `missing`. */
export interface RequiresViolation {
  tool: string;
  missing: string[];
}

/** The rules for one agent, ready to evaluate. */
export interface AgentRules {
  /** The config key that matched (`support-agent`, `billing-*`). */
  key: string;
  expectation: TrajectoryExpectation;
  view: 'tools' | 'all';
  requires: Readonly<Record<string, readonly string[]>>;
}

/**
 * Looks up the rules of an agent by name (exact beats glob).
 *
 * @example
 * ```ts
 * const rulesFor = agentRulesLookup({ 'support-agent': agentTrajectorySchema.parse({ requires: { refund: ['orders'] } }) });
 * rulesFor('support-agent')?.requires; // { refund: ['orders'] }
 * ```
 */
export function agentRulesLookup(agents: Readonly<Record<string, AgentTrajectoryConfig>>): (agentName: string) => AgentRules | undefined {
  const match = createPatternMatcher(agents);
  return (agentName) => {
    const m = match(agentName);
    if (!m) return undefined;
    const { view, requires, ...rest } = m.value;
    const expectation: TrajectoryExpectation = {};
    for (const [k, v] of Object.entries(rest)) if (v !== undefined) (expectation as Record<string, unknown>)[k] = v;
    return { key: m.key, expectation, view, requires };
  };
}

const TOOLISH: ReadonlySet<string> = new Set(['tool_call', 'mcp_tool_call', 'provider_tool_call']);

/** The trajectory without model generations (children filtered the same way). */
export function toolView(trajectory: Trajectory): Trajectory {
  const keep = (steps: readonly TrajectoryStep[]): TrajectoryStep[] =>
    steps
      .filter((s) => s.stepType !== 'model_generation')
      .map((s) => (s.children ? { ...s, children: keep(s.children) } : s));
  return { ...trajectory, steps: keep(trajectory.steps) };
}

/**
 * `requires` violations over the top-level tool calls, in order: a call of `tool` before every tool in its
 * list has been called at least once.
 *
 * @example
 * ```ts
 * checkRequires(traj, { refund: ['orders'] }); // [{ tool: 'refund', missing: ['orders'] }] when refund came first
 * ```
 */
export function checkRequires(trajectory: Trajectory, requires: Readonly<Record<string, readonly string[]>>): RequiresViolation[] {
  const seen = new Set<string>();
  const out: RequiresViolation[] = [];
  const reported = new Set<string>();
  for (const step of trajectory.steps) {
    if (!TOOLISH.has(step.stepType)) continue;
    const needs = requires[step.name];
    if (needs && !reported.has(step.name)) {
      const missing = needs.filter((n) => !seen.has(n));
      if (missing.length > 0) {
        out.push({ tool: step.name, missing });
        reported.add(step.name);
      }
    }
    seen.add(step.name);
  }
  return out;
}
