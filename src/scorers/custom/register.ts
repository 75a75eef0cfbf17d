/**
 * Registers `custom` (module scorers), `judge` (YAML judge scorers) and `agent-trajectory` (per-agent
 * trajectory rules) with the scorer registry, and the config check for budget fallbacks.
 */
import { z } from 'zod';
import { registerConfigCheck } from '../../config/load.js';
import type { ScorerTypeDefinition } from '../registry.js';
import { agentTrajectoriesSchema } from '../trajectory/agent-expectations.js';
import { createAgentTrajectoryScorer } from '../trajectory/agent-trajectory-scorer.js';
import { createJudgeScorer, judgeScorerOptions } from './judge-scorer.js';
import { customScorerOptions, loadModuleScorer } from './module-scorer.js';

type Register = <O>(type: string, definition: ScorerTypeDefinition<O>) => void;

const agentTrajectoryOptions = z.strictObject({
  agents: agentTrajectoriesSchema,
  weights: z
    .strictObject({ accuracy: z.number().min(0).optional(), efficiency: z.number().min(0).optional(), toolFailures: z.number().min(0).optional(), blacklist: z.number().min(0).optional() })
    .optional(),
});

/**
 * Register the types. `custom` is declared a judge scorer (sampled like one) because a module may call the
 * judge; `judge` entries with `direction: lower` need the registry to honour the entry's direction.
 *
 * @example
 * ```ts
 * registerCustomScorerTypes(registerScorerType);
 * ```
 */
export function registerCustomScorerTypes(register: Register): void {
  register('custom', {
    kind: 'judge',
    options: customScorerOptions,
    create: (o, ctx) => loadModuleScorer(ctx.name, o, ctx.configDir),
  });
  register('judge', {
    kind: 'judge',
    options: judgeScorerOptions,
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

registerConfigCheck((config, issues) => {
  // Without `scorers:` the built-in set applies, whose names the registry owner knows; check only explicit sets.
  if (!config.scorers) return;
  const names = config.scorers;
  config.economics.budgets.forEach((rule, i) => {
    if (rule.fallback !== 'skip' && !(rule.fallback in names)) {
      issues.push({ path: `economics.budgets[${i}].fallback`, message: `"${rule.fallback}" is not a configured scorer (use skip or a name under scorers)` });
    }
    if (rule.scorer !== undefined && !(rule.scorer in names)) {
      issues.push({ path: `economics.budgets[${i}].scorer`, message: `"${rule.scorer}" is not a configured scorer` });
    }
  });
});
