/**
 * Builds the pipeline's scorers from config: the configured `scorers` section, or the built-in default
 * set when it is absent (SPEC §3: code scorers always; the live-monitoring judge scorers once a judge
 * API key is set).
 */
import { dirname } from 'node:path';
import type { Config } from '../config/schema.js';
import { formatPath } from '../config/load.js';
import { logger } from '../telemetry/log.js';
import '../scorers/builtin.js';
import { createJudgeEconomics, type JudgeEconomics } from '../judge/economics/economics.js';
import { createJudgeClient, type JudgeClient } from '../judge/client.js';
import { markJudgeFetch } from './self-exclusion.js';
import { installJudge } from '../judge/resolver.js';
import { judgeEnabled, resolveJudgeSettings } from '../judge/settings.js';
import { elementPoolWarm } from '../scorers/code/completeness/element-pool.js';
import { buildScorers, getScorerType } from '../scorers/registry.js';
import { ConfigError, type ConfigIssue } from '../errors.js';
import { configuredScorerOf, type ConfiguredScorer } from './configured-scorer.js';

/** Code scorers run when `scorers` is absent. */
export const DEFAULT_CODE_SCORERS: Readonly<Record<string, { type: string; threshold?: number }>> = {
  completeness: { type: 'completeness' },
  keywords: { type: 'keyword-coverage' },
  grounding: { type: 'grounding' },
};

/** Judge scorers added to the defaults when a judge API key is configured. */
export const DEFAULT_JUDGE_SCORERS: Readonly<Record<string, { type: string; threshold?: number }>> = {
  hallucination: { type: 'hallucination', threshold: 0.5 },
  faithfulness: { type: 'faithfulness', threshold: 0.5 },
  relevancy: { type: 'answer-relevancy', threshold: 0.7 },
};

export interface BuiltScorers {
  scorers: ConfiguredScorer[];
  /** Judge economics (cache, shared preprocessing, budgets, accounting), present when a judge is configured. */
  economics?: JudgeEconomics;
  /** The judge client, to close at shutdown. */
  judge?: JudgeClient;
  /** Kind per scorer name, for the sampling policy. */
  kinds: Record<string, 'code' | 'judge'>;
  /** The judge model id, when a judge is configured. */
  judgeModel?: string;
}

/** The judge from `judge` + environment (SPEC §3), installed for model-id strings; undefined when off. */
export function installJudgeFromConfig(config: Config, env: Readonly<Record<string, string | undefined>> = process.env): JudgeClient | undefined {
  const settings = resolveJudgeSettings(config.judge, env);
  if (!judgeEnabled(settings)) return undefined;
  // Judge calls carry a marker header and user agent, so a host app that traces them never gets them scored.
  const client = createJudgeClient(settings, { fetch: markJudgeFetch() });
  installJudge(client);
  logger.info({ baseURL: settings.baseURL, model: settings.model }, 'LLM judge enabled');
  return client;
}

/** The effective `scorers` section: as configured, or the defaults. */
export function effectiveScorerSection(config: Config, judgeModel: string | undefined): NonNullable<Config['scorers']> {
  if (config.scorers) return config.scorers;
  const entries = { ...DEFAULT_CODE_SCORERS, ...(judgeModel ? DEFAULT_JUDGE_SCORERS : {}) };
  const out: Record<string, { type: string; threshold?: number; reason: 'on-fail' }> = {};
  for (const [name, e] of Object.entries(entries)) out[name] = { ...e, reason: 'on-fail' };
  return out;
}

/**
 * Judge scorers configured while no judge is (no API key in `judge.apiKey` or `OPENAI_API_KEY`): one issue
 * per scorer at `scorers.<name>.type`. `check-config` reports them; building the scorers refuses them.
 */
export function judgeRequirementIssues(config: Config, env: Readonly<Record<string, string | undefined>> = process.env): ConfigIssue[] {
  if (!config.scorers || judgeEnabled(resolveJudgeSettings(config.judge, env))) return [];
  const issues: ConfigIssue[] = [];
  for (const [name, entry] of Object.entries(config.scorers)) {
    if (getScorerType(entry.type)?.kind === 'judge' && entry.type !== 'custom') {
      issues.push({ path: formatPath(['scorers', name, 'type']), message: `type ${entry.type} needs the LLM judge; set judge.apiKey or OPENAI_API_KEY` });
    }
  }
  return issues;
}

export async function scorersFromConfig(config: Config, options: { configPath?: string | undefined; env?: Readonly<Record<string, string | undefined>> } = {}): Promise<BuiltScorers> {
  const missing = judgeRequirementIssues(config, options.env);
  if (missing.length > 0) throw new ConfigError(options.configPath ?? '<config>', missing);
  const judge = installJudgeFromConfig(config, options.env);
  const judgeModel = judge?.defaultModel;
  const economics = judge ? createJudgeEconomics(config.economics) : undefined;
  const section = effectiveScorerSection(config, judgeModel);
  const built = await buildScorers(
    { scorers: section },
    {
      ...(judge && economics ? { judgeModel: economics.wrap(judge.port()) } : {}),
      ...(options.configPath ? { configDir: dirname(options.configPath) } : {}),
    },
  );
  // Completeness parses in worker threads: they load compromise and warm up before the first run.
  await elementPoolWarm();
  const scorers = built.map((b) => configuredScorerOf(b, judgeModel));
  const kinds: Record<string, 'code' | 'judge'> = {};
  for (const s of scorers) kinds[s.name] = s.kind;
  return { scorers, kinds, ...(judgeModel ? { judgeModel } : {}), ...(economics ? { economics } : {}), ...(judge ? { judge } : {}) };
}
