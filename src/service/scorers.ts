/**
 * The scorers of a service, from config: the configured `scorers` section, or the built-in default set
 * when it is absent (the code scorers always; the live-monitoring judge scorers once a judge API key is
 * set), with the judge economics around the default judge and one completeness worker pool.
 */
import { dirname } from 'node:path';
import type { Config } from '../config/schema.js';
import { formatPath } from '../config/path.js';
import { ConfigError, type ConfigIssue } from '../errors.js';
import { createJudgeEconomics, type JudgeEconomics } from '../judge/economics/economics.js';
import { ElementCache } from '../scorers/code/completeness/element-cache.js';
import { ElementPool } from '../scorers/code/completeness/element-pool.js';
import type { ConfiguredScorer, ScorerKind } from '../scorers/descriptor.js';
import { claimsSchema } from '../scorers/llm/claims.js';
import type { ScorerRegistry } from '../scorers/registry.js';
import { withEffectiveKind } from '../sampling/kind.js';
import type { Settings } from './settings.js';

type ScorerSection = NonNullable<Config['scorers']>;

/**
 * Code scorers run when `scorers` is absent: verdicts for live monitoring without ground truth or a judge
 * (docs/configuration.md, "The embedded default"). `grounding` fails answers whose specifics contradict
 * or are not backed by the tool results; `answered` fails refusals, stalls, empty and off-topic answers
 * after a tool succeeded; `tool-errors` fails runs whose tools threw, and passes runs without tools
 * (chit-chat), which the other two do not apply to.
 */
export const DEFAULT_CODE_SCORERS: Readonly<Record<string, { type: string; threshold?: number }>> = {
  grounding: { type: 'claim-grounding', threshold: 0.5 },
  answered: { type: 'answered', threshold: 0.5 },
  'tool-errors': { type: 'no-tool-errors', threshold: 0.5 },
};

/** Judge scorers added to the defaults when a judge API key is configured. */
export const DEFAULT_JUDGE_SCORERS: Readonly<Record<string, { type: string; threshold?: number }>> = {
  hallucination: { type: 'hallucination', threshold: 0.5 },
  faithfulness: { type: 'faithfulness', threshold: 0.5 },
  relevancy: { type: 'answer-relevancy', threshold: 0.7 },
};

/** The effective `scorers` section: as configured, or the defaults (judge scorers only with a judge). */
export function effectiveScorerSection(config: Pick<Config, 'scorers'>, judgeEnabled: boolean): ScorerSection {
  if (config.scorers) return config.scorers;
  const entries = { ...DEFAULT_CODE_SCORERS, ...(judgeEnabled ? DEFAULT_JUDGE_SCORERS : {}) };
  const out: Record<string, { type: string; threshold?: number; reason: 'on-fail' }> = {};
  for (const [name, e] of Object.entries(entries)) out[name] = { ...e, reason: 'on-fail' };
  return out;
}

/**
 * Judge scorers configured while no judge is (no API key in `judge.apiKey` or `OPENAI_API_KEY`): one issue
 * per scorer at `scorers.<name>.type`. `check-config` reports them; building the scorers refuses them.
 */
export function judgeRequirementIssues(config: Pick<Config, 'scorers'>, registry: ScorerRegistry, judgeEnabled: boolean, problem?: Error): ConfigIssue[] {
  if (!config.scorers || judgeEnabled) return [];
  // The resolver's own words when it has them (`judge model "openrouter/…" needs an API key: set OPENROUTER_API_KEY`).
  const fix = problem ? problem.message : 'set judge.apiKey or OPENAI_API_KEY';
  const issues: ConfigIssue[] = [];
  for (const [name, entry] of Object.entries(config.scorers)) {
    // An unknown type is reported as such (with a suggestion) by the registry's check, not as needing the judge.
    if (registry.get(entry.type) && registry.kindOf(entry.type) === 'judge' && entry.type !== 'custom') {
      issues.push({ path: formatPath(['scorers', name, 'type']), message: `type ${entry.type} needs the LLM judge; ${fix}` });
    }
  }
  return issues;
}

/** Kind per configured scorer's sampling key (what the sampling policy needs to pick default rates). */
export function samplingKinds(scorers: readonly Pick<ConfiguredScorer, 'samplingKey' | 'kind'>[]): Record<string, ScorerKind> {
  const out: Record<string, ScorerKind> = {};
  for (const s of scorers) out[s.samplingKey] = s.kind;
  return out;
}

export interface ServiceScorers {
  scorers: ConfiguredScorer[];
  /** Judge economics (cache, shared preprocessing, budgets, accounting), present when a judge is configured. */
  economics: JudgeEconomics | undefined;
  /** The completeness worker pool, when a completeness scorer parses in workers (a component of the service). */
  elementPool: ElementPool | undefined;
  /** Parsed completeness elements, shared by the completeness scorers, when one is configured. */
  elementCache: ElementCache | undefined;
}

/**
 * Build the scorers of `config`. Throws `ConfigError` (naming `configPath`) for judge scorers without a
 * judge, unknown types and bad options.
 */
export async function buildServiceScorers(config: Config, settings: Settings, configPath?: string): Promise<ServiceScorers> {
  const { judges } = settings;
  const missing = judgeRequirementIssues(config, settings.scorers, judges.enabled, judges.problem);
  if (missing.length > 0) throw new ConfigError(configPath ?? '<config>', missing);
  const client = judges.client;
  const economics = client
    ? createJudgeEconomics(config.economics, { now: settings.now, telemetry: settings.telemetry, scopes: judges.scopes, shareableSchemas: new Set([claimsSchema]) })
    : undefined;
  if (client) settings.logger.info({ ...judges.defaultEndpoint, model: judges.judge.model }, 'LLM judge enabled');
  let elementPool: ElementPool | undefined;
  let elementCache: ElementCache | undefined;
  const section = effectiveScorerSection(config, judges.enabled);
  const built = await settings.scorers.buildAll(
    section,
    {
      judges,
      ...(client && economics ? { judgeModel: economics.wrap(client.port()) } : {}),
      ...(configPath ? { configDir: dirname(configPath) } : {}),
      elementPool: (size) => {
        elementPool ??= new ElementPool(size);
        elementPool.grow(size);
        return elementPool;
      },
      elementCache: () => (elementCache ??= new ElementCache()),
    },
    client?.defaultModel,
  );
  // A custom scorer that calls no judge is sampled and run as a code scorer (src/sampling/kind.ts).
  const scorers = built.map((s) => withEffectiveKind(s, section[s.name]?.kind));
  return { scorers, economics, elementPool, elementCache };
}
