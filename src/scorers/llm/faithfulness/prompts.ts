/** Prompts of the faithfulness scorer (docs/scorers.md). Verdict "yes" means the claim is supported. */
import { fence, fenceList } from '../fence.js';
import { REASON_FORMAT } from '../shared.js';

export const FAITHFULNESS_INSTRUCTIONS = `You measure how faithful an AI answer is to the context it was given.
A claim is truthful when the context states or directly implies it, contradictory when the context conflicts with it, and unsure when the context does not mention it.
Speculative claims ("might", "probably") are unsure. Use only the context, never prior knowledge.`;

export function analyzePrompt(claims: readonly string[], context: readonly string[]): string {
  return `Judge every claim against the context.

Verdicts:
- "yes": the context supports the claim.
- "no": the claim directly contradicts the context.
- "unsure": the context does not mention it, or the claim is speculative.

Example
Context: "The Eiffel Tower is 330 m tall and was completed in 1889."
Claims: ["The Eiffel Tower was completed in 1889.", "The Eiffel Tower is 250 m tall.", "The Eiffel Tower may be repainted soon."]
Answer: {"verdicts": [{"verdict": "yes", "reason": "Stated in the context."}, {"verdict": "no", "reason": "The context says 330 m."}, {"verdict": "unsure", "reason": "Speculative and not in the context."}]}

${fenceList('CONTEXT', context, false)}
Number of claims: ${claims.length}
${fenceList('CLAIMS', claims, false)}

Return exactly ${claims.length} verdicts, one per claim, in order.
Answer with JSON: {"verdicts": [{"verdict": "yes" | "no" | "unsure", "reason": string}]}.`;
}

export function reasonPrompt(p: { input: string; output: string; context: readonly string[]; score: number; scale: number; verdicts: unknown }): string {
  return `Explain a faithfulness score: the share of the answer's claims that the context supports, from 0 to ${p.scale}; higher is better.

Score: ${p.score}
${fence('VERDICTS', JSON.stringify(p.verdicts))}
${fenceList('CONTEXT', p.context, false)}
${fence('USER INPUT', p.input)}
${fence('AGENT OUTPUT', p.output)}

Explain the score from the proportion of supported claims. ${REASON_FORMAT}`;
}
