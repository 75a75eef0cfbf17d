/** Prompts of the answer relevancy scorer (docs/scorers.md). */
import { fence, fenceList } from '../fence.js';
import { REASON_FORMAT } from '../shared.js';

export const ANSWER_RELEVANCY_INSTRUCTIONS = `You judge how relevant an AI answer is to the question it was asked, in a balanced way.
Partial relevance counts: a statement that discusses the kind of information requested is partly relevant even when it is not a full answer.
An empty input or an error message is not relevant.`;

export function statementsPrompt(output: string): string {
  return `Break the agent output below into meaningful statements.

Rules:
- One statement per distinct idea or fact; split sentences joined by "and" or carrying several facts, but do not split finer than that.
- A single word or a short phrase is one statement; an error message is one statement.
- An empty output gives {"statements": []}.

Example
Output: "Look! A bird! Birds are interesting animals."
Answer: {"statements": ["Look!", "A bird!", "Birds are interesting animals."]}

${fence('AGENT OUTPUT', output)}

Answer with JSON: {"statements": string[]}.`;
}

export function analyzePrompt(input: string, statements: readonly string[]): string {
  return `Rate how each statement relates to the user's question. Judge relevance only, not correctness.

Results:
- "yes": the statement directly answers the question.
- "unsure": partial relevance — it names the kind of information asked for, refers to the answer indirectly, gives a wrong answer that still addresses the question, or gives related units or quantities.
- "no": no connection to the question, only facts about the general topic, or empty.

Example
Question: "What color is the sky during the day?"
Statements: ["The sky is blue during the day.", "The sky's color depends on scattering.", "It can look orange at sunset.", "Weather affects visibility.", "Rayleigh scattering favours short wavelengths.", "Blue light has a short wavelength.", "Clouds are white.", "I like the ocean."]
Answer: {"results": [
  {"result": "yes", "reason": "Directly answers."},
  {"result": "unsure", "reason": "Explains the colour, indirectly relevant."},
  {"result": "unsure", "reason": "About sky colour, but not daytime."},
  {"result": "no", "reason": "About weather, not colour."},
  {"result": "unsure", "reason": "Supports the answer indirectly."},
  {"result": "unsure", "reason": "Supports the answer indirectly."},
  {"result": "no", "reason": "About clouds."},
  {"result": "no", "reason": "Unrelated."}]}

The question, JSON-encoded:
${fence('USER INPUT', JSON.stringify(input))}
Number of statements: ${statements.length}
${fenceList('STATEMENTS', statements)}

Return exactly ${statements.length} results, one per statement, in order.
Answer with JSON: {"results": [{"result": "yes" | "unsure" | "no", "reason": string}]}.`;
}

export function reasonPrompt(p: { input: string; output: string; score: number; results: unknown }): string {
  return `Explain an answer relevancy score (higher is better).

Score: ${p.score}
${fence('RESULTS', JSON.stringify(p.results))}
${fence('USER INPUT', p.input)}
${fence('AGENT OUTPUT', p.output)}

Explain the mix of directly and partly relevant statements. ${REASON_FORMAT}`;
}
