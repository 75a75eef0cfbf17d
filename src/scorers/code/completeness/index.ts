/**
 * Completeness (SCORERS §5.4): share of the input's elements (nouns, infinitive verbs, topics, terms,
 * via `compromise`) covered by the output's elements, with the reference's fuzzy coverage rule. Not rounded.
 */
import nlp from 'compromise';
import { createScorer } from '../../core/scorer.js';
import { inputMessagesOf, joinMessageTexts } from '../../utils/run-messages.js';
import { ElementCache } from './element-cache.js';

function stripMarks(s: string): string {
  return s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

function cleanPhrase(phrase: string): string[] {
  return stripMarks(phrase)
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(/\s+/)
    .filter((w) => w.length > 0);
}

/**
 * Elements of a text in the reference's order: nouns, verbs (infinitive; this mutates the document, so
 * topics and terms see infinitives), topics, terms; each cleaned into words and de-duplicated.
 *
 * @example
 * ```ts
 * extractElements('The weather is sunny today'); // ['the', 'weather', 'be', 'sunny', 'today']
 * ```
 */
export function extractElements(text: string): string[] {
  return elementCache.get(text, parseElements);
}

/**
 * Parsed elements per text, shared by every completeness scorer of the process (the elements of a text
 * do not depend on the scorer). Exported for benches and tests: `elementCache.clear()`, hit counts.
 */
export const elementCache = new ElementCache();

function parseElements(text: string): string[] {
  const doc = nlp(text);
  const nouns = doc.nouns().out('array') as string[];
  const verbs = doc.verbs().toInfinitive().out('array') as string[];
  const topics = doc.topics().out('array') as string[];
  const terms = doc.terms().out('array') as string[];
  const seen = new Set<string>();
  for (const phrase of [...nouns, ...verbs, ...topics, ...terms]) for (const w of cleanPhrase(phrase)) seen.add(w);
  return [...seen];
}

function covers(element: string, candidate: string): boolean {
  const e = stripMarks(element);
  const s = stripMarks(candidate);
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
  let covered = 0;
  for (const e of inputElements) if (outputElements.some((s) => covers(e, s))) covered++;
  return covered / inputElements.length;
}

/**
 * Create the completeness scorer (no options). Throws (as a ScorerRunError) when input or output is missing.
 *
 * @example
 * ```ts
 * const r = await createCompletenessScorer().run({ input: { inputMessages: [user('The fox jumps')] }, output: [assistant('The fox jumps')] });
 * r.score; // 1
 * ```
 */
export function createCompletenessScorer() {
  return createScorer({
    id: 'completeness-scorer',
    name: 'Completeness Scorer',
    description: 'Leverage the nlp method from "compromise" to extract elements from the input and output and calculate the coverage.',
    type: 'agent',
  })
    .preprocess(({ run }) => {
      const messages = inputMessagesOf(run.input);
      if (run.input === undefined || run.input === null || run.output === undefined || run.output === null || !messages) {
        throw new Error('Inputs cannot be null or undefined');
      }
      const inputElements = extractElements(joinMessageTexts(messages).trim());
      const outputElements = extractElements(joinMessageTexts(run.output).trim());
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
