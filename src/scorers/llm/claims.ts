/** The claim-extraction prompt shared by hallucination and faithfulness (one extraction can feed both). */
import { z } from 'zod';
import { fence } from './fence.js';

export const claimsSchema = z.object({ claims: z.array(z.string()) });

/** Ask for every claim of `output`; an empty output must give `{"claims": []}`. */
export function claimExtractionPrompt(output: string): string {
  return `Extract all claims made in the agent output below.

How to extract:
- Split compound sentences into separate, self-contained claims.
- Keep speculative and predictive statements ("may", "will likely") as claims.
- Keep every number, date, name and relationship exactly as written.
- Do not include questions, commands or greetings.
- If the output is empty, return {"claims": []}.

Example
Output: "The Tesla Model S, launched in 2012, has a range of up to 405 miles and may get a cheaper version next year."
Answer: {"claims": ["The Tesla Model S was launched in 2012.", "The Tesla Model S has a range of up to 405 miles.", "The Tesla Model S is a Tesla car.", "A cheaper version of the Model S may come out next year.", "The cheaper version may come out next year."]}

${fence('AGENT OUTPUT', output)}

Answer with JSON: {"claims": string[]}.`;
}
