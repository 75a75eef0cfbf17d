/**
 * The kind of a configured scorer for sampling and queueing: a `type: custom` module scorer is a judge
 * scorer only when it is declared so (`kind: judge`) or when it has a judge step (a prompt step, which
 * `hasJudge` / `getSteps()` show); otherwise it is sampled like a code scorer (built-in rate 1, not 0.1)
 * and runs inline. Every other type keeps the kind its type definition declares.
 */
import type { ConfiguredScorer, ScorerKind } from '../scorers/descriptor.js';

/** What a custom module scorer's own surface says about judge calls. */
export function detectedKind(scorer: ConfiguredScorer['scorer']): ScorerKind {
  if (typeof scorer.hasJudge === 'boolean') return scorer.hasJudge ? 'judge' : 'code';
  return scorer.getSteps().some((s) => s.type === 'prompt') ? 'judge' : 'code';
}

/**
 * The scorer with its effective kind: for `type: custom`, `declared` (the entry's `kind`) else the detected
 * one; unchanged for other types. A scorer that becomes a code scorer loses its judge model id.
 *
 * @example
 * ```ts
 * withEffectiveKind(configured, entry.kind); // { ...configured, kind: 'code' } for a function-only module scorer
 * ```
 */
export function withEffectiveKind(s: ConfiguredScorer, declared: unknown): ConfiguredScorer {
  if (s.type !== 'custom') return s;
  const kind: ScorerKind = declared === 'code' || declared === 'judge' ? declared : detectedKind(s.scorer);
  if (kind === s.kind) return s;
  const { judgeModel: _dropped, ...rest } = s;
  return kind === 'code' ? { ...rest, kind } : { ...s, kind };
}
