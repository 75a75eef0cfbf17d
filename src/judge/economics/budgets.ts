/**
 * Judge budgets: token and request allowances per agent and per scorer, per fixed UTC hour and day, on an
 * injected clock. An evaluation is admitted while every matching allowance has room; a started evaluation
 * finishes (so a window may overshoot by one evaluation). What it spent is charged afterwards.
 */
import type { BudgetRuleConfig } from '../../config/sections/economics.js';
import { compileGlob, isGlob } from '../../util/glob.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export type BudgetWindow = 'hour' | 'day';
export type BudgetResource = 'tokens' | 'requests';

/** Why an evaluation was refused. */
export interface BudgetExhausted {
  /** Index of the rule in `economics.budgets`. */
  rule: number;
  window: BudgetWindow;
  resource: BudgetResource;
  /** `skip` or a code scorer name. */
  fallback: string;
}

/** Use of one allowance in its current window. */
export interface BudgetUsage {
  rule: number;
  window: BudgetWindow;
  resource: BudgetResource;
  used: number;
  limit: number;
  fallback: string;
}

interface Usage {
  windowStart: number;
  tokens: number;
  requests: number;
}

interface CompiledRule {
  config: BudgetRuleConfig;
  agent?: RegExp;
}

/** Budget ledger over `economics.budgets`. */
export class JudgeBudgets {
  readonly #rules: CompiledRule[];
  readonly #ledger = new Map<string, Usage>();

  constructor(
    rules: readonly BudgetRuleConfig[],
    readonly now: () => number = Date.now,
    readonly maxLedgerEntries = 50_000,
  ) {
    this.#rules = rules.map((config) => {
      const r: CompiledRule = { config };
      if (config.agent !== undefined) r.agent = isGlob(config.agent) ? compileGlob(config.agent) : new RegExp(`^${config.agent.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'u');
      return r;
    });
  }

  /** True when no rule is configured (every evaluation is admitted without bookkeeping). */
  get empty(): boolean {
    return this.#rules.length === 0;
  }

  #matching(agentName: string, scorerName: string): Array<{ index: number; rule: CompiledRule; key: string }> {
    const out: Array<{ index: number; rule: CompiledRule; key: string }> = [];
    this.#rules.forEach((rule, index) => {
      if (rule.agent && !rule.agent.test(agentName)) return;
      if (rule.config.scorer !== undefined && rule.config.scorer !== scorerName) return;
      out.push({ index, rule, key: `${index}\0${rule.agent ? agentName : '*'}\0${rule.config.scorer !== undefined ? scorerName : '*'}` });
    });
    return out;
  }

  #usage(key: string, window: BudgetWindow, create: boolean): Usage | undefined {
    const size = window === 'hour' ? HOUR_MS : DAY_MS;
    const start = Math.floor(this.now() / size) * size;
    const k = `${key}\0${window}`;
    let u = this.#ledger.get(k);
    if (u && u.windowStart !== start) u = undefined;
    if (!u && create) {
      if (!this.#ledger.has(k) && this.#ledger.size >= this.maxLedgerEntries) {
        const oldest = this.#ledger.keys().next();
        if (oldest.done !== true) this.#ledger.delete(oldest.value);
      }
      u = { windowStart: start, tokens: 0, requests: 0 };
      this.#ledger.set(k, u);
    }
    return u;
  }

  /**
   * Whether an evaluation of `scorerName` on a run of `agentName` may call the judge; the first spent
   * allowance (rule order, hour before day, tokens before requests) otherwise.
   *
   * @example
   * ```ts
   * const verdict = budgets.check('support-agent', 'hallucination');
   * if (verdict) telemetry().judgeBudgetExhausted.add(1, { … });
   * ```
   */
  check(agentName: string, scorerName: string): BudgetExhausted | undefined {
    const spent = this.usage(agentName, scorerName).find((u) => u.used >= u.limit);
    return spent ? { rule: spent.rule, window: spent.window, resource: spent.resource, fallback: spent.fallback } : undefined;
  }

  /**
   * What `agentName`/`scorerName` has used of each matching allowance in the current windows (read-only;
   * the live page shows it). One entry per rule, window and configured resource.
   */
  usage(agentName: string, scorerName: string): BudgetUsage[] {
    const out: BudgetUsage[] = [];
    for (const { index, rule, key } of this.#matching(agentName, scorerName)) {
      for (const window of ['hour', 'day'] as const) {
        const limits = window === 'hour' ? rule.config.perHour : rule.config.perDay;
        if (!limits) continue;
        const used = this.#usage(key, window, false) ?? { tokens: 0, requests: 0 };
        for (const resource of ['tokens', 'requests'] as const) {
          const limit = limits[resource];
          if (limit !== undefined) out.push({ rule: index, window, resource, used: used[resource], limit, fallback: rule.config.fallback });
        }
      }
    }
    return out;
  }

  /** Charge what one judge call spent to every matching allowance. */
  charge(agentName: string, scorerName: string, spent: { tokens: number; requests: number }): void {
    for (const { rule, key } of this.#matching(agentName, scorerName)) {
      for (const window of ['hour', 'day'] as const) {
        if (!(window === 'hour' ? rule.config.perHour : rule.config.perDay)) continue;
        const u = this.#usage(key, window, true) as Usage;
        u.tokens += spent.tokens;
        u.requests += spent.requests;
      }
    }
  }
}
