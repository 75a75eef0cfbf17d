/**
 * Config option schemas of the code scorer types (SPEC §4 `scorers.<name>`), one per registered type.
 * Options are checked strictly: an unknown key is an error at `scorers.<name>.<key>`.
 */
import { z } from 'zod';

const stepTypes = z.enum([
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

interface ExpectedStepConfig {
  name: string;
  stepType?: z.infer<typeof stepTypes>;
  children?: TrajectoryExpectationConfig;
  [k: string]: unknown;
}
interface TrajectoryExpectationConfig {
  steps?: ExpectedStepConfig[];
  ordering?: 'strict' | 'relaxed' | 'unordered';
  allowRepeatedSteps?: boolean;
  maxSteps?: number;
  maxTotalTokens?: number;
  maxTotalDurationMs?: number;
  noRedundantCalls?: boolean;
  blacklistedTools?: string[];
  blacklistedSequences?: string[][];
  maxRetriesPerTool?: number;
}

const budget = z.number().finite().min(0);

const expectationFields = {
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

const expectation: z.ZodType<TrajectoryExpectationConfig> = z.strictObject(expectationFields);

const expectedStep: z.ZodType<ExpectedStepConfig> = z.looseObject({
  name: z.string().min(1),
  stepType: stepTypes.optional(),
  children: z.lazy(() => expectation).optional(),
});

export const codeOptionSchemas = {
  'content-similarity': z.strictObject({ ignoreCase: z.boolean().optional(), ignoreWhitespace: z.boolean().optional() }),
  'textual-difference': z.strictObject({}),
  'keyword-coverage': z.strictObject({}),
  completeness: z.strictObject({}),
  tone: z.strictObject({ referenceTone: z.string().optional() }),
  'tool-call-accuracy-code': z
    .strictObject({
      expectedTool: z.string().min(1).optional(),
      strictMode: z.boolean().optional(),
      expectedToolOrder: z.array(z.string().min(1)).min(1).optional(),
    })
    .refine((o) => o.expectedTool !== undefined || o.expectedToolOrder !== undefined, {
      message: 'either expectedTool or expectedToolOrder must be provided',
      path: ['expectedTool'],
    }),
  'trajectory-accuracy-code': z.strictObject({
    expectedTrajectory: z.array(expectedStep).optional(),
    ordering: z.enum(['strict', 'relaxed', 'unordered']).optional(),
    allowRepeatedSteps: z.boolean().optional(),
  }),
  trajectory: z.strictObject({
    ...expectationFields,
    weights: z
      .strictObject({
        accuracy: z.number().min(0).optional(),
        efficiency: z.number().min(0).optional(),
        toolFailures: z.number().min(0).optional(),
        blacklist: z.number().min(0).optional(),
      })
      .optional(),
  }),
  grounding: z.strictObject({ context: z.array(z.string()).optional() }),
  includes: z.strictObject({ expected: z.string(), ignoreCase: z.boolean().optional() }),
  excludes: z.strictObject({ unwanted: z.string(), ignoreCase: z.boolean().optional() }),
  equals: z.strictObject({ expected: z.string(), ignoreCase: z.boolean().optional() }),
  matches: z
    .strictObject({ pattern: z.string().min(1), flags: z.string().regex(/^[dimsuv]*$/).optional(), exact: z.boolean().optional() })
    .superRefine((o, ctx) => {
      try {
        new RegExp(o.pattern, o.flags);
      } catch (err) {
        ctx.addIssue({ code: 'custom', path: ['pattern'], message: `not a valid regular expression: ${(err as Error).message}` });
      }
    }),
  similarity: z.strictObject({ expected: z.string(), ignoreCase: z.boolean().optional(), minSimilarity: z.number().min(0).max(1).optional() }),
  'called-tool': z.strictObject({ tool: z.string().min(1), times: z.number().int().min(1).optional() }),
  'did-not-call': z.strictObject({ tool: z.string().min(1) }),
  'tool-order': z.strictObject({ tools: z.array(z.string().min(1)).min(1) }),
  'max-tool-calls': z.strictObject({ max: z.number().int().min(0) }),
  'used-no-tools': z.strictObject({}),
  'no-tool-errors': z.strictObject({}),
} as const;
