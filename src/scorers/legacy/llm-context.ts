/**
 * The judge-based legacy metrics on retrieved context (Mastra 0.x `@mastra/evals/llm`):
 * `new XMetric(model, { context, scale? })`, each over a context scorer of this package (docs/mastra-compat.md).
 */
import { createContextPositionScorer } from '../llm/context-position/index.js';
import { createContextPrecisionScorer } from '../llm/context-precision/index.js';
import { createContextRecallScorer } from '../llm/context-recall/index.js';
import { createContextRelevanceScorerLLM } from '../llm/context-relevance/index.js';
import type { RunMessage } from '../../model/agent-run.js';
import { agentInput, assistantMessage, messageText } from '../../model/messages.js';
import type { ScorerRun } from '../core/types.js';
import { JudgeMetric } from './judge-metric.js';
import type { ContextMetricOptions } from './llm.js';
import { checkScale, checkStrings, modelAndOptions } from './metric.js';

function contextArgs(metric: string, model: unknown, options: ContextMetricOptions | undefined) {
  const m = modelAndOptions(metric, model, options);
  const scale = checkScale(metric, m.options.scale);
  const context = checkStrings(metric, 'context', m.options.context);
  return { model: m.model, options: scale === undefined ? { context } : { context, scale } };
}

/**
 * Whether the relevant context pieces come first, weighted by 1/(position + 1) (context-position scorer).
 *
 * @example
 * ```ts
 * new ContextPositionMetric(model, { context: ['Photosynthesis is …', 'Plants need water …'] }).measure('What is photosynthesis?', 'It is …');
 * ```
 */
export class ContextPositionMetric extends JudgeMetric {
  constructor(model: unknown, options: ContextMetricOptions) {
    super('ContextPositionMetric', createContextPositionScorer(contextArgs('ContextPositionMetric', model, options)));
  }
}

/** Mean average precision of the useful context pieces in retrieval order (context-precision scorer). */
export class ContextPrecisionMetric extends JudgeMetric {
  constructor(model: unknown, options: ContextMetricOptions) {
    super('ContextPrecisionMetric', createContextPrecisionScorer(contextArgs('ContextPrecisionMetric', model, options)));
  }
}

/**
 * How relevant the context is to the question (LLM context-relevance scorer: graded relevance per piece, with
 * penalties for relevant pieces left unused and for missing context).
 */
export class ContextRelevancyMetric extends JudgeMetric {
  constructor(model: unknown, options: ContextMetricOptions) {
    super('ContextRelevancyMetric', createContextRelevanceScorerLLM(contextArgs('ContextRelevancyMetric', model, options)));
  }
}

/**
 * How much of the context's information the answer recalls (context-recall scorer, turned around: the claims of
 * the context are the ground truth, and each is checked against the answer).
 *
 * @example
 * ```ts
 * new ContextualRecallMetric(model, { context: ['Cloud sync', 'Offline mode'] }).measure('Key features?', 'It has cloud sync.'); // ≈ 0.5
 * ```
 */
export class ContextualRecallMetric extends JudgeMetric {
  readonly #context: string[];

  constructor(model: unknown, options: ContextMetricOptions) {
    const { model: m, options: o } = contextArgs('ContextualRecallMetric', model, options);
    // The answer is the "context" the scorer attributes claims to; the context pieces are the ground truth.
    const getContext = ({ run }: { run: { output: unknown } }): string[] => [answerOf(run)];
    super('ContextualRecallMetric', createContextRecallScorer({ model: m, options: 'scale' in o ? { getContext, scale: o.scale } : { getContext } }));
    this.#context = o.context;
  }

  protected override runFor(input: string, output: string): ScorerRun {
    return { input: agentInput(input), output: [assistantMessage(output, [], { id: 'msg-1' })], groundTruth: this.#context.join('\n') };
  }
}

/** The answer text of a run built by {@link ContextualRecallMetric.runFor}. */
function answerOf(run: { output: unknown }): string {
  const first: unknown = Array.isArray(run.output) ? run.output[0] : undefined;
  return first ? messageText(first as RunMessage) : '';
}
