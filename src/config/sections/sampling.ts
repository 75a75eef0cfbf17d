/**
 * `sampling`: how much of each agent's traffic each scorer evaluates (docs/configuration.md).
 *
 * Precedence, in the order a decision is made:
 * 1. `respectUpstream` (default true): a run whose agent span carries W3C flags with the sampled bit clear
 *    is not scored.
 * 2. Rules: the matched agent entry's `rules`, then the top-level `rules`, each list in order; the first
 *    decisive rule wins.
 * 3. The rate: per scorer in the matched agent entry, else the entry's `rate`, else `default.scorers`,
 *    else `default.rate`, else the built-in 1.0 for code scorers and 0.1 for judge scorers.
 * 4. Rate limits cap every positive decision (rules included).
 *
 * Agent entries: an exact name beats every glob; among globs the most literal characters win, then the
 * fewest wildcards, then config order.
 */
import { z } from 'zod';
import { agentPatternKeys } from '../patterns.js';

const rate = z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1');

/** Token-bucket limit: exactly one of `perSecond` / `perMinute`; `burst` defaults to that number. */
export const rateLimit = z
  .strictObject({
    perSecond: z.number().positive('must be > 0').optional(),
    perMinute: z.number().positive('must be > 0').optional(),
    burst: z.number().int('must be an integer').min(1, 'must be >= 1').optional(),
  })
  .superRefine((v, ctx) => {
    if ((v.perSecond === undefined) === (v.perMinute === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'set exactly one of perSecond or perMinute' });
    }
  });
export type RateLimitConfig = z.output<typeof rateLimit>;

/** A scorer override: a bare rate (`hallucination: 1.0`) or `{ rate?, rateLimit? }`. */
const scorerSampling = z.preprocess(
  (v) => (typeof v === 'number' ? { rate: v } : v),
  z.strictObject({ rate: rate.optional(), rateLimit: rateLimit.optional() }),
);
export type ScorerSamplingConfig = z.output<typeof scorerSampling>;

/** What a rule does when its condition holds. */
const ruleAction = z.enum(['sample', 'drop', 'only', 'boost', 'prefer']);
export type RuleAction = z.output<typeof ruleAction>;

/** The condition part of a rule (also the members of `and` / `or` / `not`). */
export type PredicateConfig =
  | { type: 'errors'; includeSpans?: boolean }
  | {
      type: 'attribute';
      key: string;
      equals?: string | number | boolean;
      regex?: string;
      exists?: boolean;
      in?: 'any' | 'resource' | 'spans' | 'agent';
    }
  | { type: 'tool-calls'; min?: number }
  | { type: 'retrieval'; min?: number }
  | { type: 'latency'; aboveMs?: number; belowMs?: number }
  | { type: 'tokens'; count?: 'total' | 'input' | 'output'; above?: number; below?: number }
  | { type: 'score-below'; below: Record<string, number> }
  | { type: 'unverified'; scorers?: string[]; min?: number }
  | { type: 'and'; rules: PredicateConfig[] }
  | { type: 'or'; rules: PredicateConfig[] }
  | { type: 'not'; rule: PredicateConfig };

/** A top-level rule: a condition plus `name` (reason `rule:<name>`, default the type) and `action` (default `sample`). */
export type RuleConfig = PredicateConfig & { name?: string; action?: RuleAction; rest?: number };

const nonNegative = z.number().min(0, 'must be >= 0');

function atLeastOne(keys: readonly string[]) {
  return (v: Record<string, unknown>, ctx: z.RefinementCtx): void => {
    if (keys.every((k) => v[k] === undefined)) ctx.addIssue({ code: 'custom', message: `set at least one of ${keys.join(', ')}` });
  };
}

function validRegex(v: { regex?: string | undefined }, ctx: z.RefinementCtx): void {
  if (v.regex === undefined) return;
  try {
    new RegExp(v.regex);
  } catch (err) {
    ctx.addIssue({ code: 'custom', path: ['regex'], message: `invalid regular expression (${(err as Error).message})` });
  }
}

/** Build the variants of the condition union; `extra` adds `name` / `action` at the top level only. */
function variants(extra: z.ZodRawShape, nested: () => z.ZodType<PredicateConfig>) {
  return [
    z.strictObject({ type: z.literal('errors'), includeSpans: z.boolean().optional(), ...extra }),
    z
      .strictObject({
        type: z.literal('attribute'),
        key: z.string().min(1),
        equals: z.union([z.string(), z.number(), z.boolean()]).optional(),
        regex: z.string().optional(),
        exists: z.boolean().optional(),
        in: z.enum(['any', 'resource', 'spans', 'agent']).optional(),
        ...extra,
      })
      .superRefine((v, ctx) => {
        const set = ['equals', 'regex', 'exists'].filter((k) => (v as Record<string, unknown>)[k] !== undefined);
        if (set.length !== 1) ctx.addIssue({ code: 'custom', message: 'set exactly one of equals, regex or exists' });
        validRegex(v, ctx);
      }),
    z.strictObject({ type: z.literal('tool-calls'), min: z.number().int().min(1, 'must be >= 1').optional(), ...extra }),
    z.strictObject({ type: z.literal('retrieval'), min: z.number().int().min(1, 'must be >= 1').optional(), ...extra }),
    z
      .strictObject({ type: z.literal('latency'), aboveMs: nonNegative.optional(), belowMs: nonNegative.optional(), ...extra })
      .superRefine((v, ctx) => atLeastOne(['aboveMs', 'belowMs'])(v, ctx)),
    z
      .strictObject({
        type: z.literal('tokens'),
        count: z.enum(['total', 'input', 'output']).optional(),
        above: nonNegative.optional(),
        below: nonNegative.optional(),
        ...extra,
      })
      .superRefine((v, ctx) => atLeastOne(['above', 'below'])(v, ctx)),
    z
      .strictObject({ type: z.literal('score-below'), below: z.record(z.string().min(1), z.number()), ...extra })
      .superRefine((v, ctx) => {
        if (Object.keys(v.below).length === 0) ctx.addIssue({ code: 'custom', path: ['below'], message: 'name at least one code scorer' });
      }),
    z.strictObject({
      type: z.literal('unverified'),
      scorers: z.array(z.string().min(1)).min(1, 'name at least one code scorer, or leave scorers out').optional(),
      min: z.number().int().min(1, 'must be >= 1').optional(),
      ...extra,
    }),
    z.strictObject({ type: z.literal('and'), rules: z.array(z.lazy(nested)).min(1, 'needs at least one rule'), ...extra }),
    z.strictObject({ type: z.literal('or'), rules: z.array(z.lazy(nested)).min(1, 'needs at least one rule'), ...extra }),
    z.strictObject({ type: z.literal('not'), rule: z.lazy(nested), ...extra }),
  ] as const;
}

export const predicate: z.ZodType<PredicateConfig> = z.lazy(() => z.discriminatedUnion('type', variants({}, () => predicate)));

const ruleExtra = {
  name: z.string().regex(/^[A-Za-z0-9_.:-]+$/, 'use letters, digits, _ . : -').optional(),
  action: ruleAction.optional(),
  /** `prefer` only: the rate at which runs that do not match are still sampled (out of the scorer's rate). */
  rest: rate.optional(),
};

export const rule: z.ZodType<RuleConfig> = z.discriminatedUnion('type', variants(ruleExtra, () => predicate)).superRefine((r, ctx) => {
  const { rest, action } = r as RuleConfig;
  if (rest !== undefined && action !== 'prefer') ctx.addIssue({ code: 'custom', path: ['rest'], message: 'rest applies to action: prefer only' });
});

/** A list of rules whose effective names (`name`, else the type) are unique. */
const ruleList = z.array(rule).superRefine((rules, ctx) => {
  const seen = new Set<string>();
  rules.forEach((r, i) => {
    const name = r.name ?? r.type;
    if (seen.has(name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `duplicate rule name "${name}" (set a distinct name)` });
    seen.add(name);
  });
});

const agentSampling = z.strictObject({
  rate: rate.optional(),
  scorers: z.record(z.string().min(1), scorerSampling).optional(),
  rateLimit: rateLimit.optional(),
  rules: ruleList.optional(),
});
export type AgentSamplingConfig = z.output<typeof agentSampling>;

export const samplingSection = z
  .strictObject({
    /** Skip runs whose agent span says the upstream sampler dropped the trace. */
    respectUpstream: z.boolean().default(true),
    default: z
      .strictObject({
        rate: rate.optional(),
        scorers: z.record(z.string().min(1), scorerSampling).optional(),
        rateLimit: rateLimit.optional(),
      })
      .optional(),
    agents: z.record(z.string(), agentSampling).superRefine(agentPatternKeys).optional(),
    rules: ruleList.optional(),
  })
  .optional();

/** The validated `sampling` section (undefined when absent: built-in defaults apply). */
export type SamplingConfig = z.output<typeof samplingSection>;
