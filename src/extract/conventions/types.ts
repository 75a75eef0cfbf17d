/**
 * What a convention selector reads from one span. Selectors return facts; the convention-agnostic run
 * builder (`../runs.ts`) decides runs from them. Every field is optional: a selector states only what its
 * convention carries on that span.
 */
import type { Span } from '../../model/span.js';
import type { Convention } from '../../model/agent-run.js';
import type { SpanTree } from '../tree.js';
import type { Deferred } from './lazy.js';

/** A tool call as seen inside a message (an assistant turn that called a tool). */
export interface NormToolCall {
  id?: string;
  name: string;
  args: unknown;
}

/** A tool result as seen inside a message (a tool turn). */
export interface NormToolResult {
  id?: string;
  name?: string;
  result: unknown;
  isError?: boolean;
}

/** A message in one internal shape, whatever the convention wrote. */
export interface Msg {
  role: string;
  text: string;
  toolCalls?: NormToolCall[];
  toolResults?: NormToolResult[];
  finishReason?: string;
}

/** What a span is in an agent run. `workflow` is a grouping span (chain, workflow) that is not an agent. */
export type SpanRole = 'agent' | 'llm' | 'tool' | 'retriever' | 'workflow';

export interface ToolFacts {
  name?: string;
  callId?: string;
  args?: unknown;
  result?: unknown;
  /** True when a result was recorded (a result may legitimately be `null`). */
  hasResult?: boolean;
  /** Set when the tool failed. */
  error?: string;
}

export interface SpanFacts {
  role?: SpanRole;
  agentName?: string;
  /** Messages the span received (system, history, the user turn), in order; parsed when first read. */
  input?: Deferred<Msg[]>;
  /** System instructions carried apart from the messages; parsed when first read. */
  system?: Deferred<string[]>;
  /** Messages the span produced. */
  output?: Msg[];
  tool?: ToolFacts;
  /** Retrieved document texts. */
  documents?: string[];
  model?: string;
  usage?: { inputTokens?: number; outputTokens?: number };
  /** Convention-specific failure text (status and `exception` events are read generically). */
  error?: string;
  /** Why a field the convention normally carries was not usable (for `explain`). */
  missing?: string[];
}

/** One convention: detection per span, and a reader of its keys. Pure; never throws on bad data. */
export interface ConventionSelector {
  name: Convention;
  /** Whether the span carries this convention's markers. */
  detect(span: Span, tree: SpanTree): boolean;
  /** What the convention says about the span. Called only when `detect` is true. */
  read(span: Span, tree: SpanTree): SpanFacts;
}
