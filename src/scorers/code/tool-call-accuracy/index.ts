/**
 * Tool-call accuracy, code version (docs/scorers.md): did the run call the expected tool, or the expected
 * tools in order. Score 0 or 1.
 */
import { createScorer } from '../../core/scorer.js';
import { extractToolCalls, inputMessagesOf } from '../../utils/run-messages.js';

export interface ToolCallAccuracyCodeOptions {
  expectedTool?: string;
  /** Strict: exactly one call to `expectedTool`, or exactly `expectedToolOrder`. Default false. */
  strictMode?: boolean;
  expectedToolOrder?: string[];
}

function orderMatches(actual: readonly string[], expected: readonly string[], strict: boolean): boolean {
  if (strict) return JSON.stringify(actual) === JSON.stringify(expected);
  let last = -1;
  for (const tool of expected) {
    const i = actual.indexOf(tool);
    if (i === -1 || i <= last) return false;
    last = i;
  }
  return true;
}

/**
 * Create the code tool-call-accuracy scorer. Throws when neither `expectedTool` nor `expectedToolOrder` is given.
 *
 * @example
 * ```ts
 * const scorer = createToolCallAccuracyScorerCode({ expectedTool: 'weather-tool' });
 * ```
 */
export function createToolCallAccuracyScorerCode(options: ToolCallAccuracyCodeOptions) {
  const { expectedTool, strictMode = false, expectedToolOrder } = options;
  if (!expectedTool && !expectedToolOrder) throw new Error('Either expectedTool or expectedToolOrder must be provided');
  const description = expectedToolOrder?.length
    ? `Evaluates whether the LLM called tools in the correct order: [${expectedToolOrder.join(', ')}]`
    : `Evaluates whether the LLM selected the correct tool (${expectedTool}) from the available tools`;
  return createScorer({ id: 'code-tool-call-accuracy-scorer', name: 'Tool Call Accuracy Scorer', description, type: 'agent' })
    .preprocess(({ run }) => {
      const messages = inputMessagesOf(run.input);
      if (!messages || messages.length === 0 || !Array.isArray(run.output) || run.output.length === 0) {
        throw new Error('Input and output messages cannot be null or empty');
      }
      const { tools: actualTools, toolCallInfos } = extractToolCalls(run.output);
      const correctToolCalled = expectedTool
        ? strictMode
          ? actualTools.length === 1 && actualTools[0] === expectedTool
          : actualTools.includes(expectedTool)
        : false;
      return {
        expectedTool,
        actualTools,
        strictMode,
        expectedToolOrder,
        hasToolCalls: actualTools.length > 0,
        correctToolCalled,
        toolCallInfos,
        correctOrderCalled: expectedToolOrder ? orderMatches(actualTools, expectedToolOrder, strictMode) : null,
      };
    })
    .generateScore(({ results }) => {
      const r = results.preprocessStepResult;
      if (r.actualTools.length === 0) return 0;
      if (expectedToolOrder && expectedToolOrder.length > 0) return r.correctOrderCalled ? 1 : 0;
      if (!expectedTool) return 0;
      return r.correctToolCalled ? 1 : 0;
    });
}
