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

/**
 * A `SpanFacts` with every field present (`undefined` when not stated). Selectors and the merge make their
 * facts with it: the merge and the run builder read the same fields of every span, and one object shape
 * keeps those reads monomorphic. Facts filled field by field into an object literal take one shape per
 * combination of fields; the merge's reads of them were megamorphic (≈7 % of extraction, measured).
 */
export class Facts implements SpanFacts {
  role: SpanRole | undefined = undefined;
  agentName: string | undefined = undefined;
  input: Deferred<Msg[]> | undefined = undefined;
  system: Deferred<string[]> | undefined = undefined;
  output: Msg[] | undefined = undefined;
  tool: ToolFacts | undefined = undefined;
  documents: string[] | undefined = undefined;
  model: string | undefined = undefined;
  usage: SpanFacts['usage'] = undefined;
  error: string | undefined = undefined;
  missing: string[] | undefined = undefined;
}

/** One convention: detection per span, and a reader of its keys. Pure; never throws on bad data. */
export interface ConventionSelector {
  name: Convention;
  /** Whether the span carries this convention's markers. */
  detect(span: Span, tree: SpanTree): boolean;
  /** What the convention says about the span. Called only when `detect` is true. */
  read(span: Span, tree: SpanTree): SpanFacts;
}
