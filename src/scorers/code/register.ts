/** Defines the code scorer types (and quick checks) in a scorer registry. */
import { z } from 'zod';
import type { ScorerLike } from '../core/types.js';
import type { ScorerTypeDefinition } from '../registry.js';
import type { ScorerFactoryContext } from '../registry.js';
import { autoWorkers } from './completeness/element-pool.js';
import { codeOptionSchemas as S } from './types.js';

type Register = <O>(type: string, definition: ScorerTypeDefinition<O>) => void;

function code<K extends keyof typeof S>(register: Register, type: K, create: (o: z.output<(typeof S)[K]>, context: ScorerFactoryContext) => Promise<ScorerLike>): void {
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
  // Implementations are imported when a scorer of their type is built (options schemas stay here, for
  // check-config): `extract` and a service with the embedded default never load the others.
  code(register, 'content-similarity', async (o) => {
    const { createContentSimilarityScorer } = await import('./content-similarity/index.js');
    return Object.keys(o).length === 0 ? createContentSimilarityScorer() : createContentSimilarityScorer(o);
  });
  code(register, 'textual-difference', async () => (await import('./textual-difference/index.js')).createTextualDifferenceScorer());
  code(register, 'keyword-coverage', async () => (await import('./keyword-coverage/index.js')).createKeywordCoverageScorer());
  code(register, 'completeness', async (o, ctx) => {
    const workers = o.workers === 'auto' ? autoWorkers() : o.workers;
    const cache = ctx.elementCache?.();
    return (await import('./completeness/index.js')).createCompletenessScorer({ ...(workers > 0 && ctx.elementPool ? { pool: ctx.elementPool(workers) } : { workers }), ...(cache ? { cache } : {}) });
  });
  code(register, 'tone', async (o) => (await import('./tone/index.js')).createToneScorer(o));
  code(register, 'tool-call-accuracy-code', async (o) => (await import('./tool-call-accuracy/index.js')).createToolCallAccuracyScorerCode(o));
  code(register, 'trajectory-accuracy-code', async (o) =>
    (await import('./trajectory-accuracy/index.js')).createTrajectoryAccuracyScorerCode({
      ...(o.expectedTrajectory ? { expectedTrajectory: o.expectedTrajectory } : {}),
      comparisonOptions: { ordering: o.ordering, allowRepeatedSteps: o.allowRepeatedSteps },
    }),
  );
  code(register, 'trajectory', async ({ weights, ...defaults }) =>
    (await import('./trajectory/index.js')).createTrajectoryScorerCode({ defaults: defaults, weights }),
  );
  code(register, 'grounding', async (o) => (await import('./grounding/index.js')).createGroundingScorer(o));
  register('claim-grounding', { kind: 'code', options: z.strictObject({ context: z.array(z.string()).optional() }), create: async (o) => (await import('./claim-grounding/index.js')).createClaimGroundingScorer(o) });
  register('answered', { kind: 'code', scoresEmptyOutput: true, options: z.strictObject({}), create: async () => (await import('./answered/index.js')).createAnsweredScorer() });
  code(register, 'includes', async (o) => (await import('../checks/index.js')).includes(o.expected, o));
  code(register, 'excludes', async (o) => (await import('../checks/index.js')).excludes(o.unwanted, o));
  code(register, 'equals', async (o) => (await import('../checks/index.js')).equals(o.expected, o));
  code(register, 'matches', async (o) => (await import('../checks/index.js')).matches(new RegExp(o.pattern, o.flags), o));
  code(register, 'similarity', async (o) => (await import('../checks/index.js')).similarity(o.expected, { ignoreCase: o.ignoreCase, threshold: o.minSimilarity }));
  code(register, 'called-tool', async (o) => (await import('../checks/index.js')).calledTool(o.tool, o));
  code(register, 'did-not-call', async (o) => (await import('../checks/index.js')).didNotCall(o.tool));
  code(register, 'tool-order', async (o) => (await import('../checks/index.js')).toolOrder(o.tools));
  code(register, 'max-tool-calls', async (o) => (await import('../checks/index.js')).maxToolCalls(o.max));
  code(register, 'used-no-tools', async () => (await import('../checks/index.js')).usedNoTools());
  code(register, 'no-tool-errors', async () => (await import('../checks/tool-checks.js')).createToolErrorsScorer());
}
