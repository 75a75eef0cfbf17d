/**
 * The per-agent trajectory scorer: the unified trajectory evaluation (docs/scorers.md) with each agent's rules
 * from config, plus the `requires` rule. A `requires` violation scores 0, like a blacklist violation.
 * Runs of an agent without rules are not scorable (skipped and counted, not a failure).
 */
import { createScorer } from '../core/scorer.js';
import { notScorable } from '../core/not-scorable.js';
import { DEFAULT_WEIGHTS, evaluateTrajectory, type LevelResult, type TrajectoryWeights } from '../code/trajectory/evaluate.js';
import { trajectoryReason } from '../code/trajectory/reason.js';
import { toTrajectory } from '../utils/extract-trajectory.js';
import type { TrajectoryExpectation } from '../utils/trajectory-types.js';
import { LIVE_RUN_KEY } from '../llm/shared.js';
import { agentRulesLookup, checkRequires, toolView, type AgentTrajectoryConfig, type RequiresViolation } from './agent-expectations.js';

export interface AgentTrajectoryScorerOptions {
  /** Agent name or glob → rules (parse entries with `agentTrajectorySchema`). */
  agents: Readonly<Record<string, AgentTrajectoryConfig>>;
  /** Default `{ accuracy: 0.4, efficiency: 0.3, toolFailures: 0.2, blacklist: 0.1 }`. */
  weights?: Partial<TrajectoryWeights>;
}

/** What the preprocess step records. */
export interface AgentTrajectoryAnalysis {
  agentName: string;
  rulesKey: string;
  evaluation: LevelResult;
  requiresViolations: RequiresViolation[];
  score: number;
}

function prop(o: unknown, key: string): unknown {
  if (o === null || typeof o !== 'object') return undefined;
  const g = (o as { get?: unknown }).get;
  return typeof g === 'function' ? (g as (k: string) => unknown).call(o, key) : (o as Record<string, unknown>)[key];
}

/**
 * The agent a scorer run belongs to: `targetMetadata.agentName`, else `requestContext[LIVE_RUN_KEY].agentName`.
 */
function agentNameOfRun(run: { targetMetadata?: Record<string, unknown>; requestContext?: unknown }): string | undefined {
  const fromMeta = run.targetMetadata?.agentName;
  if (typeof fromMeta === 'string') return fromMeta;
  const fromFacts = prop(prop(run.requestContext, LIVE_RUN_KEY), 'agentName');
  return typeof fromFacts === 'string' ? fromFacts : undefined;
}

/**
 * Create the per-agent trajectory scorer (type `trajectory`: the run output is the run's `Trajectory`,
 * e.g. from `trajectoryFromRun`). A run's own `expectedTrajectory` fields override the agent's rules.
 *
 * @example
 * ```ts
 * const scorer = createAgentTrajectoryScorer({
 *   agents: { 'support-agent': agentTrajectorySchema.parse({ steps: [{ name: 'orders' }], requires: { refund: ['orders'] } }) },
 * });
 * await scorer.run({ output: trajectory, targetMetadata: { agentName: 'support-agent' } });
 * ```
 */
export function createAgentTrajectoryScorer(options: AgentTrajectoryScorerOptions) {
  const weights: TrajectoryWeights = { ...DEFAULT_WEIGHTS, ...options.weights };
  const rulesFor = agentRulesLookup(options.agents);
  return createScorer({
    id: 'agent-trajectory-scorer',
    name: 'Agent Trajectory Scorer',
    description: 'Trajectory accuracy, efficiency, tool failures, blacklists and required predecessors, per agent',
    type: 'trajectory',
  })
    .preprocess(({ run }) => {
      const agentName = agentNameOfRun(run);
      if (agentName === undefined) return notScorable('the run does not say which agent it belongs to');
      const rules = rulesFor(agentName);
      if (!rules) return notScorable(`no trajectory rules for agent ${agentName}`);
      const full = toTrajectory(run.output);
      const trajectory = rules.view === 'tools' ? toolView(full) : full;
      const perItem = (run.expectedTrajectory ?? {}) as TrajectoryExpectation;
      const evaluation = evaluateTrajectory(trajectory, { ...rules.expectation, ...perItem }, weights);
      const requiresViolations = checkRequires(trajectory, rules.requires);
      const score = requiresViolations.length > 0 ? 0 : evaluation.score;
      const out: AgentTrajectoryAnalysis = { agentName, rulesKey: rules.key, evaluation, requiresViolations, score };
      return out;
    })
    .generateScore(({ results }) => results.preprocessStepResult.score)
    .generateReason(({ results }) => {
      const r = results.preprocessStepResult;
      if (r.requiresViolations.length === 0) return trajectoryReason(r.evaluation);
      const lines = r.requiresViolations.map((v) => `${v.tool} called before ${v.missing.join(', ')}`);
      return `Score: 0\nRequired predecessor missing: ${lines.join('; ')}.`;
    });
}
