import { z } from 'zod';
import { agentPattern } from '../patterns.js';

const limits = z.strictObject({
  /** Judge tokens (input + output) allowed in the window. */
  tokens: z.number().int().min(0).optional(),
  /** Judge HTTP requests allowed in the window. */
  requests: z.number().int().min(0).optional(),
});

/** One budget: which evaluations it covers, its hourly and daily limits, and what runs once it is spent. */
const budgetRule = z.strictObject({
  /** Agent name or glob; each matching agent has its own allowance. Absent: one allowance for all agents. */
  agent: agentPattern.optional(),
  /** Configured scorer name; absent: one allowance shared by every judge scorer. */
  scorer: z.string().min(1).optional(),
  /** Fixed clock hours (UTC). */
  perHour: limits.optional(),
  /** Fixed UTC days. */
  perDay: limits.optional(),
  /** `skip` (count and emit nothing) or the name of a configured code scorer that runs instead. */
  fallback: z.string().min(1).default('skip'),
});

export type BudgetRuleConfig = z.output<typeof budgetRule>;

/** USD per one million tokens. */
const modelPrice = z.strictObject({
  inputPerMTokens: z.number().min(0),
  outputPerMTokens: z.number().min(0),
});

export type ModelPrice = z.output<typeof modelPrice>;

/**
 * `economics:` — controls on judge spend. None of them changes a score: the cache and shared
 * preprocessing replay identical answers; only budgets skip work, and that is counted.
 */
export const economicsSection = z
  .strictObject({
    cache: z
      .strictObject({
        /** Reuse answers to identical judge calls (same model, instructions, prompt, schema). */
        enabled: z.boolean().default(true),
        /** Answers kept (least recently used evicted first). */
        maxEntries: z.number().int().positive().default(10_000),
        /** How long an answer may be reused. */
        ttlMs: z.number().int().positive().default(3_600_000),
      })
      .prefault({}),
    /** One claim extraction per run feeds both hallucination and faithfulness. */
    sharedPreprocessing: z.boolean().default(true),
    /** Model id → price, for `tracejudge.judge.cost`; models without a price are not costed. */
    prices: z.record(z.string().min(1), modelPrice).default({}),
    /** Token and request budgets per agent and per scorer, per hour and per day. */
    budgets: z.array(budgetRule).default([]),
  })
  .prefault({});

export type EconomicsSection = z.output<typeof economicsSection>;
