/**
 * Scripted answers of the stub OpenAI-compatible judge: what one `POST /v1/chat/completions` returns.
 * Each reply is plain data so tests can build them inline; the helpers below name the common cases.
 */

/** Token counts reported in the `usage` block; when omitted the stub estimates them from text length. */
export interface StubUsage {
  promptTokens: number;
  completionTokens: number;
}

/**
 * What a streamed answer does after its first `afterEvents` server-sent events (for chat completions the
 * first event is the role chunk, then one per content delta, the finish chunk, the usage chunk when asked
 * for, and `[DONE]`). A plain JSON answer is always sent whole.
 * - `stall`: send nothing more and keep the connection open (the client's timeout must end it);
 * - `cut`: drop the connection in the middle of the body;
 * - `end`: end the body cleanly, without a finish chunk or `[DONE]`;
 * - `error`: send an error event (`error`, default a `server_error`), as OpenAI does mid-stream, and end.
 */
export interface StreamFault {
  afterEvents: number;
  then: 'stall' | 'cut' | 'end' | 'error';
  error?: { message: string; type?: string; code?: string | null };
}

/** What the stub answers to one request. `delayMs` holds the answer back (for timeouts and concurrency). */
export type StubReply =
  | { kind: 'content'; content: string; usage?: StubUsage; finishReason?: string; delayMs?: number; streamFault?: StreamFault }
  | { kind: 'error'; status: number; body: unknown; headers?: Record<string, string>; delayMs?: number };

/** Builders for the usual replies. */
export const reply = {
  /** A structured-output answer: `content` is the JSON string of `value`. */
  json(value: unknown, usage?: StubUsage): StubReply {
    return { kind: 'content', content: JSON.stringify(value), ...(usage ? { usage } : {}) };
  },
  /** A plain text answer (reason steps). */
  text(text: string, usage?: StubUsage): StubReply {
    return { kind: 'content', content: text, ...(usage ? { usage } : {}) };
  },
  /** An answer that is not JSON at all. */
  invalidJson(): StubReply {
    return { kind: 'content', content: 'Sure! Here is my verdict: {"verdicts": [' };
  },
  /** 429 rate limit with `Retry-After` (seconds) and optionally `retry-after-ms`. */
  rateLimited(retryAfterSeconds?: number, retryAfterMs?: number): StubReply {
    const headers: Record<string, string> = {};
    if (retryAfterSeconds !== undefined) headers['retry-after'] = String(retryAfterSeconds);
    if (retryAfterMs !== undefined) headers['retry-after-ms'] = String(retryAfterMs);
    return {
      kind: 'error',
      status: 429,
      headers,
      body: { error: { message: 'Rate limit reached for requests', type: 'requests', param: null, code: 'rate_limit_exceeded' } },
    };
  },
  /** 429 with OpenAI's `insufficient_quota` code: retrying cannot help. */
  quotaExhausted(): StubReply {
    return {
      kind: 'error',
      status: 429,
      body: {
        error: {
          message: 'You exceeded your current quota, please check your plan and billing details.',
          type: 'insufficient_quota',
          param: null,
          code: 'insufficient_quota',
        },
      },
    };
  },
  /** A 5xx server error, optionally with headers such as `retry-after`. */
  serverError(status = 500, headers?: Record<string, string>): StubReply {
    return { kind: 'error', status, ...(headers ? { headers } : {}), body: { error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } } };
  },
  /** Any error status with an OpenAI-style error body. */
  error(status: number, message: string, code: string | null = null): StubReply {
    return { kind: 'error', status, body: { error: { message, type: 'invalid_request_error', param: null, code } } };
  },
  /** The same reply, held back `delayMs` milliseconds. */
  slow(delayMs: number, inner: StubReply): StubReply {
    return { ...inner, delayMs };
  },
  /** The same content reply, broken by `fault` when it is streamed (see {@link StreamFault}). */
  streamFault(fault: StreamFault, inner: StubReply): StubReply {
    if (inner.kind !== 'content') throw new Error('stub judge: a stream fault needs a content reply');
    return { ...inner, streamFault: fault };
  },
};
