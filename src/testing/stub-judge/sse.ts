/**
 * Server-sent events of the stub judge: the chat-completions chunks of an answer, and the writing of any
 * list of frames (chat completions or Responses API) with the scripted stream faults: stall, cut, end early,
 * or an error event after the first N frames.
 */
import type { ServerResponse } from 'node:http';
import type { StreamFault } from './replies.js';

/** One chat-completions answer to stream. */
export interface ChatAnswer {
  index: number;
  receivedAt: number;
  model: string | undefined;
  content: string;
  finishReason: string;
  /** The `usage` block, sent as its own chunk when the request set `stream_options.include_usage`. */
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | undefined;
}

/** How a stream was answered: frames written, and whether the answer went out whole. */
export interface SseRecord {
  events: number;
  whole: boolean;
}

const DEFAULT_STREAM_ERROR = { message: 'The server had an error while processing your request.', type: 'server_error', code: null };

/**
 * The chat-completions frames: a role chunk, content deltas of `chunkChars`, a chunk with the finish
 * reason, the usage chunk (when asked for), then `data: [DONE]`.
 */
export function chatEvents(a: ChatAnswer, chunkChars: number): string[] {
  const base = { id: `chatcmpl-stub-${a.index}`, object: 'chat.completion.chunk', created: Math.floor(a.receivedAt / 1000), model: a.model ?? 'stub' };
  const event = (data: unknown): string => `data: ${JSON.stringify(data)}\n\n`;
  const events: string[] = [event({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }] })];
  for (let i = 0; i < a.content.length; i += chunkChars) {
    events.push(event({ ...base, choices: [{ index: 0, delta: { content: a.content.slice(i, i + chunkChars) }, logprobs: null, finish_reason: null }] }));
  }
  events.push(event({ ...base, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: a.finishReason }] }));
  if (a.usage) events.push(event({ ...base, choices: [], usage: a.usage }));
  events.push('data: [DONE]\n\n');
  return events;
}

/** The error event of a fault, in the format of the API that was called (OpenAI sends these mid-stream). */
function errorEvent(api: 'chat' | 'responses', fault: StreamFault, sequence: number): string {
  const error = { ...DEFAULT_STREAM_ERROR, ...fault.error };
  if (api === 'chat') return `data: ${JSON.stringify({ error: { message: error.message, type: error.type, param: null, code: error.code } })}\n\n`;
  return `event: error\ndata: ${JSON.stringify({ type: 'error', sequence_number: sequence, code: error.code ?? error.type, message: error.message, param: null })}\n\n`;
}

/**
 * Write `frames` as a `text/event-stream` answer. Without a fault every frame is sent and the answer ends;
 * with one, the first `fault.afterEvents` frames are sent, then the fault happens. A stalled answer stays
 * open until the client goes away or the stub closes.
 */
export function writeEvents(res: ServerResponse, frames: readonly string[], api: 'chat' | 'responses', fault: StreamFault | undefined): SseRecord {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const count = fault ? Math.max(0, Math.min(frames.length, Math.floor(fault.afterEvents))) : frames.length;
  for (const f of frames.slice(0, count)) res.write(f);
  if (!fault) {
    res.end();
    return { events: count, whole: true };
  }
  switch (fault.then) {
    case 'stall':
      break;
    case 'cut':
      // Flush what was written, then drop the connection without ending the chunked body.
      res.write('', () => res.socket?.destroy());
      break;
    case 'end':
      res.end();
      break;
    case 'error':
      res.end(errorEvent(api, fault, count));
      return { events: count + 1, whole: false };
  }
  return { events: count, whole: false };
}
