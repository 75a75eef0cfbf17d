/** Prompts of the context position scorer (docs/scorers.md). */
import { fence, fenceList } from '../fence.js';
import { REASON_FORMAT } from '../shared.js';

export const CONTEXT_POSITION_INSTRUCTIONS = `You judge whether the pieces of retrieved context are relevant to producing the expected output, paying attention to their order.
Be inclusive: direct definitions, supporting evidence, related characteristics and applications all count as relevant. Empty pieces and error messages are not relevant.`;

export function analyzePrompt(input: string, output: string, context: readonly string[]): string {
  return `For each context piece, in order, say whether it is relevant to producing the output for this input.

Example
Input: "What is the Sun?"  Output: "The Sun is a star."
Context: ["The Sun is a star at the centre of the Solar System.", "Stars are balls of plasma.", "The Moon orbits the Earth."]
Answer: {"verdicts": [{"verdict": "yes", "reason": "Defines the Sun as a star."}, {"verdict": "yes", "reason": "Describes what a star is."}, {"verdict": "no", "reason": "About the Moon."}]}

${fence('USER INPUT', input)}
${fence('AGENT OUTPUT', output)}
Number of context pieces: ${context.length === 0 ? 1 : context.length}
${fenceList('CONTEXT', context)}

Give one verdict per context piece, "yes" or "no", in order.
Answer with JSON: {"verdicts": [{"verdict": "yes" | "no", "reason": string}]}.`;
}

export function reasonPrompt(p: { input: string; output: string; score: number; scale: number; verdicts: unknown }): string {
  return `Explain a context position score from 0 to ${p.scale}: relevant pieces near the top weigh more (weight 1/(position+1)); higher is better.

Score: ${p.score}
${fence('VERDICTS', JSON.stringify(p.verdicts))}
${fence('USER INPUT', p.input)}
${fence('AGENT OUTPUT', p.output)}

Explain where the relevant pieces sit. ${REASON_FORMAT}`;
}
