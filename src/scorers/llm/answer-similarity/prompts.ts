/** Prompts of the answer similarity scorer (docs/scorers.md). */
import { fence } from '../fence.js';

export const ANSWER_SIMILARITY_INSTRUCTIONS = `You compare an AI answer with a ground-truth answer, unit of meaning by unit of meaning: facts, claims, concepts, relationships and quantities.
You note exact and semantic matches, partial matches, what is missing, what is extra, and outright contradictions.`;

export function unitsPrompt(output: string, groundTruth: string): string {
  return `Extract and normalise the semantic units (facts, claims, concepts, relationships, quantities) of both texts.

${fence('AGENT OUTPUT', output)}
${fence('GROUND TRUTH', groundTruth)}

Answer with JSON only: {"outputUnits": string[], "groundTruthUnits": string[]}.`;
}

export function analyzePrompt(outputUnits: readonly string[], groundTruthUnits: readonly string[]): string {
  return `For every ground-truth unit, find how the output covers it.

matchType: "exact" (same fact, same wording or trivially so), "semantic" (same meaning, different words), "partial" (some of it), "missing" (absent).
If the output states something factually wrong about a ground-truth unit, mark that unit "missing" and add a contradiction entry.
List output units with no ground-truth counterpart in extraInOutput.

${fence('OUTPUT UNITS', JSON.stringify(outputUnits))}
${fence('GROUND TRUTH UNITS', JSON.stringify(groundTruthUnits))}

Answer with JSON: {"matches": [{"groundTruthUnit": string, "outputUnit": string | null, "matchType": "exact" | "semantic" | "partial" | "missing", "explanation": string}], "extraInOutput": string[], "contradictions": [{"outputUnit": string, "groundTruthUnit": string, "explanation": string}]}.`;
}

export const NO_GROUND_TRUTH_REASON = 'No ground truth was provided, so the answer could not be compared and the score is 0. Say so in one sentence.';

export function reasonPrompt(p: { output: string; groundTruth: string; score: number; scale: number; analysis: unknown }): string {
  return `Explain an answer similarity score in at most three sentences.

Score: ${p.score}/${p.scale}
${fence('ANALYSIS', JSON.stringify(p.analysis))}
${fence('AGENT OUTPUT', p.output)}
${fence('GROUND TRUTH', p.groundTruth)}

Do not recompute the score. Start with "The score is ${p.score}/${p.scale} because".`;
}
