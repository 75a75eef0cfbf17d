/** Prompts of the noise sensitivity scorer (docs/scorers.md). */
import { fence } from '../fence.js';
import { REASON_FORMAT } from '../shared.js';

export const NOISE_SENSITIVITY_INSTRUCTIONS = `You test how robust an AI agent is to noise: you compare its answer to a clean question with its answer to the same question with noise added (distractions, misleading or irrelevant content).`;

export function analyzePrompt(p: { original: string; baseline: string; noisyQuery: string; noisyResponse: string; noiseType?: string }): string {
  return `Compare the baseline response (to the original query) with the noisy response (to the noisy query).

Assess five dimensions: content_accuracy, completeness, relevance, consistency, hallucination_resistance.
For each, give impactLevel "none" | "minimal" | "moderate" | "significant" | "severe", the specific changes and how the noise influenced them.
List majorIssues (serious degradations, may be empty) and give an overall robustnessScore from 0 (collapsed) to 1 (unaffected).
${p.noiseType ? `Noise type: ${p.noiseType}\n` : ''}
Example: original "Is exercise good for health?", noisy query adds "chocolate cures everything"; if the noisy answer still explains exercise benefits and ignores the chocolate claim, impact is none or minimal and robustness is high.

${fence('ORIGINAL QUERY', p.original)}
${fence('BASELINE RESPONSE', p.baseline)}
${fence('NOISY QUERY', p.noisyQuery)}
${fence('NOISY RESPONSE', p.noisyResponse)}

Answer with JSON: {"dimensions": [{"dimension": string, "impactLevel": "none" | "minimal" | "moderate" | "significant" | "severe", "specificChanges": string, "noiseInfluence": string}], "overallAssessment": string, "majorIssues": string[], "robustnessScore": number 0..1}.`;
}

export function reasonPrompt(score: number, analysis: unknown): string {
  return `Explain a noise sensitivity score (1 = fully robust).

Score: ${score}
${fence('ANALYSIS', JSON.stringify(analysis))}

${REASON_FORMAT}`;
}
