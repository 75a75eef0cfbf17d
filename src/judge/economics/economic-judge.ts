/**
 * A judge port wrapper that makes judging affordable without changing any score:
 * - shared preprocessing: within one run (the judge scope's `runId`), a claim-extraction call is made
 *   once per (model, prompt) and its answer feeds every scorer that asks it (hallucination and
 *   faithfulness ask the same question with different system prompts; the answer format is the same);
 * - cache: answers keyed by a hash of model, instructions, prompt and schema, bounded (LRU) with a TTL,
 *   so identical outputs in different traces are judged once; concurrent identical calls share one request;
 * - accounting: cost per model, agent and scorer; budget charges per agent and scorer.
 * A replayed answer is a deep copy of the original, so a cached or shared run yields byte-identical scores.
 * Replays report zero usage and zero model calls (the tokens were spent, and charged, once).
 */
import type { z } from 'zod';
import type { Telemetry } from '../../telemetry/instruments.js';
import type { JudgeCallArgs, JudgeCallMeta, JudgeModelPort, JudgeUsage } from '../port.js';
import type { JudgeAccounting } from './accounting.js';
import type { JudgeBudgets } from './budgets.js';
import { JudgeKeys } from './judge-key.js';
import type { JudgeScopes } from './scope.js';
import { TtlLru } from './ttl-lru.js';

/** Options of {@link EconomicJudge}. */
export interface EconomicJudgeOptions {
  /** Answer cache; `false` turns it off. */
  cache?: { maxEntries: number; ttlMs: number } | false;
  /** Share claim extraction within a run (default true). */
  sharedPreprocessing?: boolean;
  /** Preprocess schemas whose answers may be shared within a run (default: none). */
  shareableSchemas?: ReadonlySet<z.ZodType>;
  /** Instruments for `tracejudge.judge.requests{outcome=cached|shared}`. */
  telemetry?: Telemetry;
  /** The evaluation scope (run id for sharing, agent and scorer for budgets and metrics). */
  scopes?: JudgeScopes;
  accounting?: JudgeAccounting;
  budgets?: JudgeBudgets;
  now?: () => number;
}

type Answer = JudgeCallMeta & { object?: unknown; text?: string };

const ZERO_USAGE: JudgeUsage = Object.freeze({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });
/** Shared-preprocessing memo: runs are short-lived, so a small bound and a short TTL suffice. */
const MEMO_ENTRIES = 4_096;
const MEMO_TTL_MS = 600_000;

function modelIdOf(inner: JudgeModelPort, model: unknown): string {
  const own = (inner as { modelId?: unknown }).modelId;
  if (typeof own === 'string') return own;
  if (typeof model === 'string') return model;
  const id = model !== null && typeof model === 'object' ? (model as { modelId?: unknown }).modelId : undefined;
  return typeof id === 'string' ? id : 'unknown';
}

function replay(a: Answer): Answer {
  const out: Answer = { ...a, usage: { ...ZERO_USAGE }, durationMs: 0, attemptCount: 1, modelCallCount: 0 };
  if ('object' in a) out.object = structuredClone(a.object);
  return out;
}

/** The economics wrapper around one judge port. */
export class EconomicJudge implements JudgeModelPort {
  readonly #cache: TtlLru<Promise<Answer>> | undefined;
  readonly #memo: TtlLru<Promise<Answer>>;
  readonly #share: boolean;
  readonly #keys = new JudgeKeys();
  readonly #shareable: ReadonlySet<z.ZodType>;
  /** Set when the wrapped port has a fixed model id (e.g. an `AiSdkJudge`). */
  readonly modelId: string | undefined;

  constructor(
    readonly inner: JudgeModelPort,
    readonly options: EconomicJudgeOptions = {},
  ) {
    const now = options.now ?? Date.now;
    this.#cache = options.cache === false ? undefined : new TtlLru(options.cache?.maxEntries ?? 10_000, options.cache?.ttlMs ?? 3_600_000, now);
    this.#memo = new TtlLru(MEMO_ENTRIES, MEMO_TTL_MS, now);
    this.#share = options.sharedPreprocessing ?? true;
    this.#shareable = options.shareableSchemas ?? new Set<z.ZodType>();
    const own = (inner as { modelId?: unknown }).modelId;
    this.modelId = typeof own === 'string' ? own : undefined;
  }

  async generateObject<S extends z.ZodType>(args: JudgeCallArgs & { schema: S }): Promise<JudgeCallMeta & { object: z.infer<S> }> {
    const a = await this.#answer(args, args.schema, () => this.inner.generateObject(args));
    return a as JudgeCallMeta & { object: z.infer<S> };
  }

  async generateText(args: JudgeCallArgs): Promise<JudgeCallMeta & { text: string }> {
    const a = await this.#answer(args, undefined, () => this.inner.generateText(args));
    return a as JudgeCallMeta & { text: string };
  }

  async #answer(args: JudgeCallArgs, schema: z.ZodType | undefined, call: () => Promise<Answer>): Promise<Answer> {
    const modelId = modelIdOf(this.inner, args.model);
    const runId = this.options.scopes?.current()?.runId;
    const shared = this.#share && runId !== undefined && schema !== undefined && args.stepName === 'preprocess' && this.#shareable.has(schema);
    const memoKey = shared ? this.#keys.key({ modelId, instructions: `run:${runId}`, prompt: args.prompt, schema }) : undefined;
    if (memoKey !== undefined) {
      const hit = this.#memo.get(memoKey);
      if (hit) return this.#reuse(hit, modelId, 'shared');
    }
    const cacheKey = this.#cache ? this.#keys.key({ modelId, instructions: args.instructions, prompt: args.prompt, schema }) : undefined;
    if (cacheKey !== undefined && this.#cache) {
      const hit = this.#cache.get(cacheKey);
      if (hit) {
        if (memoKey !== undefined) this.#memo.set(memoKey, hit);
        return this.#reuse(hit, modelId, 'cached');
      }
    }
    const pending = this.#callAndAccount(modelId, call);
    if (memoKey !== undefined) this.#memo.set(memoKey, pending);
    if (cacheKey !== undefined) this.#cache?.set(cacheKey, pending);
    try {
      const a = await pending;
      return 'object' in a ? { ...a, object: structuredClone(a.object) } : { ...a };
    } catch (err) {
      // Failures are never replayed: the next identical call asks the judge again.
      if (memoKey !== undefined) this.#memo.delete(memoKey);
      if (cacheKey !== undefined) this.#cache?.delete(cacheKey);
      throw err;
    }
  }

  async #reuse(hit: Promise<Answer>, modelId: string, outcome: 'cached' | 'shared'): Promise<Answer> {
    const a = await hit;
    this.options.telemetry?.instruments.judgeRequests.add(1, { 'gen_ai.request.model': modelId, outcome, ...this.options.scopes?.attributes() });
    return replay(a);
  }

  async #callAndAccount(modelId: string, call: () => Promise<Answer>): Promise<Answer> {
    try {
      const a = await call();
      this.#account(a.modelId || modelId, a.usage, a.modelCallCount ?? a.attemptCount ?? 1);
      const frozen: Answer = { ...a };
      if ('object' in a) frozen.object = structuredClone(a.object);
      return frozen;
    } catch (err) {
      const e = err as { usage?: JudgeUsage; modelCallCount?: number };
      if (e !== null && typeof e === 'object' && e.usage) this.#account(modelId, e.usage, e.modelCallCount ?? 1);
      throw err;
    }
  }

  #account(modelId: string, usage: JudgeUsage, requests: number): void {
    this.options.accounting?.record(modelId, usage, requests);
    const scope = this.options.scopes?.current();
    if (this.options.budgets && !this.options.budgets.empty) {
      const tokens = usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
      this.options.budgets.charge(scope?.agentName ?? '', scope?.scorerName ?? '', { tokens, requests });
    }
  }
}
