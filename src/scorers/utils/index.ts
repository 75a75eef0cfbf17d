/** Scorer utilities (docs/scorers.md) and trajectory types. */
export { roundToTwoDecimals, isCloserTo, clamp01 } from './numeric.js';
export { compareTrajectories, stepMatches, type CompareOptions, type TrajectoryComparison } from './trajectory-compare.js';
export { checkTrajectoryEfficiency, type EfficiencyOptions, type EfficiencyResult } from './trajectory-efficiency.js';
export { checkTrajectoryBlacklist, type BlacklistOptions, type BlacklistResult } from './trajectory-blacklist.js';
export { analyzeToolFailures, type ToolFailureOptions, type ToolFailurePattern, type ToolFailureResult } from './tool-failures.js';
export { toTrajectory, toTrajectory as extractTrajectory } from './extract-trajectory.js';
export {
  createTestMessage,
  createToolInvocation,
  createAgentTestRun,
  createTrajectoryTestRun,
  createTestRun,
  getReasoningFromRunOutput,
  type TestMessageOptions,
  type TestToolInvocationOptions,
  type AgentTestRunOptions,
  type TrajectoryTestRunOptions,
} from './test-runs.js';
export type * from './trajectory-types.js';
