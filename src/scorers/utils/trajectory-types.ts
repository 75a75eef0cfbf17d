/** Trajectory types used by trajectory scorers (docs/scorers.md). */

/** Fields every trajectory step has. */
export interface TrajectoryStepBase {
  name: string;
  durationMs?: number;
  metadata?: Record<string, unknown>;
  children?: TrajectoryStep[];
}

/** A step of an agent or workflow run, discriminated by `stepType`. */
export type TrajectoryStep = TrajectoryStepBase &
  (
    | { stepType: 'tool_call'; toolArgs?: unknown; toolResult?: unknown; success?: boolean }
    | { stepType: 'mcp_tool_call'; toolArgs?: unknown; toolResult?: unknown; success?: boolean; mcpServer?: string }
    | { stepType: 'provider_tool_call'; toolArgs?: unknown; toolResult?: unknown; success?: boolean }
    | { stepType: 'model_generation'; modelId?: string; promptTokens?: number; completionTokens?: number; finishReason?: string }
    | { stepType: 'agent_run'; agentId?: string }
    | { stepType: 'workflow_step'; stepId?: string; status?: string; output?: unknown }
    | { stepType: 'workflow_run'; workflowId?: string; status?: string }
    | { stepType: 'workflow_conditional'; conditionCount?: number; selectedSteps?: string[] }
    | { stepType: 'workflow_parallel'; branchCount?: number; parallelSteps?: string[] }
    | { stepType: 'workflow_loop'; loopType?: string; totalIterations?: number }
    | { stepType: 'workflow_sleep'; sleepDurationMs?: number; sleepType?: string }
    | { stepType: 'workflow_wait_event'; eventName?: string; eventReceived?: boolean }
    | { stepType: 'processor_run'; processorId?: string }
  );

/** All step type names. */
export type TrajectoryStepType = TrajectoryStep['stepType'];

/** A run's steps in start order. */
export interface Trajectory {
  steps: TrajectoryStep[];
  totalDurationMs?: number;
  rawOutput?: unknown[];
  rawWorkflowResult?: unknown;
}

/** An expected step: any variant field may be given; without `stepType` it matches by name only. */
export interface ExpectedStep {
  name: string;
  stepType?: TrajectoryStepType;
  children?: TrajectoryExpectation;
  [field: string]: unknown;
}

/** Expectations for a trajectory (defaults noted per field). */
export interface TrajectoryExpectation {
  steps?: ExpectedStep[];
  /** Default `relaxed`. */
  ordering?: 'strict' | 'relaxed' | 'unordered';
  /** Default true. */
  allowRepeatedSteps?: boolean;
  maxSteps?: number;
  maxTotalTokens?: number;
  maxTotalDurationMs?: number;
  /** Default true. */
  noRedundantCalls?: boolean;
  blacklistedTools?: string[];
  blacklistedSequences?: string[][];
  /** Default 2. */
  maxRetriesPerTool?: number;
}
