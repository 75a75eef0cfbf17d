/** Prompts of the summarization scorer (docs/scorers.md). */
import { fence } from '../fence.js';
import { REASON_FORMAT } from '../shared.js';

export const SUMMARIZATION_INSTRUCTIONS = `You grade summaries on two axes: alignment (every claim of the summary is supported by the source) and coverage (the summary answers the key questions the source raises).`;

export function alignmentPrompt(source: string, summary: string, maxQuestions: number): string {
  return `Part 1 — alignment. Extract the atomic claims of the summary and judge whether the source supports each one.
Dates, numbers, proper nouns and domain terms must match exactly; a weaker or stronger claim than the source makes does not match.
Part 2 — questions. From the source alone, write at most ${maxQuestions} closed questions whose answer, according to the source, is "yes".

${fence('SOURCE', source)}
${fence('SUMMARY', summary)}

Answer with JSON: {"alignment": [{"claim": string, "supported": boolean, "reason": string}], "questions": string[]}.`;
}

export function coveragePrompt(summary: string, questions: readonly string[]): string {
  return `Answer each question using only the summary. "answered" is true only when the summary gives the answer.

${fence('SUMMARY', summary)}
${fence('QUESTIONS', questions.map((q, i) => `${i + 1}. ${q}`).join('\n') || '(none)')}

Answer with JSON: {"coverage": [{"question": string, "answered": boolean, "reason": string}]}.`;
}

export function reasonPrompt(score: number, details: unknown): string {
  return `Explain a summarization score: the lower of alignment and coverage (higher is better).

Score: ${score}
${fence('DETAILS', JSON.stringify(details))}

${REASON_FORMAT}`;
}
