/**
 * The sampling policy: one decision per (agent run, scorer), in this order:
 * upstream flags → agent rules → global rules → rate → rate limits. See docs/sampling.md.
 *
 * The policy never runs scorers: `boost` rules read the code scores the caller passes in `codeScores`.
 * Rate-limit buckets are its only state; a reloaded config gets a new policy with fresh buckets.
 */
import type { SamplingConfig } from '../config/sections/sampling.js';
import { componentSettings, type ComponentSettings } from '../component.js';
import { ThrottledLog } from '../telemetry/log.js';
import { agentSpanOf } from './agent-span.js';
import { compileSampling, type AgentEntry, type CompiledSampling } from './compile.js';
import { sampledAtRate } from './hash.js';
import { bucketFor, takeAll, type TokenBucket } from './rate-limit.js';
import type { Rule } from './rules/rule.js';
import type { SamplingDecision, SamplingInput, ScorerKind } from './types.js';
import { upstreamSampled } from './upstream.js';

export interface SamplingPolicy {
  /**
   * Decide whether `input.scorer` evaluates `input.run`. `nowMs` (default `Date.now()`) drives the rate
   * limits. Counts the decision in `tracejudge.sampling.decisions` (`decision`, `reason`,
   * `gen_ai.evaluation.name`). Never throws on bad run data: a rule that cannot evaluate is skipped.
   */
  decide(input: SamplingInput, nowMs?: number): SamplingDecision;
  /** The compiled config, for explanations. */
  readonly compiled: CompiledSampling;
}

const AGENT_CACHE_MAX = 4096;

function evaluateRules(rules: readonly Rule[], input: SamplingInput, kind: ScorerKind, ruleFailures: ThrottledLog, rate: () => number): SamplingDecision | undefined {
  for (const rule of rules) {
    let d: SamplingDecision | undefined;
    try {
      d = rule.evaluate(input, kind, rate);
    } catch (err) {
      ruleFailures.hit(1, { rule: rule.path, err: (err as Error).message });
      continue;
    }
    if (d) return d;
  }
  return undefined;
}

/**
 * Build a policy from the `sampling` section (undefined = built-in defaults) and the kind of each
 * configured scorer (used when an input does not say; unknown scorers count as `judge`). `nowMs` starts the
 * rate-limit buckets; `settings` give the decision counter and the log of rules that cannot evaluate.
 */
export function createSamplingPolicy(
  section: SamplingConfig,
  scorerKinds: Readonly<Record<string, ScorerKind>> = {},
  nowMs: number = Date.now(),
  settings: ComponentSettings = componentSettings(),
): SamplingPolicy {
  const compiled = compileSampling(section);
  const ruleFailures = new ThrottledLog(settings.logger, 'sampling rule could not evaluate a run; rule skipped');
  const decisions = settings.telemetry.instruments.samplingDecisions;
  const buckets = new Map<string, TokenBucket>();
  for (const ref of compiled.allLimits()) buckets.set(ref.path, bucketFor(ref.limit, nowMs));
  const agentCache = new Map<string, AgentEntry | null>();

  function entryFor(agentName: string): AgentEntry | undefined {
    let e = agentCache.get(agentName);
    if (e === undefined) {
      e = compiled.matchAgent(agentName) ?? null;
      if (agentCache.size >= AGENT_CACHE_MAX) agentCache.clear();
      agentCache.set(agentName, e);
    }
    return e ?? undefined;
  }

  function decideInner(input: SamplingInput, kind: ScorerKind, now: number): SamplingDecision {
    if (compiled.respectUpstream) {
      const span = agentSpanOf(input);
      if (span && upstreamSampled(span.flags) === false) return { sampled: false, rate: 0, reason: 'upstream-not-sampled' };
    }
    const entry = entryFor(input.run.agentName);
    const rateOf = (): number => compiled.rate(entry, input.scorer, kind).rate;
    let d = (entry ? evaluateRules(entry.rules, input, kind, ruleFailures, rateOf) : undefined) ?? evaluateRules(compiled.globalRules, input, kind, ruleFailures, rateOf);
    if (!d) {
      const { rate } = compiled.rate(entry, input.scorer, kind);
      d = { sampled: sampledAtRate(input.run.traceId, rate), rate, reason: `rate:${rate}` };
    }
    if (!d.sampled) return d;
    const limits = compiled.limits(entry, input.scorer);
    if (limits.length === 0) return d;
    const bs = limits.map((l) => buckets.get(l.path)).filter((b): b is TokenBucket => b !== undefined);
    return takeAll(bs, now) ? d : { sampled: false, rate: d.rate, reason: 'rate-limit' };
  }

  return {
    compiled,
    decide(input, now = Date.now()) {
      const kind = input.scorerKind ?? scorerKinds[input.scorer] ?? 'judge';
      const d = decideInner(input, kind, now);
      decisions.add(1, {
        decision: d.sampled ? 'sampled' : 'not_sampled',
        reason: d.reason,
        'gen_ai.evaluation.name': input.scorer,
      });
      return d;
    },
  };
}
