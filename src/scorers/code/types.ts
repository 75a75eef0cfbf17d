/**
 * Config option schemas of the code scorer types (docs/configuration.md), one per registered type.
 * Options are checked strictly: an unknown key is an error at `scorers.<name>.<key>`.
 */
import { z } from 'zod';
import { expectationFields, expectedStep } from '../utils/expectation-schema.js';

export const codeOptionSchemas = {
  'content-similarity': z.strictObject({ ignoreCase: z.boolean().optional(), ignoreWhitespace: z.boolean().optional() }),
  'textual-difference': z.strictObject({}),
  'keyword-coverage': z.strictObject({}),
  completeness: z.strictObject({
    /** Worker threads for the `compromise` parse: `auto` (one per core, at most 4) or a count; 0 parses on the event loop. */
    workers: z.union([z.literal('auto'), z.number().int().min(0).max(64)]).default('auto'),
  }),
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
