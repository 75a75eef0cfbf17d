/** Prompts of the hallucination scorer (docs/scorers.md). Verdict "yes" means the claim is hallucinated. */
import { fence, fenceList } from '../fence.js';
import { REASON_FORMAT } from '../shared.js';

export const HALLUCINATION_INSTRUCTIONS = `You check AI answers for hallucinations against a given context.
Work in two stages: first list the claims an answer makes (factual and speculative), then test each claim against the context and nothing else.
A claim is hallucinated when the context contradicts it, or when it asserts something the context does not support.
An empty answer has no hallucinations.
Speculation about facts that are in the context is acceptable; speculation about facts absent from the context is a hallucination.
Use no outside or prior knowledge. Less precise dates, reasonable approximations and omissions are not hallucinations.
Subjective or promotional claims ("made history", "pioneering") are hallucinations unless the context states them.`;

export function analyzePrompt(claims: readonly string[], context: readonly string[]): string {
  return `Decide for each claim whether it is a hallucination with respect to the context.

Verdict rules:
- "yes": the claim is hallucinated — it contradicts the context, or the context does not support it.
- "no": the context supports the claim.
Not hallucinations: approximate dates or numbers that fit the context, leaving details out, speculation about facts the context contains.
Hallucinations: claims contradicting the context, precise facts the context lacks, subjective praise the context does not state.

Example
Context: "SpaceX was founded in 2002 by Elon Musk. Its Falcon 9 first flew in 2010."
Claims: ["SpaceX was founded in the early 2000s.", "Falcon 9 first flew in 2008.", "SpaceX revolutionised the space industry."]
Answer: {"verdicts": [
  {"statement": "SpaceX was founded in the early 2000s.", "verdict": "no", "reason": "2002 is in the early 2000s."},
  {"statement": "Falcon 9 first flew in 2008.", "verdict": "yes", "reason": "The context says 2010."},
  {"statement": "SpaceX revolutionised the space industry.", "verdict": "yes", "reason": "A subjective claim the context does not state."}]}

There are ${claims.length} claims and ${context.length} context pieces.
${fenceList('CLAIMS', claims, false)}
${fenceList('CONTEXT', context, false)}

Give exactly one verdict per claim, in order, copying the claim into "statement". With no claims, answer {"verdicts": []}.
Answer with JSON: {"verdicts": [{"statement": string, "verdict": "yes" | "no", "reason": string}]}.`;
}

export function reasonPrompt(p: { input: string; output: string; context: readonly string[]; score: number; scale: number; verdicts: unknown }): string {
  return `Explain a hallucination score. The score is the share of the answer's claims that are hallucinated, from 0 to ${p.scale}; higher is worse.

Score: ${p.score}
${fence('VERDICTS', JSON.stringify(p.verdicts))}
${fenceList('CONTEXT', p.context, false)}
${fence('USER INPUT', p.input)}
${fence('AGENT OUTPUT', p.output)}

Explain the score from the proportion of claims that were contradicted or unsupported. ${REASON_FORMAT}`;
}
