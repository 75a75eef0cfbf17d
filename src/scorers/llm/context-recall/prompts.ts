/** Prompts of the context recall scorer (docs/scorers.md). */
import { fence, fenceList } from '../fence.js';
import { REASON_FORMAT } from '../shared.js';

export const CONTEXT_RECALL_INSTRUCTIONS = 'You check whether the facts of a reference answer can be found in the retrieved context.';

export function claimsPrompt(groundTruth: string): string {
  return `Break the reference answer below into atomic claims: one self-contained fact each.

Example
Reference: "Albert Einstein, born in Germany, developed relativity and won the 1921 Nobel Prize in Physics."
Answer: {"claims": ["Albert Einstein was born in Germany.", "Albert Einstein developed the theory of relativity.", "Albert Einstein won the 1921 Nobel Prize in Physics."]}

${fence('GROUND TRUTH', groundTruth)}

Answer with JSON: {"claims": string[]}.`;
}

export function analyzePrompt(context: readonly string[], claims: readonly string[]): string {
  return `For each claim, decide whether it can be attributed to the context: "yes" if the context contains it, "no" otherwise.

${fenceList('CONTEXT', context)}
${fenceList('CLAIMS', claims)}

Give one verdict per claim, in order.
Answer with JSON: {"verdicts": [{"verdict": "yes" | "no", "reason": string}]}.`;
}

export function reasonPrompt(score: number, verdicts: unknown): string {
  return `Explain a context recall score: the share of the reference answer's claims found in the context (higher is better).

Score: ${score}
${fence('VERDICTS', JSON.stringify(verdicts))}

${REASON_FORMAT}`;
}
