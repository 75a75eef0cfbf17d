/**
 * The sampler's boundary types: what a decision is asked about and what it answers.
 */
import type { Attributes, Span } from '../model/span.js';
import type { AgentRun } from '../model/agent-run.js';

/** Code scorers are cheap and deterministic; judge scorers call an LLM. */
export type ScorerKind = 'code' | 'judge';

/** One question to the sampler: should `scorer` evaluate this run? */
export interface SamplingInput {
  run: AgentRun;
  /** The agent span's subtree (including the agent span). */
  spans: readonly Span[];
  /** The agent span; when absent it is looked up in `spans` by `run.spanId`. */
  span?: Span;
  resourceAttributes: Attributes;
  /** Configured scorer name (the `gen_ai.evaluation.name`). */
  scorer: string;
  /** When absent, the kind given to `createSamplingPolicy`, else `judge`. */
  scorerKind?: ScorerKind;
  /** Scores of the code scorers already run on this run, by scorer name (inputs to `boost` rules). */
  codeScores?: Readonly<Record<string, number>>;
  /** Unverified specifics reported by the code scorers already run on this run (inputs to `unverified` rules). */
  codeUnverified?: Readonly<Record<string, number>>;
}

/**
 * The answer. `rate` is the probability with which runs like this one are scored, for estimating totals
 * (count ÷ rate): 1 when a rule forces scoring, 0 when a rule or upstream forbids it, the configured rate
 * otherwise (also on `rate-limit`). `reason` is `rule:<name>`, `rate:<r>`, `rate-limit` or
 * `upstream-not-sampled`.
 */
export interface SamplingDecision {
  sampled: boolean;
  rate: number;
  reason: string;
}

/** A condition over a run, one per rule file, evaluated without side effects. */
export interface Predicate {
  evaluate(input: SamplingInput): boolean;
  /** One-line human description, for `--explain-sampling`. */
  describe(): string;
}
