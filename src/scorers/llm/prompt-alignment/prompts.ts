/** Prompts of the LLM prompt alignment scorer (docs/scorers.md). */
import { fence } from '../fence.js';
import { REASON_FORMAT } from '../shared.js';

export type EvaluationMode = 'user' | 'system' | 'both';

export const PROMPT_ALIGNMENT_INSTRUCTIONS = `You judge how well an AI response follows what it was asked to do: the user's intent, the system prompt's guidelines, or both.
You score four dimensions from 0 to 1: intent alignment, fulfilment of explicit requirements, completeness, and appropriateness of format and tone.`;

const FOCUS: Record<EvaluationMode, string> = {
  user: "Evaluate the response against the user's prompt: the user's intent and the requirements the user stated.",
  system: "Evaluate the response against the system prompt: its guidelines, constraints, format and tone rules.",
  both: "Evaluate the response against both the user's prompt (intent and requirements) and the system prompt (guidelines and constraints).",
};

export function analyzePrompt(p: { mode: EvaluationMode; user: string; system: string; response: string; history?: string }): string {
  const parts = [FOCUS[p.mode], ''];
  if (p.history) {
    parts.push('Earlier conversation, only to interpret the current prompt (do not grade it):', fence('CONVERSATION HISTORY', p.history), '');
  }
  if (p.mode !== 'system' && p.user) parts.push(fence('USER PROMPT', p.user));
  if (p.mode !== 'user' && p.system) parts.push(fence('SYSTEM PROMPT', p.system));
  parts.push(fence('AGENT RESPONSE', p.response), '');
  parts.push(`Example
User prompt: "Write a Python function computing a factorial, with type hints."
Response: a correct recursive function without type hints.
→ intentAlignment.score 0.9 (the intent is met), requirementsFulfillment: "compute factorial" fulfilled, "type hints" not fulfilled, overallScore 0.5; completeness 0.7 (no edge cases); responseAppropriateness 0.8.

Answer with JSON:
{"intentAlignment": {"score": number 0..1, "primaryIntent": string, "isAddressed": boolean, "reasoning": string},
 "requirementsFulfillment": {"requirements": [{"requirement": string, "isFulfilled": boolean, "reasoning": string}], "overallScore": number 0..1},
 "completeness": {"score": number 0..1, "missingElements": string[], "reasoning": string},
 "responseAppropriateness": {"score": number 0..1, "formatAlignment": boolean, "toneAlignment": boolean, "reasoning": string},
 "overallAssessment": string}`);
  return parts.join('\n');
}

export function reasonPrompt(p: { mode: EvaluationMode; score: number; analysis: unknown }): string {
  return `Explain a prompt alignment score (mode: ${p.mode}; higher is better).

Score: ${p.score}
${fence('ANALYSIS', JSON.stringify(p.analysis))}

Mention intent, requirements, completeness and appropriateness where they drove the score. ${REASON_FORMAT}`;
}
