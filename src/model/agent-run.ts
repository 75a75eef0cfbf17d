/**
 * The scoring unit: one agent invocation and its subtree (docs/records.md, "The agent run"). `extract` prints it as JSON;
 * scorers receive `input` / `output` in Mastra's agent scorer run shape (`ScorerRunInputForAgent`, `MastraDBMessage[]`).
 */
import type { Attributes, Span } from './span.js';

/** Which convention an agent run was read from. */
export type Convention = 'genai' | 'aisdk' | 'openinference' | 'openllmetry' | 'mastra' | 'mapping';

/**
 * A part of a Mastra format-2 message: text and tool invocations are what extraction writes; other Mastra part
 * types (`step-start`, `reasoning`, `source-url`, …) pass through datasets unchanged.
 */
export type MessagePart =
  | { type: 'text'; text: string }
  | { type: 'tool-invocation'; toolInvocation: ToolInvocation }
  | { type: 'step-start' }
  | { type: string; [key: string]: unknown };

/** Mastra's `MastraToolInvocation`, plus tracejudge's `resultText`. */
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
  /** tracejudge extra: readable text of a wrapped result (content-block arrays, `{type, value}` outputs); `result` keeps the recorded value. */
  resultText?: string;
}

/**
 * Mastra's `MastraDBMessage` (format 2), as JSON. Build one with the helpers of `./messages.ts`
 * (`userMessage`, `assistantMessage`, …) and read its text with `messageText`.
 */
export interface RunMessage {
  /** Stable: derived from the run span and the message's position, never random (e.g. `<spanId>-out-0`). */
  id: string;
  /** Mastra has no `tool` role: tool results live in the assistant message's tool invocations. */
  role: 'user' | 'assistant' | 'system';
  /** RFC 3339. Mastra types it `Date`; runs are JSON records, so it is the string. */
  createdAt: string;
  content: {
    format: 2;
    /** Tool-invocation and text parts, in the order they happened. */
    parts: MessagePart[];
    /** The plain text; omitted when empty. */
    content?: string;
    /** The same invocations as the tool-invocation parts (Mastra's legacy array); omitted when none. */
    toolInvocations?: ToolInvocation[];
  };
}

/** Mastra's `CoreSystemMessage`. */
export interface SystemMessage {
  role: 'system';
  content: string;
}

/** Mastra's agent scorer input (`ScorerRunInputForAgent`). */
export interface RunInput {
  /** The user turn that started the run. */
  inputMessages: RunMessage[];
  /** Earlier conversation turns seen by the model, when the convention carries them; `[]` otherwise. */
  rememberedMessages: RunMessage[];
  /** System prompt(s), kept apart from the user turn. */
  systemMessages: SystemMessage[];
  /** Always `{}`: traces carry no tags for system messages. */
  taggedSystemMessages: Record<string, SystemMessage[]>;
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
  /**
   * The run this one is nested in (a hand-off, a sub-agent, an agent used as a tool): the span of the nearest
   * ancestor span that is itself a run. Absent for a top-level run.
   */
  parentSpanId?: string;
  /** That parent run's `agentName`; set with `parentSpanId`. */
  parentAgentName?: string;
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
  /** Set when the run has no agent span (LLM calls outside any agent): its `agentName` is then a span's name. */
  noAgentSpan?: true;
}
