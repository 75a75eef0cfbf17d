/**
 * OpenAI's Responses API (`POST /v1/responses`) as the stub judge speaks it: the request's messages and
 * answer schema, and the scripted answer as one response object or as server-sent events. Mastra's model
 * router sends `openai/<model>` strings here (`createOpenAI(…).responses(model)`), streaming.
 */
import type { StubUsage } from './replies.js';

/** One input message, content flattened to text. */
export interface ResponsesMessage {
  role: string;
  content: string;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p: unknown) => (p !== null && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : ''))
    .join('');
}

/** `instructions` as a system message, then the `input` messages (a string input is one user message). */
export function responsesMessages(body: Record<string, unknown> | undefined): ResponsesMessage[] {
  const out: ResponsesMessage[] = [];
  if (typeof body?.instructions === 'string' && body.instructions !== '') out.push({ role: 'system', content: body.instructions });
  const input = body?.input;
  if (typeof input === 'string') out.push({ role: 'user', content: input });
  else if (Array.isArray(input)) {
    for (const item of input as unknown[]) {
      const o = (item ?? {}) as { role?: unknown; content?: unknown; type?: unknown };
      if (typeof o.role === 'string') out.push({ role: o.role, content: textOf(o.content) });
    }
  }
  return out;
}

/** `text.format.schema` when a JSON-schema answer was asked for. */
export function responsesJsonSchema(body: Record<string, unknown> | undefined): unknown {
  const format = (body?.text as { format?: { type?: unknown; schema?: unknown } } | undefined)?.format;
  return format?.type === 'json_schema' ? format.schema : undefined;
}

interface Answer {
  index: number;
  receivedAt: number;
  model: string | undefined;
  content: string;
  usage: { promptTokens: number; completionTokens: number };
  finishReason: string;
}

function usageBlock(u: StubUsage): Record<string, unknown> {
  return {
    input_tokens: u.promptTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: u.completionTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: u.promptTokens + u.completionTokens,
  };
}

/** `length` maps to an incomplete response (max_output_tokens); anything else completes. */
const incompleteOf = (finishReason: string): { reason: string } | null => (finishReason === 'length' ? { reason: 'max_output_tokens' } : null);

function message(a: Answer, status: 'in_progress' | 'completed'): Record<string, unknown> {
  return {
    type: 'message',
    id: `msg_stub_${a.index}`,
    status,
    role: 'assistant',
    content: status === 'completed' ? [{ type: 'output_text', text: a.content, annotations: [] }] : [],
  };
}

function response(a: Answer, withOutput: boolean): Record<string, unknown> {
  const incomplete = incompleteOf(a.finishReason);
  return {
    id: `resp_stub_${a.index}`,
    object: 'response',
    created_at: Math.floor(a.receivedAt / 1000),
    status: incomplete ? 'incomplete' : 'completed',
    model: a.model ?? 'stub',
    output: withOutput ? [message(a, 'completed')] : [],
    incomplete_details: incomplete,
    usage: usageBlock(a.usage),
  };
}

/** The whole answer as one response object. */
export function responsesBody(a: Answer): unknown {
  return response(a, true);
}

/** The answer as SSE frames: created, the message item, text deltas of `chunkChars`, item done, completed. */
export function responsesEvents(a: Answer, chunkChars: number): string[] {
  let seq = 0;
  const frame = (type: string, data: Record<string, unknown>): string => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`;
  const itemId = `msg_stub_${a.index}`;
  const frames = [
    frame('response.created', { response: { ...response(a, false), status: 'in_progress', usage: null, incomplete_details: null } }),
    frame('response.output_item.added', { output_index: 0, item: message(a, 'in_progress') }),
  ];
  for (let i = 0; i < a.content.length; i += chunkChars) {
    frames.push(frame('response.output_text.delta', { item_id: itemId, output_index: 0, content_index: 0, delta: a.content.slice(i, i + chunkChars), logprobs: [] }));
  }
  frames.push(frame('response.output_item.done', { output_index: 0, item: message(a, 'completed') }));
  const incomplete = incompleteOf(a.finishReason);
  frames.push(frame(incomplete ? 'response.incomplete' : 'response.completed', { response: response(a, true) }));
  return frames;
}
