/**
 * Stand-ins for Mastra's `Agent` (from `@mastra/core/agent`, not a dependency of tracejudge) and for the agents the
 * docs import from their own project (`./agent`, `../agents`): `myAgent`, `weatherAgent`, `summarizerAgent`,
 * `chatAgent`. A docs example reaches them only through its import line.
 *
 * A stand-in answers without a model: a few fixed rules turn the user's text into tool calls and an answer (the
 * weather in a named city through `get_weather` then `summarize`; `Get my data` through `auth-tool` then
 * `fetch-tool`; …), so what the scorers see is known in advance. `generate(input, options)` resolves to Mastra's
 * result shape: `text`, `toolCalls`, `toolResults`, `finishReason`, and with `returnScorerData: true`,
 * `scoringData: { input, output }` (Mastra's `ScorerRunInputForAgent` and response messages), which is what
 * `runEvals` scores. `run({ messages })` answers `{ content }` (the older call some docs use). Every call is kept in
 * `calls` for assertions.
 */
import { agentInput, assistantMessage, systemMessage, userMessage } from '../../../../src/model/messages.js';
import type { RunInput, RunMessage, ToolInvocation } from '../../../../src/model/agent-run.js';

/** What an Agent was asked. */
export interface AgentCall {
  input: unknown;
  options: Record<string, unknown> | undefined;
}

/** A stand-in's answer to one user text. */
export interface StandInAnswer {
  text: string;
  tools: Array<{ name: string; args: Record<string, unknown>; result: unknown }>;
}

const textOf = (input: unknown): string => {
  if (typeof input === 'string') return input;
  if (Array.isArray(input)) return input.map(textOf).filter(Boolean).join('\n');
  if (input !== null && typeof input === 'object') {
    const o = input as { content?: unknown; text?: unknown };
    if (typeof o.content === 'string') return o.content;
    if (typeof o.text === 'string') return o.text;
  }
  return '';
};

const cityOf = (text: string): string => /\bin ([A-Z][a-z]+(?: [A-Z][a-z]+)?)/.exec(text)?.[1] ?? 'Brooklyn';

/** The rules every stand-in agent answers by. */
export function answerFor(question: string): StandInAnswer {
  const q = question.toLowerCase();
  if (q.includes('weather') && !q.includes('search')) {
    const city = cityOf(question);
    return {
      text: `It is sunny and 72°F in ${city} today.`,
      tools: [
        { name: 'get_weather', args: { city }, result: { city, forecast: 'sunny', temperatureF: 72 } },
        { name: 'summarize', args: { text: `${city}: sunny, 72°F` }, result: `Sunny, 72°F in ${city}` },
      ],
    };
  }
  if (q.includes('get my data')) {
    return {
      text: 'Here is your data: item1.',
      tools: [
        { name: 'auth-tool', args: { token: 'abc123' }, result: { authenticated: true } },
        { name: 'fetch-tool', args: { endpoint: '/data' }, result: { data: ['item1'] } },
      ],
    };
  }
  if (q.includes('find and format')) {
    return {
      text: 'The formatted data: item1.',
      tools: [
        { name: 'search', args: { query: 'the data' }, result: ['item1'] },
        { name: 'format', args: { items: ['item1'] }, result: '- item1' },
      ],
    };
  }
  if (q.includes('search')) {
    const tools: StandInAnswer['tools'] = [{ name: 'search', args: { query: question }, result: ['Sunny, 72°F'] }];
    if (q.includes('summarize')) tools.push({ name: 'summarize', args: { text: 'Sunny, 72°F' }, result: 'Sunny and warm.' });
    return { text: 'It is sunny and warm.', tools };
  }
  return { text: CANNED[question] ?? `Here is a short answer to your question: ${question}`, tools: [] };
}

/** Answers to questions the docs ask, so code scorers see plausible text. */
const CANNED: Readonly<Record<string, string>> = {
  'What is machine learning?': 'Machine learning is a subset of AI that enables systems to learn from data without explicit programming.',
  'What is the capital of France?': 'The capital of France is Paris.',
  'What is 2+2?': '4',
  'Summarize the benefits of TypeScript': 'TypeScript adds static typing and better tooling, which improves code maintainability.',
  'Summarize the concept of recursion': 'Recursion is when a function calls itself to solve smaller subproblems.',
  'How was your experience with our service?': 'The service was great and the staff were very helpful!',
  'Tell me about the customer support': 'The support team was friendly and quick to help.',
};

let callIds = 0;

/** The messages, tool calls and text of one answer, in Mastra's shapes. */
function respond(input: unknown, instructions: string | undefined, answer: (q: string) => StandInAnswer): { text: string; scoringInput: RunInput; output: RunMessage[]; invocations: ToolInvocation[] } {
  const question = textOf(input);
  const a = answer(question);
  const invocations: ToolInvocation[] = a.tools.map((t) => ({ toolCallId: `call-${++callIds}`, toolName: t.name, args: t.args, state: 'result', result: t.result }));
  const scoringInput = agentInput({
    inputMessages: [userMessage(question, { id: 'input-0' })],
    systemMessages: instructions ? [systemMessage(instructions)] : [],
  });
  return { text: a.text, scoringInput, output: [assistantMessage(a.text, invocations, { id: 'output-0' })], invocations };
}

/** Mastra's `Agent`, as far as the docs' examples use it. */
export class Agent {
  readonly id: string;
  readonly name: string;
  /** The config as given (`instructions`, `model`, `tools`, `scorers`, `evals`, …). */
  readonly config: Record<string, unknown>;
  readonly calls: AgentCall[] = [];
  readonly #answer: (q: string) => StandInAnswer;

  constructor(config: Record<string, unknown>, answer: (q: string) => StandInAnswer = answerFor) {
    this.config = config;
    this.id = typeof config.id === 'string' ? config.id : typeof config.name === 'string' ? config.name : 'agent';
    this.name = typeof config.name === 'string' ? config.name : this.id;
    this.#answer = answer;
  }

  /** The live scorers of the config (`scorers: { key: { scorer } }`, or `evals: { scorers: [...] }`). */
  listScorers(): unknown[] {
    const scorers = this.config.scorers;
    const fromMap: unknown[] = scorers && typeof scorers === 'object' && !Array.isArray(scorers) ? Object.values(scorers as Record<string, unknown>).map((e: unknown) => (e as { scorer?: unknown }).scorer ?? e) : [];
    const evals = (this.config.evals as { scorers?: unknown[] } | undefined)?.scorers ?? [];
    return [...fromMap, ...evals];
  }

  async generate(input: unknown, options?: Record<string, unknown>): Promise<Record<string, unknown>> {
    this.calls.push({ input, options });
    await Promise.resolve();
    const r = respond(input, typeof this.config.instructions === 'string' ? this.config.instructions : undefined, this.#answer);
    return {
      text: r.text,
      toolCalls: r.invocations.map((i) => ({ type: 'tool-call', toolCallId: i.toolCallId, toolName: i.toolName, args: i.args })),
      toolResults: r.invocations.map((i) => ({ type: 'tool-result', toolCallId: i.toolCallId, toolName: i.toolName, result: i.result })),
      finishReason: 'stop',
      usage: { inputTokens: 10, outputTokens: 10, totalTokens: 20 },
      ...(options?.returnScorerData === true ? { scoringData: { input: r.scoringInput, output: r.output } } : {}),
    };
  }

  /** The older `agent.run({ messages })` some docs call: the answer's text as `content`. */
  async run(args: { messages: unknown[] }): Promise<{ content: string }> {
    const r = await this.generate(args.messages);
    return { content: String(r.text) };
  }
}

/** The first sentence or two of a text: what the summarizer stand-in answers. */
function summary(text: string): StandInAnswer {
  const sentences = text.split(/(?<=\.)\s+/);
  return { text: sentences.slice(0, 2).join(' '), tools: [] };
}

export const myAgent = new Agent({ id: 'my-agent', name: 'My Agent', instructions: 'You are a helpful assistant.', model: 'openai/gpt-4o-mini' });
export const weatherAgent = new Agent({ id: 'weather-agent', name: 'Weather Agent', instructions: 'Answer weather questions using the get_weather tool.', model: 'openai/gpt-4o-mini' });
export const chatAgent = new Agent({ id: 'chat-agent', name: 'Chat Agent', instructions: 'You are a friendly chat assistant.', model: 'openai/gpt-4o-mini' });
export const summarizerAgent = new Agent({ id: 'summarizer-agent', name: 'Summarizer', instructions: 'Summarize the text you are given.', model: 'openai/gpt-4o-mini' }, summary);

/** A tool the docs pass to `new Agent({ tools })` without defining it. */
export const weatherTool = { id: 'get_weather', description: 'Get the weather of a city', execute: (args: { city: string }) => ({ city: args.city, forecast: 'sunny', temperatureF: 72 }) };
