/** Prompts of the LLM context relevance scorer (docs/scorers.md). */
import { fence, fenceList } from '../fence.js';
import { REASON_FORMAT } from '../shared.js';

export const CONTEXT_RELEVANCE_INSTRUCTIONS = `You rate how relevant each provided context piece is to a user's question and whether the answer made use of it.
Relevance levels: high = essential to answer the question; medium = supporting or background information; low = tangential; none = unrelated.
Also list information that was needed to answer but missing from the context.`;

const NO_CONTEXT_PLACEHOLDER = '[No context was provided for evaluation]';

export function analyzePrompt(input: string, output: string, context: readonly string[]): string {
  const pieces = context.length > 0 ? context : [NO_CONTEXT_PLACEHOLDER];
  return `Evaluate every context piece for the question below.

For each piece give: its index, the piece text, relevanceLevel ("high" | "medium" | "low" | "none"), wasUsed (did the response rely on it), and reasoning.
Then list missingContext: information the question needed that no piece provided (empty list if none), and an overallAssessment.

${fence('USER INPUT', input)}
${fence('AGENT OUTPUT', output)}
${fenceList('CONTEXT', pieces)}

Return exactly ${pieces.length} evaluations.
Answer with JSON: {"evaluations": [{"context_index": number, "contextPiece": string, "relevanceLevel": "high" | "medium" | "low" | "none", "wasUsed": boolean, "reasoning": string}], "missingContext": string[], "overallAssessment": string}.`;
}

export function reasonPrompt(p: { input: string; score: number; analysis: unknown; contextEmpty: boolean; penalties: unknown }): string {
  if (p.contextEmpty) {
    return `No context was available for evaluation, so context relevance cannot be judged and the score defaults to the maximum. Score: ${p.score}. Restate this in one sentence starting with "The score is ${p.score} because".`;
  }
  return `Explain a context relevance score (higher is better). Weights: high 1.0, medium 0.7, low 0.3, none 0; penalties ${JSON.stringify(p.penalties)} for unused highly relevant pieces and for missing context.

Score: ${p.score}
${fence('ANALYSIS', JSON.stringify(p.analysis))}
${fence('USER INPUT', p.input)}

Mention the relevance of the pieces, unused relevant pieces and missing context. ${REASON_FORMAT}`;
}
