/**
 * Config schema of a trajectory expectation (docs/scorers.md), shared by the
 * trajectory code scorers and the per-agent trajectory rules.
 */
import { z } from 'zod';
import type { ExpectedStep, TrajectoryExpectation, TrajectoryStepType } from './trajectory-types.js';

const stepTypes: z.ZodType<TrajectoryStepType> = z.enum([
  'tool_call',
  'mcp_tool_call',
  'provider_tool_call',
  'model_generation',
  'agent_run',
  'workflow_step',
  'workflow_run',
  'workflow_conditional',
  'workflow_parallel',
  'workflow_loop',
  'workflow_sleep',
  'workflow_wait_event',
  'processor_run',
]);

/** The config shapes are the engine's own types: config is parsed straight into them. */
type ExpectedStepConfig = ExpectedStep;
type TrajectoryExpectationConfig = TrajectoryExpectation;

const budget = z.number().finite().min(0);

export const expectationFields = {
  steps: z.array(z.lazy((): z.ZodType<ExpectedStepConfig> => expectedStep)).optional(),
  ordering: z.enum(['strict', 'relaxed', 'unordered']).optional(),
  allowRepeatedSteps: z.boolean().optional(),
  maxSteps: budget.optional(),
  maxTotalTokens: budget.optional(),
  maxTotalDurationMs: budget.optional(),
  noRedundantCalls: z.boolean().optional(),
  blacklistedTools: z.array(z.string().min(1)).optional(),
  blacklistedSequences: z.array(z.array(z.string().min(1))).optional(),
  maxRetriesPerTool: z.number().int().min(0).optional(),
};

export const expectation: z.ZodType<TrajectoryExpectationConfig> = z.strictObject(expectationFields);

export const expectedStep: z.ZodType<ExpectedStepConfig> = z.looseObject({
  name: z.string().min(1),
  stepType: stepTypes.optional(),
  children: z.lazy(() => expectation).optional(),
});

