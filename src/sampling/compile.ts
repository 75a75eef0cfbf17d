/**
 * Compiles the `sampling` section once (at start and on reload) into lookups the hot path only reads:
 * agent matching, rules, and where each rate and rate limit comes from.
 */
import type { AgentSamplingConfig, RateLimitConfig, RuleConfig, SamplingConfig, ScorerSamplingConfig } from '../config/sections/sampling.js';
import { formatPath } from '../config/path.js';
import { createPatternMatcher, type PatternMatch } from '../util/glob.js';
import { ruleFromConfig, type Rule } from './rules/rule.js';
import type { ScorerKind } from './types.js';

/** Built-in rates when nothing in `sampling` sets one (docs/configuration.md). */
export const BUILTIN_RATES: Readonly<Record<ScorerKind, number>> = { code: 1, judge: 0.1 };

/**
 * The global rules when `sampling.rules` is absent: judge scorers spend their rate first on runs whose answer
 * the code scorers left unverified, and sample the rest at 2 % at least (`rules: []` turns it off). Without a
 * code scorer that reports unverified specifics, or with a rate of 1, it samples exactly as the rate alone.
 */
export const BUILTIN_RULES: readonly RuleConfig[] = [{ name: 'unverified-first', type: 'unverified', action: 'prefer', rest: 0.02 }];

/** A limit and the config path that names it; the path is also the bucket's identity. */
export interface LimitRef {
  path: string;
  limit: RateLimitConfig;
}

export interface AgentEntry {
  key: string;
  glob: boolean;
  config: AgentSamplingConfig;
  rules: readonly Rule[];
}

export interface CompiledSampling {
  respectUpstream: boolean;
  globalRules: readonly Rule[];
  matchAgent(name: string): AgentEntry | undefined;
  /** The rate for a scorer under an agent entry, and the config path (or `built-in`) it came from. */
  rate(entry: AgentEntry | undefined, scorer: string, kind: ScorerKind): { rate: number; source: string };
  /** Limits that apply: the agent-level one (entry, else default) and the scorer-level one (entry, else default). */
  limits(entry: AgentEntry | undefined, scorer: string): LimitRef[];
  /** Every limit in the config (so buckets can be created up front). */
  allLimits(): LimitRef[];
}

const agentsPath = (key: string): string => formatPath(['sampling', 'agents', key]);

function scorerOverride(map: Readonly<Record<string, ScorerSamplingConfig>> | undefined, scorer: string): ScorerSamplingConfig | undefined {
  return map && Object.hasOwn(map, scorer) ? map[scorer] : undefined;
}

export function compileSampling(section: SamplingConfig): CompiledSampling {
  const s = section ?? { respectUpstream: true };
  const globalRules = s.rules
    ? s.rules.map((r, i) => ruleFromConfig(r, formatPath(['sampling', 'rules', i])))
    : BUILTIN_RULES.map((r) => ruleFromConfig(r, `built-in rule ${r.name ?? r.type}`));
  const entries: Record<string, AgentEntry> = {};
  for (const [key, config] of Object.entries(s.agents ?? {})) {
    const rules = (config.rules ?? []).map((r, i) => ruleFromConfig(r, formatPath(['sampling', 'agents', key, 'rules', i])));
    entries[key] = { key, glob: false, config, rules };
  }
  const match = createPatternMatcher(entries);
  const def = s.default;

  return {
    respectUpstream: s.respectUpstream,
    globalRules,
    matchAgent(name) {
      const m: PatternMatch<AgentEntry> | undefined = match(name);
      return m ? { ...m.value, glob: m.glob } : undefined;
    },
    rate(entry, scorer, kind) {
      if (entry) {
        const o = scorerOverride(entry.config.scorers, scorer);
        if (o?.rate !== undefined) return { rate: o.rate, source: formatPath(['sampling', 'agents', entry.key, 'scorers', scorer]) };
        if (entry.config.rate !== undefined) return { rate: entry.config.rate, source: `${agentsPath(entry.key)}.rate` };
      }
      const d = scorerOverride(def?.scorers, scorer);
      if (d?.rate !== undefined) return { rate: d.rate, source: formatPath(['sampling', 'default', 'scorers', scorer]) };
      if (def?.rate !== undefined) return { rate: def.rate, source: 'sampling.default.rate' };
      return { rate: BUILTIN_RATES[kind], source: `built-in (${kind} scorer)` };
    },
    limits(entry, scorer) {
      const out: LimitRef[] = [];
      if (entry?.config.rateLimit) out.push({ path: `${agentsPath(entry.key)}.rateLimit`, limit: entry.config.rateLimit });
      else if (def?.rateLimit) out.push({ path: 'sampling.default.rateLimit', limit: def.rateLimit });
      const o = entry ? scorerOverride(entry.config.scorers, scorer) : undefined;
      const d = scorerOverride(def?.scorers, scorer);
      if (o?.rateLimit) out.push({ path: `${formatPath(['sampling', 'agents', entry?.key ?? '', 'scorers', scorer])}.rateLimit`, limit: o.rateLimit });
      else if (d?.rateLimit) out.push({ path: `${formatPath(['sampling', 'default', 'scorers', scorer])}.rateLimit`, limit: d.rateLimit });
      return out;
    },
    allLimits() {
      const out: LimitRef[] = [];
      if (def?.rateLimit) out.push({ path: 'sampling.default.rateLimit', limit: def.rateLimit });
      for (const [name, o] of Object.entries(def?.scorers ?? {})) {
        if (o.rateLimit) out.push({ path: `${formatPath(['sampling', 'default', 'scorers', name])}.rateLimit`, limit: o.rateLimit });
      }
      for (const [key, e] of Object.entries(entries)) {
        if (e.config.rateLimit) out.push({ path: `${agentsPath(key)}.rateLimit`, limit: e.config.rateLimit });
        for (const [name, o] of Object.entries(e.config.scorers ?? {})) {
          if (o.rateLimit) out.push({ path: `${formatPath(['sampling', 'agents', key, 'scorers', name])}.rateLimit`, limit: o.rateLimit });
        }
      }
      return out;
    },
  };
}
