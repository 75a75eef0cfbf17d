/** Prompts of the classifier scorer (docs/scorers.md), in our own words. */
import { fence } from '../fence.js';

export const CLASSIFIER_INSTRUCTIONS =
  'You classify an agent interaction by answering one question about it. Answer only with the requested form.';

export function classifierPrompt(question: string, answerForm: string, input: string, output: string): string {
  return [
    `Question: ${fence('QUESTION', question)}`,
    `User input: ${fence('USER INPUT', input)}`,
    `Agent output: ${fence('AGENT OUTPUT', output)}`,
    answerForm,
  ].join('\n\n');
}
