/** Prompts of the LLM tool-call accuracy scorer (docs/scorers.md). */
import { fence } from '../fence.js';

export const TOOL_CALL_ACCURACY_INSTRUCTIONS = `You judge whether an AI agent chose the right tools for a user's request.
A tool call is appropriate only when it directly serves what the user explicitly asked for; tools that are merely helpful extras are inappropriate.`;

export function analyzePrompt(p: { user: string; response: string; tools: readonly string[]; available: string }): string {
  return `Evaluate the agent's tool calls.

Rules:
- If the agent called no tool, decide whether answering directly or asking for clarification was right, or whether it missed a tool it should have used (list such tools in missingTools).
- If it called tools, judge each call: was it appropriate for the explicit request?

${fence('USER REQUEST', p.user)}
${fence('AGENT RESPONSE', p.response)}
Tools actually called:
${fence('TOOLS CALLED', p.tools.length > 0 ? p.tools.map((t) => JSON.stringify(t)).join(', ') : 'None')}
Available tools:
${fence('TOOL REFERENCE', p.available || '(none)')}

Answer with JSON: {"evaluations": [{"toolCalled": string, "wasAppropriate": boolean, "reasoning": string}], "missingTools": string[]}.`;
}

export function reasonPrompt(p: { user: string; score: number; evaluations: unknown; missingTools: unknown }): string {
  return `Explain a tool-call accuracy score in one sentence (higher is better).

Score: ${p.score}/1
${fence('EVALUATIONS', JSON.stringify(p.evaluations))}
${fence('MISSING TOOLS', JSON.stringify(p.missingTools))}
${fence('USER REQUEST', p.user)}

Do not recompute the score. One sentence, starting with "The score is ${p.score} because".`;
}
