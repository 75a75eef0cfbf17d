/** Defines the code scorer types (and quick checks) in a scorer registry. */
import { z } from 'zod';
import { calledTool, didNotCall, equals, excludes, includes, matches, maxToolCalls, noToolErrors, similarity, toolOrder, usedNoTools } from '../checks/index.js';
import type { ScorerLike } from '../core/types.js';
import type { ScorerTypeDefinition } from '../registry.js';
import type { ScorerFactoryContext } from '../registry.js';
import { createAnsweredScorer } from './answered/index.js';
import { createClaimGroundingScorer } from './claim-grounding/index.js';
import { autoWorkers } from './completeness/element-pool.js';
import { createCompletenessScorer } from './completeness/index.js';
import { createContentSimilarityScorer } from './content-similarity/index.js';
import { createGroundingScorer } from './grounding/index.js';
import { createKeywordCoverageScorer } from './keyword-coverage/index.js';
import { createTextualDifferenceScorer } from './textual-difference/index.js';
import { createToneScorer } from './tone/index.js';
import { createToolCallAccuracyScorerCode } from './tool-call-accuracy/index.js';
import { createTrajectoryAccuracyScorerCode } from './trajectory-accuracy/index.js';
import { createTrajectoryScorerCode } from './trajectory/index.js';
import { codeOptionSchemas as S } from './types.js';

type Register = <O>(type: string, definition: ScorerTypeDefinition<O>) => void;

function code<K extends keyof typeof S>(register: Register, type: K, create: (o: z.output<(typeof S)[K]>, context: ScorerFactoryContext) => ScorerLike): void {
  register(type, { kind: 'code', options: S[type] as unknown as z.ZodType<z.output<(typeof S)[K]>>, create });
}

/**
 * Define every code type. Type names: content-similarity, textual-difference, keyword-coverage,
 * completeness, tone, tool-call-accuracy-code, trajectory-accuracy-code, trajectory, grounding,
 * claim-grounding, answered, and the
 * quick checks includes, excludes, equals, matches, similarity, called-tool, did-not-call, tool-order,
 * max-tool-calls, used-no-tools, no-tool-errors.
 *
 * @example
 * ```ts
 * registerCodeScorerTypes((type, definition) => registry.define(type, definition));
 * ```
 */
export function registerCodeScorerTypes(register: Register): void {
  code(register, 'content-similarity', (o) => (Object.keys(o).length === 0 ? createContentSimilarityScorer() : createContentSimilarityScorer(o)));
  code(register, 'textual-difference', () => createTextualDifferenceScorer());
  code(register, 'keyword-coverage', () => createKeywordCoverageScorer());
  code(register, 'completeness', (o, ctx) => {
    const workers = o.workers === 'auto' ? autoWorkers() : o.workers;
    const cache = ctx.elementCache?.();
    return createCompletenessScorer({ ...(workers > 0 && ctx.elementPool ? { pool: ctx.elementPool(workers) } : { workers }), ...(cache ? { cache } : {}) });
  });
  code(register, 'tone', (o) => createToneScorer(o));
  code(register, 'tool-call-accuracy-code', (o) => createToolCallAccuracyScorerCode(o));
  code(register, 'trajectory-accuracy-code', (o) =>
    createTrajectoryAccuracyScorerCode({
      ...(o.expectedTrajectory ? { expectedTrajectory: o.expectedTrajectory } : {}),
      comparisonOptions: { ordering: o.ordering, allowRepeatedSteps: o.allowRepeatedSteps },
    }),
  );
  code(register, 'trajectory', ({ weights, ...defaults }) =>
    createTrajectoryScorerCode({ defaults: defaults, weights }),
  );
  code(register, 'grounding', (o) => createGroundingScorer(o));
  register('claim-grounding', { kind: 'code', options: z.strictObject({ context: z.array(z.string()).optional() }), create: (o) => createClaimGroundingScorer(o) });
  register('answered', { kind: 'code', options: z.strictObject({}), create: () => createAnsweredScorer() });
  code(register, 'includes', (o) => includes(o.expected, o));
  code(register, 'excludes', (o) => excludes(o.unwanted, o));
  code(register, 'equals', (o) => equals(o.expected, o));
  code(register, 'matches', (o) => matches(new RegExp(o.pattern, o.flags), o));
  code(register, 'similarity', (o) => similarity(o.expected, { ignoreCase: o.ignoreCase, threshold: o.minSimilarity }));
  code(register, 'called-tool', (o) => calledTool(o.tool, o));
  code(register, 'did-not-call', (o) => didNotCall(o.tool));
  code(register, 'tool-order', (o) => toolOrder(o.tools));
  code(register, 'max-tool-calls', (o) => maxToolCalls(o.max));
  code(register, 'used-no-tools', () => usedNoTools());
  code(register, 'no-tool-errors', () => noToolErrors());
}
