/** The scorer engine: `createScorer`, the judge port, `notScorable`, `runEvals`, errors and types. */
export {
  createScorer,
  MastraScorer,
  Scorer,
  type ScorerConfig,
  type ScorerConfigWithId,
  type ScorerConfigWithName,
  type ScorerConfigBase,
} from './scorer.js';
export { notScorable, isNotScorable, NOT_SCORABLE, type NotScorable } from './not-scorable.js';
export { ScorerDefinitionError, ScorerRunError, RunEvalsError, type ScorerErrorId } from './errors.js';
export { isJudgeModelPort, type JudgeCallArgs, type JudgeCallMeta, type JudgeModelPort, type JudgeUsage } from '../../judge/port.js';
export type * from './types.js';
export {
  runEvals,
  runExperiment,
  type EvalItem,
  type EvalScorer,
  type EvalScorers,
  type EvalTarget,
  type AgentTarget,
  type WorkflowTarget,
  type WorkflowRunLike,
  type WorkflowStepResult,
  type TargetFunction,
  type WorkflowScorerConfig,
  type AgentScorerConfig,
  type Threshold,
  type ItemCompleteEvent,
  type ScorerResults,
  type WorkflowScorerResults,
  type AgentScorerResults,
  type MeanScores,
  type WorkflowScores,
  type AgentScores,
  type RunEvalsOptions,
  type RunEvalsResult,
  type ThresholdResult,
} from './run-evals.js';
