/** The scorer engine: `createScorer`, the judge port, `notScorable`, errors and types. */
export { createScorer, Scorer, type MastraScorer, type ScorerConfig } from './scorer.js';
export { notScorable, isNotScorable, NOT_SCORABLE, type NotScorable } from './not-scorable.js';
export { ScorerDefinitionError, ScorerRunError, type ScorerErrorId } from './errors.js';
export { isJudgeModelPort, type JudgeCallArgs, type JudgeCallMeta, type JudgeModelPort, type JudgeUsage } from '../../judge/port.js';
export type * from './types.js';
export { runEvals, type EvalItem, type EvalScorer, type RunEvalsOptions, type RunEvalsResult, type ThresholdResult } from './run-evals.js';
