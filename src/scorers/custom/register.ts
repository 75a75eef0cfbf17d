/**
 * Defines `custom` (module scorers), `judge` (YAML judge scorers) and `agent-trajectory` (per-agent
 * trajectory rules) in a scorer registry.
 */
import { z } from 'zod';
import type { ScorerTypeDefinition } from '../registry.js';
import { agentTrajectoriesSchema } from '../trajectory/agent-expectations.js';
import { createAgentTrajectoryScorer } from '../trajectory/agent-trajectory-scorer.js';
import { createJudgeScorer, judgeScorerOptions } from './judge-scorer.js';
import { customScorerOptions, loadModuleScorer } from './module-scorer.js';
import { installSelfResolution, type SelfResolution } from './self-resolve.js';

type Register = <O>(type: string, definition: ScorerTypeDefinition<O>) => void;

const agentTrajectoryOptions = z.strictObject({
  agents: agentTrajectoriesSchema,
  weights: z
    .strictObject({ accuracy: z.number().min(0).optional(), efficiency: z.number().min(0).optional(), toolFailures: z.number().min(0).optional(), blacklist: z.number().min(0).optional() })
    .optional(),
});

/**
 * Define the types. `custom` is declared a judge scorer (sampled like one) because a module may call the
 * judge; a `judge` entry says its own direction (`direction: lower | higher`).
 *
 * @example
 * ```ts
 * registerCustomScorerTypes((type, definition) => registry.define(type, definition));
 * ```
 */
export function registerCustomScorerTypes(register: Register): void {
  // The resolve hooks that let a module import tracejudge, installed by this registry on its first custom
  // module and kept for the next ones (state of the registry these types are defined in, not of the module).
  let selfResolution: SelfResolution | undefined;
  const resolution = (): SelfResolution => (selfResolution ??= installSelfResolution());
  register('custom', {
    kind: 'judge',
    options: customScorerOptions,
    // A module's score range is its own.
    maxScore: () => undefined,
    create: (o, ctx) => loadModuleScorer(ctx.name, o, ctx.configDir, resolution),
  });
  register('judge', {
    kind: 'judge',
    direction: (o) => o.direction,
    options: judgeScorerOptions,
    // A choice's value is used as given; a range is normalised to 0..1.
    maxScore: (o) => (o.choices ? Math.max(...Object.values(o.choices)) : 1),
    create: (o, ctx) => createJudgeScorer(ctx.name, o, ctx.judgeModel),
  });
  register('agent-trajectory', {
    kind: 'code',
    options: agentTrajectoryOptions,
    create: (o) => {
      const weights: Record<string, number> = {};
      for (const [k, v] of Object.entries(o.weights ?? {})) if (v !== undefined) weights[k] = v;
      return createAgentTrajectoryScorer({ agents: o.agents, weights });
    },
  });
}
