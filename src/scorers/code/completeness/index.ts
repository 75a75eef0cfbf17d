/**
 * Completeness: share of the input's elements (nouns, infinitive verbs, topics, terms, via `compromise`)
 * covered by the output's elements, with Mastra's fuzzy coverage rule. Not rounded. See docs/scorers.md.
 */
import { createScorer } from '../../core/scorer.js';
import { inputMessagesOf, joinMessageTexts } from '../../utils/run-messages.js';
import { ElementCache } from './element-cache.js';
import { ElementPool } from './element-pool.js';
import { parseElements, stripMarks } from './elements.js';

/**
 * Elements of a text (nouns, infinitive verbs, topics, terms; see `parseElements`), parsed on this thread.
 *
 * @example
 * ```ts
 * extractElements('The weather is sunny today'); // ['the', 'weather', 'be', 'sunny', 'today']
 * ```
 */
export function extractElements(text: string, cache?: ElementCache): string[] {
  return cache ? cache.get(text, parseElements) : parseElements(text);
}

/** The reference's fuzzy match, on texts already through `stripMarks`. */
function coversStripped(e: string, s: string): boolean {
  if (e.length <= 3) return e === s;
  const [longer, shorter] = e.length >= s.length ? [e, s] : [s, e];
  return longer.includes(shorter) && shorter.length / longer.length > 0.6;
}

/**
 * Coverage of input elements by output elements (1 when both are empty, 0 when only the input is).
 *
 * @example
 * ```ts
 * coverage(['cat', 'cats'], ['cat']); // 1
 * ```
 */
export function coverage(inputElements: readonly string[], outputElements: readonly string[]): number {
  if (inputElements.length === 0) return outputElements.length === 0 ? 1 : 0;
  // Each element is normalised once, not once per pair (the reference's O(n·m) normalisations were most
  // of a cached run's cost on long texts).
  const outputs = outputElements.map(stripMarks);
  let covered = 0;
  for (const element of inputElements) {
    const e = stripMarks(element);
    if (outputs.some((s) => coversStripped(e, s))) covered++;
  }
  return covered / inputElements.length;
}

export interface CompletenessOptions {
  /**
   * Worker threads for the `compromise` parse (a tracejudge extension; the reference has no options).
   * 0 (the default here) parses on the calling thread; the config's `workers: auto` is one per core (at most 4).
   * A run's input and output parse at the same time, each on a worker whose compromise has the exact
   * speed-ups of `speedups.ts` (~2× per text); the elements are the same either way.
   */
  workers?: number;
  /** Parse on this pool instead (the service's, shared by its completeness scorers); `workers` is then ignored. */
  pool?: ElementPool;
  /** Parsed elements per text (default: a cache of this scorer's own; the elements of a text do not depend on the scorer). */
  cache?: ElementCache;
}

/**
 * Create the completeness scorer. Throws (as a ScorerRunError) when input or output is missing.
 *
 * @example
 * ```ts
 * const r = await createCompletenessScorer().run({ input: { inputMessages: [user('The fox jumps')] }, output: [assistant('The fox jumps')] });
 * r.score; // 1
 * ```
 */
export function createCompletenessScorer(options: CompletenessOptions = {}) {
  const workers = options.workers ?? 0;
  const pool = options.pool ?? (workers > 0 ? new ElementPool(workers) : undefined);
  const cache = options.cache ?? new ElementCache();
  const elementsOf = (text: string): string[] | Promise<string[]> => (pool ? cache.getAsync(text, (t) => pool.parse(t)) : cache.get(text, parseElements));
  return createScorer({
    id: 'completeness-scorer',
    name: 'Completeness Scorer',
    description: 'Leverage the nlp method from "compromise" to extract elements from the input and output and calculate the coverage.',
    type: 'agent',
  })
    .preprocess(async ({ run }) => {
      const messages = inputMessagesOf(run.input);
      if (run.input === undefined || run.input === null || run.output === undefined || run.output === null || !messages) {
        throw new Error('Inputs cannot be null or undefined');
      }
      const [inputElements, outputElements] = await Promise.all([elementsOf(joinMessageTexts(messages).trim()), elementsOf(joinMessageTexts(run.output).trim())]);
      const outputSet = new Set(outputElements);
      return {
        inputElements,
        outputElements,
        missingElements: inputElements.filter((e) => !outputSet.has(e)),
        elementCounts: { input: inputElements.length, output: outputElements.length },
      };
    })
    .generateScore(({ results }) => coverage(results.preprocessStepResult.inputElements, results.preprocessStepResult.outputElements));
}
