/**
 * The scorer registry of one service: maps a config entry `scorers.<name>: { type, threshold?, reason?,
 * ...options }` to a configured scorer (its descriptor plus the scorer pipeline). Each type definition
 * carries its kind, its direction and the schema of its options, so checking an entry's options lives
 * with the type; `check` reports every problem of every entry with its key path `scorers.<name>.<key>`.
 * `createScorerRegistry()` returns a registry holding every built-in type; nothing is registered by
 * importing a module.
 */
import type { z } from 'zod';
import { formatPath } from '../config/path.js';
import { didYouMean } from '../config/suggest.js';
import { ConfigError, type ConfigIssue } from '../errors.js';
import { registerCodeScorerTypes } from './code/register.js';
import type { ElementCache } from './code/completeness/element-cache.js';
import type { ElementPool } from './code/completeness/element-pool.js';
import type { ScorerLike } from './core/types.js';
import type { JudgePorts } from './core/scorer.js';
import { registerCustomScorerTypes } from './custom/register.js';
import { DEFAULT_THRESHOLD, type ConfiguredScorer, type ReasonPolicy, type ScoreDirection, type ScorerKind } from './descriptor.js';
import { registerLlmScorerTypes } from './llm/register.js';
import { judgeInstructionsOf, scorerVersion } from './version.js';

/** What a factory gets besides its options. */
export interface ScorerFactoryContext {
  /** The config name (`scorers.<name>`), also the evaluation name. */
  name: string;
  /** The judge model for judge scorers (a `JudgeModelPort`, a model object, or a model string); absent when no judge is configured. */
  judgeModel?: unknown;
  /** Resolves model strings and model objects a scorer names itself (custom modules, YAML judges with `model`). */
  judges?: JudgePorts;
  /** Directory of the config file, for resolving relative module paths. */
  configDir?: string;
  /** The service's completeness worker pool, grown to at least `size` workers (one pool per build). */
  elementPool?: (size: number) => ElementPool;
  /** The service's cache of parsed completeness elements (one per build; the elements of a text do not depend on the scorer). */
  elementCache?: () => ElementCache;
}

/** One registered scorer type. */
export interface ScorerTypeDefinition<O = unknown> {
  kind: ScorerKind;
  /** `higher` unless given; a function reads it from the entry's options (YAML judges' `direction`). */
  direction?: ScoreDirection | ((options: O) => ScoreDirection);
  /** Options schema (the entry without `type`, `threshold`, `reason`); should be strict so typos are reported. */
  options: z.ZodType<O>;
  /** True when the scorer needs ground truth (not applicable without it). */
  needsGroundTruth?: boolean;
  /** True when an empty answer is what the scorer judges (`answered`), not a reason to skip it. */
  scoresEmptyOutput?: boolean;
  /**
   * The highest score a scorer of this type gives with these options, which bounds `threshold`; undefined when
   * it cannot be known (a custom module). Default: the `scale` option when the type has one, else 1.
   */
  maxScore?: (options: O) => number | undefined;
  create(options: O, context: ScorerFactoryContext): ScorerLike | Promise<ScorerLike>;
}

/** Keys every entry may carry besides the type's options. */
const COMMON_KEYS: ReadonlySet<string> = new Set(['type', 'threshold', 'reason']);

/** The default {@link ScorerTypeDefinition.maxScore}: `scale` (default 1) multiplies every built-in score that has it. */
function defaultMaxScore(options: unknown): number {
  const scale = options !== null && typeof options === 'object' ? (options as { scale?: unknown }).scale : undefined;
  return typeof scale === 'number' && scale > 0 ? scale : 1;
}

function optionsOf(entry: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(entry)) if (!COMMON_KEYS.has(k)) out[k] = v;
  return out;
}

export class ScorerRegistry {
  readonly #types = new Map<string, ScorerTypeDefinition>();

  /**
   * Register (or replace) a scorer type.
   *
   * @example
   * ```ts
   * registry.define('shouting', { kind: 'code', options: z.strictObject({}), create: () => createShoutingScorer() });
   * ```
   */
  define<O>(type: string, definition: ScorerTypeDefinition<O>): void {
    this.#types.set(type, definition as ScorerTypeDefinition);
  }

  /** The definition of a type, or undefined. */
  get(type: string): ScorerTypeDefinition | undefined {
    return this.#types.get(type);
  }

  /** Registered type names, sorted. */
  types(): string[] {
    return [...this.#types.keys()].sort();
  }

  /** Every problem of every entry of a `scorers` section, with key paths (none for a valid section). */
  check(section: Readonly<Record<string, unknown>> | undefined): ConfigIssue[] {
    const issues: ConfigIssue[] = [];
    for (const [name, entry] of Object.entries(section ?? {})) {
      if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) continue;
      issues.push(...this.#entryIssues(name, entry as Record<string, unknown>).issues);
    }
    return issues;
  }

  /**
   * Build one configured scorer. Throws `ConfigError` naming `scorers.<name>.<key>` for an unknown type or
   * bad options.
   *
   * @example
   * ```ts
   * const s = await registry.build('similarity', { type: 'content-similarity', threshold: 0.6 });
   * s.scorer.id; // 'content-similarity-scorer'
   * ```
   */
  async build(name: string, entry: Readonly<Record<string, unknown>>, context: Omit<ScorerFactoryContext, 'name'> = {}, judgeModelId?: string): Promise<ConfiguredScorer> {
    const { issues, options, def } = this.#entryIssues(name, entry);
    if (issues.length > 0 || !def) throw new ConfigError('<config>', issues);
    const scorer = await def.create(options, { ...context, name });
    const reason: ReasonPolicy = entry.reason === 'always' || entry.reason === 'never' ? entry.reason : 'on-fail';
    const direction = typeof def.direction === 'function' ? def.direction(options) : (def.direction ?? 'higher');
    const threshold = typeof entry.threshold === 'number' ? entry.threshold : DEFAULT_THRESHOLD;
    const judgeModel = def.kind === 'judge' && judgeModelId ? judgeModelId : undefined;
    const type = entry.type as string;
    return {
      name,
      type,
      kind: def.kind,
      direction,
      threshold,
      reason,
      needsGroundTruth: def.needsGroundTruth ?? false,
      ...(def.scoresEmptyOutput ? { scoresEmptyOutput: true } : {}),
      input: scorer.type === 'trajectory' ? 'trajectory' : 'agent',
      samplingKey: name,
      ...(judgeModel ? { judgeModel } : {}),
      version: scorerVersion({ type, options, threshold, direction, reason, judgeModel, instructions: judgeInstructionsOf(scorer) }),
      scorer,
    };
  }

  /** Build every entry of a `scorers` section, in config order. */
  async buildAll(section: Readonly<Record<string, Readonly<Record<string, unknown>>>>, context: Omit<ScorerFactoryContext, 'name'> = {}, judgeModelId?: string): Promise<ConfiguredScorer[]> {
    const out: ConfiguredScorer[] = [];
    for (const [name, entry] of Object.entries(section)) out.push(await this.build(name, entry, context, judgeModelId));
    return out;
  }

  /** Kind of a type; unknown types count as `judge` (the conservative sampling default). */
  kindOf(type: string): ScorerKind {
    return this.#types.get(type)?.kind ?? 'judge';
  }

  /** A `threshold` above the highest score the scorer can give would fail (or pass) every evaluation. */
  #thresholdIssues(name: string, entry: Readonly<Record<string, unknown>>, def: ScorerTypeDefinition, options: unknown): ConfigIssue[] {
    const { threshold } = entry;
    // A negative one is reported by the schema of the `scorers` section.
    if (typeof threshold !== 'number' || threshold < 0) return [];
    const max = def.maxScore ? def.maxScore(options) : defaultMaxScore(options);
    if (max === undefined || threshold <= max) return [];
    const scale = def.maxScore === undefined && (options as { scale?: unknown } | null)?.scale !== undefined ? ` (its scale)` : '';
    return [{ path: formatPath(['scorers', name, 'threshold']), message: `must be between 0 and ${max}${scale}: scores of type ${String(entry.type)} run from 0 to ${max}` }];
  }

  #entryIssues(name: string, entry: Readonly<Record<string, unknown>>): { issues: ConfigIssue[]; options?: unknown; def?: ScorerTypeDefinition } {
    const type = entry.type;
    const def = typeof type === 'string' ? this.#types.get(type) : undefined;
    if (!def) {
      if (typeof type !== 'string') return { issues: [] };
      return { issues: [{ path: formatPath(['scorers', name, 'type']), message: `unknown scorer type ${JSON.stringify(type)}${didYouMean(String(type), this.types())} (known: ${this.types().join(', ')})` }] };
    }
    const parsed = def.options.safeParse(optionsOf(entry));
    if (parsed.success) return { issues: this.#thresholdIssues(name, entry, def, parsed.data), options: parsed.data, def };
    const issues: ConfigIssue[] = [];
    for (const issue of parsed.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) issues.push({ path: formatPath(['scorers', name, ...issue.path, key]), message: `unknown option for type ${String(type)}` });
      } else if (issue.code === 'invalid_key' && issue.issues.length > 0) {
        for (const inner of issue.issues) issues.push({ path: formatPath(['scorers', name, ...issue.path]), message: inner.message });
      } else {
        issues.push({ path: formatPath(['scorers', name, ...issue.path]), message: issue.message });
      }
    }
    return { issues, def };
  }
}

/**
 * A registry with every built-in type: the code scorers and quick checks, the LLM-judged scorers, and
 * `custom`, `judge` and `agent-trajectory`.
 *
 * @example
 * ```ts
 * createScorerRegistry().get('toxicity')?.direction; // 'lower'
 * ```
 */
export function createScorerRegistry(): ScorerRegistry {
  const registry = new ScorerRegistry();
  const define = <O>(type: string, definition: ScorerTypeDefinition<O>): void => registry.define(type, definition);
  registerCodeScorerTypes(define);
  registerLlmScorerTypes(define);
  registerCustomScorerTypes(define);
  return registry;
}
