/** Judge economics: shared preprocessing, answer cache, budgets and cost accounting. */
export { createJudgeEconomics, runBudgeted, type BudgetedOutcome, type JudgeEconomics, type JudgeEconomicsOptions, type RunBudgetedArgs } from './economics.js';
export { EconomicJudge, type EconomicJudgeOptions } from './economic-judge.js';
export { JudgeBudgets, type BudgetExhausted, type BudgetResource, type BudgetWindow } from './budgets.js';
export { JudgeAccounting, estimateCostUsd, type CostTotals } from './accounting.js';
export { JudgeScopes, type JudgeScope } from './scope.js';
export { JudgeKeys, type JudgeKeyParts } from './judge-key.js';
export { TtlLru } from './ttl-lru.js';
