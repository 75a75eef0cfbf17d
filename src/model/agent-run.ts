/**
 * The scoring unit: one agent invocation and its subtree (docs/records.md, "The agent run"). `extract` prints it as JSON;
 * scorers receive `input` / `output` in Mastra's agent scorer run shape.
 */
import type { Attributes, Span } from './span.js';

/** Which convention an agent run was read from. */
export type Convention = 'genai' | 'aisdk' | 'openinference' | 'openllmetry' | 'mastra' | 'mapping';

/** A text part or a tool-invocation part of a Mastra format-2 message (kept for compatibility with Mastra helpers). */
export type MessagePart =
  | { type: 'text'; text: string }
  | { type: 'tool-invocation'; toolInvocation: ToolInvocation }
  | { type: string; [key: string]: unknown };

export interface ToolInvocation {
  toolCallId: string;
  toolName: string;
  args: unknown;
  /** `'result'` when the tool returned, `'output-error'` when it threw, `'call'` when no result was seen. */
  state: 'result' | 'call' | 'output-error' | 'partial-call';
  result?: unknown;
  /** Set with `state: 'output-error'`. */
  errorText?: string;
  isError?: boolean;
  /** Readable text of a wrapped result (content-block arrays, `{type, value}` outputs); `result` keeps the recorded value. */
  resultText?: string;
}

/** A message as tracejudge emits it: `content` is the plain text; tool invocations sit beside it. */
export interface RunMessage {
  role: 'user' | 'assistant' | 'system' | 'tool';
  content: string;
  toolInvocations?: ToolInvocation[];
}

export interface RunInput {
  /** The user turn that started the run. */
  inputMessages: RunMessage[];
  /** System prompt(s), kept apart from the user turn. */
  systemMessages: RunMessage[];
  /** Earlier conversation turns seen by the model, when the convention carries them. */
  rememberedMessages?: RunMessage[];
}

export interface ToolResult {
  toolName: string;
  toolCallId: string;
  args: unknown;
  result: unknown;
  /** Readable text of a wrapped result, when the result is wrapped. */
  resultText?: string;
}

export interface AgentRun {
  traceId: string;
  /** The agent run span. */
  spanId: string;
  agentName: string;
  convention: Convention;
  input: RunInput;
  output: RunMessage[];
  toolResults: ToolResult[];
  /** Retrieved document texts. */
  context: string[];
  model?: string;
  usage?: { inputTokens: number; outputTokens: number };
  status: 'ok' | 'error';
  /** RFC 3339. */
  startTime: string;
  /** RFC 3339. */
  endTime: string;
  serviceName?: string;
  /** Ground truth read from the configured span attribute, when present. */
  groundTruth?: unknown;
  /** Notes about how the run was assembled (orphan spans, truncation). Not part of the documented run shape. */
  notes?: string[];
}

/**
 * Internal view of a run for sampling rules and trajectory scorers: the run plus its spans.
 * Never serialised.
 */
export interface AgentRunContext {
  run: AgentRun;
  /** The agent span. */
  span: Span;
  /** The agent span's subtree in start order (including the agent span). */
  spans: Span[];
  resourceAttributes: Attributes;
}
