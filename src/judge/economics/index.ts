/** Judge economics: shared preprocessing, answer cache, reason policy, budgets and cost accounting. */
export { createJudgeEconomics, runBudgeted, type BudgetedOutcome, type JudgeEconomics, type RunBudgetedArgs } from './economics.js';
export { EconomicJudge, type EconomicJudgeOptions } from './economic-judge.js';
export { JudgeBudgets, type BudgetExhausted, type BudgetResource, type BudgetWindow } from './budgets.js';
export { JudgeAccounting, estimateCostUsd, type CostTotals } from './accounting.js';
export { shouldGenerateReason, type Direction, type ReasonPolicy } from './reason-policy.js';
export { withJudgeScope, currentJudgeScope, judgeScopeAttributes, type JudgeScope } from './scope.js';
export { judgeKey, schemaFingerprint, type JudgeKeyParts } from './judge-key.js';
export { TtlLru } from './ttl-lru.js';
