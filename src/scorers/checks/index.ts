/** Quick checks (docs/scorers.md): small 0/1 code scorers, one by one and as Mastra's `checks` namespace. */
import { includes, excludes, equals, matches, similarity } from './text-checks.js';
import { calledTool, didNotCall, toolOrder, maxToolCalls, usedNoTools, noToolErrors } from './tool-checks.js';

export { includes, excludes, equals, matches, similarity, calledTool, didNotCall, toolOrder, maxToolCalls, usedNoTools, noToolErrors };

/**
 * Every quick check under one name, as `@mastra/evals/checks` exports them (`checks.includes('sunny')`).
 *
 * @example
 * ```ts
 * await runEvals({ data, target, scorers: [checks.includes('Brooklyn'), checks.calledTool('get_weather')] });
 * ```
 */
export const checks = Object.freeze({ includes, excludes, equals, matches, similarity, calledTool, didNotCall, toolOrder, maxToolCalls, usedNoTools, noToolErrors });
