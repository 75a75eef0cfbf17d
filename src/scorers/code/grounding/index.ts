/**
 * Grounding: how much of the output's checkable detail is backed by what the agent saw.
 *
 * Definition (tracejudge's own, code-only, no judge):
 * - Items = the numbers (`\d[\d,]*(\.\d+)?`, thousands commas removed) and the named entities
 *   (compromise `topics()`: people, places, organisations; lowercased) in the assistant text of the output.
 * - Sources = `getContext(run)` when given, else the run's tool results (`JSON.stringify({ tool, result })`
 *   each) plus static `context`.
 * - A number is grounded when the same number occurs in the sources; an entity when its lowercased text
 *   occurs in the lowercased sources.
 * - score = grounded items / items (unrounded). No items → 1 (nothing to contradict). Items but no
 *   sources → not scorable (nothing to ground against, so the scorer is skipped, not scored 0).
 * Higher is better; a low score marks a run worth judging (adaptive sampling boost).
 */
import { compromise } from '../completeness/nlp.js';
import { createScorer } from '../../core/scorer.js';
import { notScorable } from '../../core/not-scorable.js';
import type { PreparedRun } from '../../core/types.js';
import { assistantText, extractToolResults } from '../../utils/run-messages.js';

export interface GroundingOptions {
  /** Static context documents added to the tool results. */
  context?: string[];
  /** Replaces the default sources (tool results + static context). */
  getContext?: (run: PreparedRun) => string[];
}

const NUMBER = /\d[\d,]*(?:\.\d+)?/g;

/**
 * Numbers in a text, thousands separators removed.
 *
 * @example
 * ```ts
 * numbersIn('paid $1,250.50 on 3 May'); // ['1250.50', '3']
 * ```
 */
function numbersIn(text: string): string[] {
  return (text.match(NUMBER) ?? []).map((n) => n.replace(/,/g, '').replace(/\.$/, ''));
}

/**
 * Named entities (people, places, organisations) in a text, lowercased and without edge punctuation.
 *
 * @example
 * ```ts
 * entitiesIn('Alice flew to Paris.'); // ['alice', 'paris']
 * ```
 */
function entitiesIn(text: string): string[] {
  const topics = compromise()(text).topics().out('array') as string[];
  const out = new Set<string>();
  for (const t of topics) {
    const e = t.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
    if (e) out.add(e);
  }
  return [...out];
}

/**
 * Create the grounding scorer.
 *
 * @example
 * ```ts
 * const r = await createGroundingScorer().run({ output: [assistantWithToolResult] });
 * r.preprocessStepResult; // { numbers, entities, ungrounded, … }
 * ```
 */
export function createGroundingScorer(options: GroundingOptions = {}) {
  const staticContext = options.context ?? [];
  return createScorer({
    id: 'grounding-scorer',
    name: 'Grounding Scorer',
    description: 'Fraction of numbers and named entities in the output that appear in tool results or context',
    type: 'agent',
  })
    .preprocess(({ run }) => {
      const text = assistantText(run.output, ' ');
      const sources = options.getContext
        ? options.getContext(run)
        : [...extractToolResults(run.output).map((t) => JSON.stringify({ tool: t.toolName, result: t.result })), ...staticContext];
      const numbers = [...new Set(numbersIn(text))];
      const entities = entitiesIn(text);
      if (numbers.length + entities.length > 0 && sources.length === 0) return notScorable('no tool results or context to ground against');
      const sourceText = sources.join('\n');
      const sourceNumbers = new Set(numbersIn(sourceText));
      const lowerSource = sourceText.toLowerCase();
      const ungrounded = [...numbers.filter((n) => !sourceNumbers.has(n)), ...entities.filter((e) => !lowerSource.includes(e))];
      return { numbers, entities, ungrounded, total: numbers.length + entities.length, grounded: numbers.length + entities.length - ungrounded.length };
    })
    .generateScore(({ results }) => {
      const r = results.preprocessStepResult;
      return r.total === 0 ? 1 : r.grounded / r.total;
    })
    .generateReason(({ results, score }) => {
      const r = results.preprocessStepResult;
      if (r.total === 0) return `The score is ${score} because the output states no numbers or named entities.`;
      const tail = r.ungrounded.length > 0 ? ` Not found in tool results or context: ${r.ungrounded.join(', ')}.` : '';
      return `The score is ${score} because ${r.grounded} of ${r.total} numbers and named entities appear in tool results or context.${tail}`;
    });
}
