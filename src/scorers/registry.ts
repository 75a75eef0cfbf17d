/**
 * The scorer registry: maps a config entry `scorers.<name>: { type, threshold?, reason?, ...options }` to a
 * scorer instance, with its kind (`code` | `judge`) and score direction. Code types are registered here;
 * the LLM types register themselves from their own files with {@link registerScorerType}. Options are
 * validated at config load (a check registered with `registerConfigCheck`), every problem named by its
 * key path `scorers.<name>.<key>`.
 */
import type { z } from 'zod';
import { formatPath, registerConfigCheck } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { ConfigError, type ConfigIssue } from '../errors.js';
import { registerCodeScorerTypes } from './code/register.js';
import type { ScorerLike } from './core/types.js';

/** Code scorers run locally; judge scorers call an LLM (sampled at 0.1 by default, SPEC §4). */
export type ScorerKind = 'code' | 'judge';

/** How a score reads; labels follow it (SPEC §6). */
export type ScoreDirection = 'higher-is-better' | 'lower-is-better';

/** Types whose scores are "lower is better" unless their definition says otherwise. */
export const LOWER_IS_BETTER_TYPES: ReadonlySet<string> = new Set(['hallucination', 'toxicity', 'bias']);

/** Label threshold when a scorer entry gives none. */
export const DEFAULT_THRESHOLD = 0.5;

/** What a factory gets besides its options. */
export interface ScorerFactoryContext {
  /** The config name (`scorers.<name>`), also the evaluation name. */
  name: string;
  /** The judge model for judge scorers (a `JudgeModelPort`, a model object, or a model id); absent when no judge is configured. */
  judgeModel?: unknown;
  /** Directory of the config file, for resolving relative module paths. */
  configDir?: string;
}

/** One registered scorer type. */
export interface ScorerTypeDefinition<O = unknown> {
  kind: ScorerKind;
  /** Default: lower-is-better for hallucination, toxicity and bias; higher-is-better otherwise. */
  direction?: ScoreDirection;
  /** Options schema (the entry without `type`, `threshold`, `reason`); should be strict so typos are reported. */
  options: z.ZodType<O>;
  /** True when the scorer needs ground truth (not applicable without it). */
  needsGroundTruth?: boolean;
  create(options: O, context: ScorerFactoryContext): ScorerLike | Promise<ScorerLike>;
}

/** A scorer built from config, ready for the service. */
export interface ConfiguredScorer {
  name: string;
  type: string;
  kind: ScorerKind;
  direction: ScoreDirection;
  threshold: number;
  reason: 'always' | 'on-fail' | 'never';
  needsGroundTruth: boolean;
  scorer: ScorerLike;
}

const types = new Map<string, ScorerTypeDefinition>();

/**
 * Register (or replace) a scorer type.
 *
 * @example
 * ```ts
 * registerScorerType('hallucination', {
 *   kind: 'judge',
 *   options: z.strictObject({ scale: z.number().optional(), context: z.array(z.string()).optional() }),
 *   create: (o, ctx) => createHallucinationScorer({ model: ctx.judgeModel, options: o }),
 * });
 * ```
 */
export function registerScorerType<O>(type: string, definition: ScorerTypeDefinition<O>): void {
  types.set(type, definition);
}

/**
 * The definition of a type, or undefined.
 *
 * @example
 * ```ts
 * getScorerType('content-similarity')?.kind; // 'code'
 * ```
 */
export function getScorerType(type: string): ScorerTypeDefinition | undefined {
  return types.get(type);
}

/**
 * Registered type names, sorted.
 *
 * @example
 * ```ts
 * listScorerTypes(); // ['called-tool', 'completeness', 'content-similarity', …]
 * ```
 */
export function listScorerTypes(): string[] {
  return [...types.keys()].sort();
}

/**
 * Direction of a type (its definition, else the built-in rule).
 *
 * @example
 * ```ts
 * directionOf('toxicity'); // 'lower-is-better'
 * ```
 */
export function directionOf(type: string): ScoreDirection {
  return types.get(type)?.direction ?? (LOWER_IS_BETTER_TYPES.has(type) ? 'lower-is-better' : 'higher-is-better');
}

/**
 * Label a score (SPEC §6): lower-is-better fails when `score > threshold`, the others when `score < threshold`.
 *
 * @example
 * ```ts
 * scoreLabel(0.25, 0.5, 'lower-is-better'); // 'pass'
 * ```
 */
export function scoreLabel(score: number, threshold: number, direction: ScoreDirection): 'pass' | 'fail' {
  const fail = direction === 'lower-is-better' ? score > threshold : score < threshold;
  return fail ? 'fail' : 'pass';
}

const COMMON_KEYS = new Set(['type', 'threshold', 'reason']);

function optionsOf(entry: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(entry)) if (!COMMON_KEYS.has(k)) out[k] = v;
  return out;
}

/** Validate one entry; returns issues with full key paths. */
function entryIssues(name: string, entry: Record<string, unknown>): { issues: ConfigIssue[]; options?: unknown } {
  const type = entry.type;
  const def = typeof type === 'string' ? types.get(type) : undefined;
  if (!def) {
    return {
      issues: [
        { path: formatPath(['scorers', name, 'type']), message: `unknown scorer type ${JSON.stringify(type)} (known: ${listScorerTypes().join(', ')})` },
      ],
    };
  }
  const parsed = def.options.safeParse(optionsOf(entry));
  if (parsed.success) return { issues: [], options: parsed.data };
  const issues: ConfigIssue[] = [];
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) issues.push({ path: formatPath(['scorers', name, ...issue.path, key]), message: `unknown option for type ${String(type)}` });
    } else {
      issues.push({ path: formatPath(['scorers', name, ...issue.path]), message: issue.message });
    }
  }
  return { issues };
}

/**
 * Build one configured scorer. Throws `ConfigError` naming `scorers.<name>.<key>` for an unknown type or bad options.
 *
 * @example
 * ```ts
 * const s = await buildScorer('similarity', { type: 'content-similarity', threshold: 0.6 });
 * s.scorer.id; // 'content-similarity-scorer'
 * ```
 */
export async function buildScorer(name: string, entry: Readonly<Record<string, unknown>>, context: Partial<ScorerFactoryContext> = {}): Promise<ConfiguredScorer> {
  const { issues, options } = entryIssues(name, entry);
  if (issues.length > 0) throw new ConfigError('<config>', issues);
  const type = entry.type as string;
  const def = types.get(type) as ScorerTypeDefinition;
  const scorer = await def.create(options, { ...context, name });
  const threshold = typeof entry.threshold === 'number' ? entry.threshold : DEFAULT_THRESHOLD;
  const reason = entry.reason === 'always' || entry.reason === 'never' ? entry.reason : 'on-fail';
  // A YAML judge scorer says its own direction (`direction: lower | higher`); other types have a fixed one.
  const direction: ScoreDirection = entry.direction === 'lower' ? 'lower-is-better' : entry.direction === 'higher' ? 'higher-is-better' : directionOf(type);
  return { name, type, kind: def.kind, direction, threshold, reason, needsGroundTruth: def.needsGroundTruth ?? false, scorer };
}

/**
 * Build every scorer of `config.scorers`, in config order.
 *
 * @example
 * ```ts
 * const scorers = await buildScorers(config, { judgeModel });
 * ```
 */
export async function buildScorers(config: Pick<Config, 'scorers'>, context: Omit<Partial<ScorerFactoryContext>, 'name'> = {}): Promise<ConfiguredScorer[]> {
  const out: ConfiguredScorer[] = [];
  for (const [name, entry] of Object.entries(config.scorers ?? {})) out.push(await buildScorer(name, entry, context));
  return out;
}

/**
 * Kind per configured scorer name (for sampling defaults and `--explain-sampling`); unknown types are `judge`.
 *
 * @example
 * ```ts
 * scorerKinds(config); // { similarity: 'code', hallucination: 'judge' }
 * ```
 */
export function scorerKinds(config: Pick<Config, 'scorers'>): Record<string, ScorerKind> {
  const out: Record<string, ScorerKind> = {};
  for (const [name, entry] of Object.entries(config.scorers ?? {})) out[name] = types.get(entry.type)?.kind ?? 'judge';
  return out;
}

registerCodeScorerTypes(registerScorerType);

registerConfigCheck((config, issues) => {
  for (const [name, entry] of Object.entries(config.scorers ?? {})) issues.push(...entryIssues(name, entry).issues);
});
