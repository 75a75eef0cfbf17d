/**
 * The version of a configured scorer: a short hash of its effective definition, so that results of a
 * scorer whose threshold, options, prompt, judge model or type changed can be told apart from the old ones
 * under the same name (docs/records.md, "Scorer versions"). It is part of the evaluation id: a changed
 * scorer writes new ids, an unchanged one keeps its ids on replay.
 */
import * as crypto from 'node:crypto';

/** What the version covers. Options are the parsed ones (defaults filled in), so writing a default out changes nothing. */
export interface ScorerDefinition {
  type: string;
  options: unknown;
  threshold: number;
  direction: string;
  reason: string;
  /** The judge model id (judge scorers with a judge). */
  judgeModel?: string | undefined;
  /** The scorer's judge instructions (its system prompt), when it has a judge. */
  instructions?: string | undefined;
}

/**
 * JSON with object keys sorted at every level and `undefined` members left out: the same definition always
 * gives the same text. Functions and symbols (possible in options given from code) become `null`; a
 * non-plain object (a model object) contributes its own enumerable properties.
 */
export function canonicalJson(value: unknown): string {
  const seen = new Set<object>();
  const walk = (v: unknown): unknown => {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
    if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
    if (typeof v === 'bigint') return v.toString();
    if (typeof v !== 'object') return null;
    if (seen.has(v)) return '[cycle]';
    seen.add(v);
    let out: unknown;
    if (Array.isArray(v)) out = v.map((x) => (x === undefined ? null : walk(x)));
    else if (v instanceof RegExp) out = String(v);
    else {
      const o: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) {
        const x = (v as Record<string, unknown>)[k];
        if (x !== undefined && typeof x !== 'function') o[k] = walk(x);
      }
      out = o;
    }
    seen.delete(v);
    return out;
  };
  return JSON.stringify(walk(value)) ?? 'null';
}

/** Characters of the version: 12 lowercase hex (48 bits), plenty to tell the versions of one scorer apart. */
export const SCORER_VERSION_LENGTH = 12;

/**
 * The version of a scorer definition: the first 12 lowercase hex characters of SHA-256 of its
 * {@link canonicalJson}. The scorer's name is not part of it (the evaluation id has the name already).
 *
 * @example
 * ```ts
 * scorerVersion({ type: 'answered', options: {}, threshold: 0.5, direction: 'higher', reason: 'on-fail' }); // 12 hex chars
 * ```
 */
export function scorerVersion(definition: ScorerDefinition): string {
  const { type, options, threshold, direction, reason, judgeModel, instructions } = definition;
  const text = canonicalJson({ type, options, threshold, direction, reason, judgeModel, instructions });
  return crypto.createHash('sha256').update(text, 'utf8').digest('hex').slice(0, SCORER_VERSION_LENGTH);
}

/** The judge instructions a scorer object carries (`scorer.judge.instructions` of a `createScorer` scorer), if any. */
export function judgeInstructionsOf(scorer: unknown): string | undefined {
  const judge = typeof scorer === 'object' && scorer !== null ? (scorer as { judge?: unknown }).judge : undefined;
  const instructions = typeof judge === 'object' && judge !== null ? (judge as { instructions?: unknown }).instructions : undefined;
  return typeof instructions === 'string' ? instructions : undefined;
}
