/**
 * The judge economics of one service (or one test): the wrapped judge ports, the budget ledger and the
 * cost accounting built from the `economics:` config section, plus {@link runBudgeted}, which the pipeline
 * calls around each judge evaluation.
 */
import type { EconomicsSection } from '../../config/sections/economics.js';
import { economicsSection } from '../../config/sections/economics.js';
import type { z } from 'zod';
import type { Telemetry } from '../../telemetry/instruments.js';
import type { JudgeModelPort } from '../port.js';
import { JudgeAccounting } from './accounting.js';
import { JudgeBudgets, type BudgetExhausted } from './budgets.js';
import { EconomicJudge } from './economic-judge.js';
import { JudgeScopes } from './scope.js';

/** Economics built from config. */
export interface JudgeEconomics {
  readonly config: EconomicsSection;
  readonly budgets: JudgeBudgets;
  readonly accounting: JudgeAccounting;
  /** The evaluation scope judge calls run in (the judge resolver's, so its ports see it too). */
  readonly scopes: JudgeScopes;
  /** Budget-exhausted counts (`tracejudge.judge.budget.exhausted`). */
  readonly telemetry: Telemetry | undefined;
  /** The economics wrapper of `port` (the same wrapper for the same port, so the cache is shared). */
  wrap(port: JudgeModelPort): EconomicJudge;
}

export interface JudgeEconomicsOptions {
  now?: () => number;
  telemetry?: Telemetry;
  /** Default: new scopes (pass the judge resolver's, so the ports' own metrics carry agent and scorer). */
  scopes?: JudgeScopes;
  /** Preprocess answer schemas shared within a run (e.g. the claims schema of hallucination and faithfulness). */
  shareableSchemas?: ReadonlySet<z.ZodType>;
}

/**
 * Build the economics from the `economics:` section (defaults when omitted).
 *
 * @example
 * ```ts
 * const economics = createJudgeEconomics(config.economics, { telemetry, scopes: judges.scopes });
 * const judgeModel = economics.wrap(judgeClient.port());
 * ```
 */
export function createJudgeEconomics(section?: EconomicsSection, options: JudgeEconomicsOptions = {}): JudgeEconomics {
  const config = section ?? economicsSection.parse(undefined);
  const now = options.now ?? Date.now;
  const scopes = options.scopes ?? new JudgeScopes();
  const budgets = new JudgeBudgets(config.budgets, now);
  const accounting = new JudgeAccounting(config.prices, options.telemetry, scopes);
  const wrapped = new WeakMap<JudgeModelPort, EconomicJudge>();
  return {
    config,
    budgets,
    accounting,
    scopes,
    telemetry: options.telemetry,
    wrap(port) {
      if (port instanceof EconomicJudge) return port;
      let w = wrapped.get(port);
      if (!w) {
        w = new EconomicJudge(port, {
          cache: config.cache.enabled ? { maxEntries: config.cache.maxEntries, ttlMs: config.cache.ttlMs } : false,
          sharedPreprocessing: config.sharedPreprocessing,
          accounting,
          scopes,
          ...(options.telemetry ? { telemetry: options.telemetry } : {}),
          ...(options.shareableSchemas ? { shareableSchemas: options.shareableSchemas } : {}),
          budgets,
          now,
        });
        wrapped.set(port, w);
      }
      return w;
    },
  };
}

/** How a budgeted evaluation ended. */
export type BudgetedOutcome<T> =
  | { kind: 'judged'; value: T }
  | { kind: 'fallback'; fallback: string; exhausted: BudgetExhausted; value: T }
  | { kind: 'skipped'; exhausted: BudgetExhausted };

export interface RunBudgetedArgs<T> {
  economics: JudgeEconomics;
  /** Identity of the run (e.g. `traceId:spanId`): shared preprocessing is keyed by it. */
  runId: string;
  agentName: string;
  scorerName: string;
  /** The judge evaluation. */
  evaluate: () => Promise<T>;
  /** The code scorer evaluation to run as fallback `name`; undefined when there is none by that name. */
  fallback?: (name: string) => (() => Promise<T>) | undefined;
}

/**
 * Run one judge evaluation inside its judge scope, unless a budget is spent: then the rule's fallback code
 * scorer runs (or nothing, for `skip`), and `tracejudge.judge.budget.exhausted` counts it with attributes
 * `gen_ai.agent.name`, `gen_ai.evaluation.name`, `window`, `resource`, `fallback`.
 * A fallback name with no scorer behind it is treated as `skip`.
 *
 * @example
 * ```ts
 * const out = await runBudgeted({ economics, runId, agentName, scorerName: 'hallucination', evaluate: () => evaluate(args),
 *   fallback: (name) => { const s = byName.get(name); return s ? () => evaluate({ ...args, scorer: s }) : undefined; } });
 * ```
 */
export async function runBudgeted<T>(args: RunBudgetedArgs<T>): Promise<BudgetedOutcome<T>> {
  const { economics, agentName, scorerName } = args;
  const exhausted = economics.budgets.check(agentName, scorerName);
  if (!exhausted) {
    const value = await economics.scopes.run({ runId: args.runId, agentName, scorerName }, args.evaluate);
    return { kind: 'judged', value };
  }
  const run = exhausted.fallback === 'skip' ? undefined : args.fallback?.(exhausted.fallback);
  economics.telemetry?.instruments.judgeBudgetExhausted.add(1, {
    'gen_ai.agent.name': economics.telemetry.agentLabel(agentName),
    'gen_ai.evaluation.name': scorerName,
    window: exhausted.window,
    resource: exhausted.resource,
    fallback: run ? exhausted.fallback : 'skip',
  });
  if (!run) return { kind: 'skipped', exhausted };
  return { kind: 'fallback', fallback: exhausted.fallback, exhausted, value: await run() };
}
