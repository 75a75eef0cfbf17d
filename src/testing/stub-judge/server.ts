/**
 * A stub OpenAI-compatible server for tests and benchmarks. It listens on 127.0.0.1 with an ephemeral port,
 * answers `POST /v1/chat/completions` (and OpenAI's Responses API, `POST /v1/responses`, which Mastra's
 * router uses for `openai/…` strings) from a script (a queue of replies, then a function of the request),
 * records every request, and injects faults (429 + Retry-After, insufficient_quota, 5xx, slow answers,
 * invalid JSON, answers that do not fit the schema). A request with `stream: true` (as Mastra's agents and
 * the AI SDK's `streamText` send) gets the same scripted answer as server-sent events: for chat
 * completions, `chat.completion.chunk` deltas, a final chunk with the finish reason, a usage chunk when
 * `stream_options.include_usage` is set, then `data: [DONE]`; for responses, `response.created` …
 * `response.output_text.delta` … `response.completed`. Errors are plain JSON in every mode. A streamed
 * answer can be broken on purpose after its first N events (stalled, cut, ended early, or an error event:
 * `reply.streamFault`), and every request records how it was answered (`response`).
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StreamFault, StubReply, StubUsage } from './replies.js';
import { responsesBody, responsesEvents, responsesJsonSchema, responsesMessages } from './responses-api.js';
import { chatEvents, writeEvents } from './sse.js';

/** One chat message as received. `content` is flattened to text. */
export interface StubMessage {
  role: string;
  content: string;
}

/**
 * How the stub answered a request: the status, whether as server-sent events (`text/event-stream`), the
 * events written, and whether the answer went out whole (false for a stream fault).
 */
export interface StubResponse {
  status: number;
  sse: boolean;
  events: number;
  whole: boolean;
}

/** A request the stub received, kept for assertions. */
export interface StubRequest {
  /** 0-based arrival order. */
  index: number;
  /** ms since epoch when the request arrived. */
  receivedAt: number;
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw JSON body (undefined when it did not parse). */
  body: Record<string, unknown> | undefined;
  model: string | undefined;
  messages: StubMessage[];
  /** Text of the system/developer messages joined with a blank line. */
  system: string;
  /** Text of the user messages joined with a blank line. */
  user: string;
  /** `response_format.json_schema.schema` when structured output was asked for. */
  jsonSchema: unknown;
  /** True when the client asked for a streamed (SSE) answer. */
  stream: boolean;
  /** Which API was called: chat completions or responses. */
  api: 'chat' | 'responses';
  /** How it was answered; undefined until the answer started (or when the client left before it). */
  response?: StubResponse;
}

/** Decides the reply to a request (when the queue is empty). May be async. */
export type StubScript = (request: StubRequest) => StubReply | Promise<StubReply>;

export interface StubJudgeOptions {
  /** Used when the reply queue is empty; default answers 500 "no scripted reply". */
  script?: StubScript;
  /** Characters per content delta of a streamed answer (default 16; at least 1). */
  streamChunkChars?: number;
}

/** A running stub judge. */
export interface StubJudge {
  /** Base URL to give `createOpenAI({ baseURL })`, e.g. `http://127.0.0.1:41234/v1`. */
  readonly baseURL: string;
  /** Every request received, in arrival order. */
  readonly requests: StubRequest[];
  /** Requests being answered right now, and the most ever seen at once (for concurrency assertions). */
  readonly inFlight: { now: number; max: number };
  /** Replies consumed first-in first-out before the script is asked. */
  enqueue(...replies: StubReply[]): void;
  /** Replace the script. */
  setScript(script: StubScript): void;
  /** Forget recorded requests and queued replies. */
  reset(): void;
  /** Stop listening, drop open connections and pending delays. Safe to call twice. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

const MAX_BODY_BYTES = 8 * 1024 * 1024;

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((p: unknown) => (p !== null && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : ''))
      .join('');
  }
  return '';
}

function toRequest(index: number, path: string, headers: IncomingHttpHeaders, raw: string): StubRequest {
  let body: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
  } catch {
    body = undefined;
  }
  const api = path.endsWith('/responses') ? 'responses' : 'chat';
  const chatMessages = (): StubMessage[] =>
    Array.isArray(body?.messages)
      ? (body.messages as unknown[]).map((m) => {
          const o = (m ?? {}) as { role?: unknown; content?: unknown };
          return { role: typeof o.role === 'string' ? o.role : '', content: textOf(o.content) };
        })
      : [];
  const messages = api === 'responses' ? responsesMessages(body) : chatMessages();
  const rf = body?.response_format as { json_schema?: { schema?: unknown } } | undefined;
  return {
    index,
    receivedAt: Date.now(),
    path,
    headers,
    body,
    model: typeof body?.model === 'string' ? body.model : undefined,
    messages,
    system: messages.filter((m) => m.role === 'system' || m.role === 'developer').map((m) => m.content).join('\n\n'),
    user: messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n\n'),
    jsonSchema: api === 'responses' ? responsesJsonSchema(body) : rf?.json_schema?.schema,
    stream: body?.stream === true,
    api,
  };
}

const estimateTokens = (s: string): number => Math.max(1, Math.ceil(s.length / 4));

function completion(req: StubRequest, content: string, usage: StubUsage | undefined, finishReason: string): unknown {
  const promptTokens = usage?.promptTokens ?? estimateTokens(req.messages.map((m) => m.content).join(''));
  const completionTokens = usage?.completionTokens ?? estimateTokens(content);
  return {
    id: `chatcmpl-stub-${req.index}`,
    object: 'chat.completion',
    created: Math.floor(req.receivedAt / 1000),
    model: req.model ?? 'stub',
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: finishReason }],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  };
}

/** The answer as server-sent events, in the chat-completions streaming format. */
function sendStream(req: StubRequest, res: ServerResponse, content: string, usage: StubUsage | undefined, finishReason: string, chunkChars: number, fault: StreamFault | undefined): void {
  if (res.writableEnded || res.destroyed) return;
  const options = req.body?.stream_options as { include_usage?: unknown } | undefined;
  const full = completion(req, content, usage, finishReason) as { usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } };
  const frames = chatEvents({ index: req.index, receivedAt: req.receivedAt, model: req.model, content, finishReason, usage: options?.include_usage === true ? full.usage : undefined }, chunkChars);
  req.response = { status: 200, sse: true, ...writeEvents(res, frames, 'chat', fault) };
}

/** The answer in the Responses API: one response object, or its events when streamed. */
function sendResponses(req: StubRequest, res: ServerResponse, content: string, usage: StubUsage | undefined, finishReason: string, chunkChars: number, fault: StreamFault | undefined): void {
  if (res.writableEnded || res.destroyed) return;
  const answer = {
    index: req.index,
    receivedAt: req.receivedAt,
    model: req.model,
    content,
    usage: { promptTokens: usage?.promptTokens ?? estimateTokens(req.messages.map((m) => m.content).join('')), completionTokens: usage?.completionTokens ?? estimateTokens(content) },
    finishReason,
  };
  if (!req.stream) {
    send(res, 200, responsesBody(answer));
    req.response = { status: 200, sse: false, events: 0, whole: true };
    return;
  }
  req.response = { status: 200, sse: true, ...writeEvents(res, responsesEvents(answer, chunkChars), 'responses', fault) };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.writableEnded || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/**
 * Start a stub judge on 127.0.0.1 with an ephemeral port.
 *
 * @example
 * ```ts
 * const stub = await startStubJudge({ script: (r) => reply.json({ claims: [] }) });
 * const openai = createOpenAI({ baseURL: stub.baseURL, apiKey: 'test' });
 * // … later
 * await stub.close();
 * ```
 */
export async function startStubJudge(options: StubJudgeOptions = {}): Promise<StubJudge> {
  const requests: StubRequest[] = [];
  const queue: StubReply[] = [];
  let script: StubScript = options.script ?? (() => ({ kind: 'error', status: 500, body: { error: { message: 'stub judge: no scripted reply', type: 'server_error', param: null, code: null } } }));
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = { now: 0, max: 0 };
  let closed = false;
  const chunkChars = Math.max(1, Math.floor(options.streamChunkChars ?? 16));

  const answer = async (req: StubRequest, res: ServerResponse): Promise<void> => {
    const next = queue.shift() ?? (await script(req));
    const deliver = (): void => {
      if (res.writableEnded || res.destroyed) return;
      if (next.kind === 'error') {
        send(res, next.status, next.body, next.headers);
        req.response = { status: next.status, sse: false, events: 0, whole: true };
      } else if (req.api === 'responses') sendResponses(req, res, next.content, next.usage, next.finishReason ?? 'stop', chunkChars, next.streamFault);
      else if (req.stream) sendStream(req, res, next.content, next.usage, next.finishReason ?? 'stop', chunkChars, next.streamFault);
      else {
        send(res, 200, completion(req, next.content, next.usage, next.finishReason ?? 'stop'));
        req.response = { status: 200, sse: false, events: 0, whole: true };
      }
    };
    if (next.delayMs && next.delayMs > 0) {
      const t = setTimeout(() => {
        timers.delete(t);
        deliver();
      }, next.delayMs);
      timers.add(t);
      res.on('close', () => {
        clearTimeout(t);
        timers.delete(t);
      });
    } else {
      deliver();
    }
  };

  const handle = (inc: IncomingMessage, res: ServerResponse): void => {
    const path = (inc.url ?? '/').split('?')[0] ?? '/';
    if (inc.method !== 'POST' || !(path.endsWith('/chat/completions') || path.endsWith('/responses'))) {
      send(res, 404, { error: { message: `stub judge: no route ${inc.method ?? ''} ${path}`, type: 'invalid_request_error', param: null, code: null } });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    inc.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY_BYTES) chunks.push(c);
    });
    inc.on('end', () => {
      const req = toRequest(requests.length, path, inc.headers, Buffer.concat(chunks).toString('utf8'));
      requests.push(req);
      inFlight.now++;
      inFlight.max = Math.max(inFlight.max, inFlight.now);
      res.once('close', () => {
        inFlight.now--;
      });
      answer(req, res).catch((err: unknown) => {
        send(res, 500, { error: { message: `stub judge script failed: ${String(err)}`, type: 'server_error', param: null, code: null } });
      });
    });
  };

  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.unref();
  const port = (server.address() as AddressInfo).port;

  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    for (const t of timers) clearTimeout(t);
    timers.clear();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    inFlight,
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    setScript: (next) => {
      script = next;
    },
    reset: () => {
      requests.length = 0;
      queue.length = 0;
      inFlight.max = inFlight.now;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
