/** Prompts of the context precision scorer (docs/scorers.md). */
import { fence, fenceList } from '../fence.js';
import { REASON_FORMAT } from '../shared.js';

export const CONTEXT_PRECISION_INSTRUCTIONS = `You assess retrieved context for a question-answering system: which context pieces were useful for producing the answer.
A piece is useful when it directly supports or informs the answer. Order matters: useful pieces should come first.`;

export function analyzePrompt(input: string, output: string, context: readonly string[]): string {
  return `For each context piece, decide whether it was useful for producing the expected output.

- "yes": the piece directly supports or informs the output.
- "no": it does not.

${fence('USER INPUT', input)}
Expected output:
${fence('AGENT OUTPUT', output)}
${fenceList('CONTEXT', context)}

Return exactly ${context.length} verdicts, one per piece, with its index.
Answer with JSON: {"verdicts": [{"context_index": number, "verdict": "yes" | "no", "reason": string}]}.`;
}

export function reasonPrompt(p: { input: string; output: string; context: readonly string[]; score: number; verdicts: unknown }): string {
  return `Explain a context precision score (mean average precision of the useful pieces by position; higher is better).

Score: ${p.score}
${fence('VERDICTS', JSON.stringify(p.verdicts))}
${fence('USER INPUT', p.input)}
${fence('AGENT OUTPUT', p.output)}
${fenceList('CONTEXT', p.context)}

Say which pieces were useful and whether they were ranked early. ${REASON_FORMAT}`;
}
