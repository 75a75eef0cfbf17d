/**
 * The marks of tracejudge's own judge calls: every judge HTTP request carries the header
 * `x-tracejudge-judge: 1` and a `User-Agent` containing `tracejudge-judge`, and any span tracejudge makes
 * for a judge call carries `tracejudge.judge=true`. The pipeline never scores a run that carries them
 * (src/pipeline/self-exclusion.ts), even when a host application traces the judge calls and sends them back.
 */

/** Span / resource attribute marking judge work. */
export const JUDGE_MARK_ATTRIBUTE = 'tracejudge.judge';
/** The same mark as AI SDK telemetry metadata records it. */
export const JUDGE_MARK_AI_SDK_METADATA = 'ai.telemetry.metadata.tracejudge.judge';
/** Request header on every judge call. */
export const JUDGE_HEADER = 'x-tracejudge-judge';
/** User-agent product token of judge calls. */
const JUDGE_USER_AGENT = 'tracejudge-judge/1';

/**
 * Headers every judge request carries.
 *
 * @example
 * ```ts
 * createOpenAI({ baseURL, apiKey, headers: judgeRequestHeaders() });
 * ```
 */
export function judgeRequestHeaders(): Record<string, string> {
  return { [JUDGE_HEADER]: '1', 'user-agent': JUDGE_USER_AGENT };
}

/**
 * A `fetch` that adds the judge headers to every request (pass it as the judge client's `fetch`).
 *
 * @example
 * ```ts
 * createJudgeClient(settings, { fetch: markJudgeFetch() });
 * ```
 */
export function markJudgeFetch(base: typeof globalThis.fetch = globalThis.fetch): typeof globalThis.fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    headers.set(JUDGE_HEADER, '1');
    const ua = headers.get('user-agent');
    headers.set('user-agent', ua && !ua.includes('tracejudge-judge') ? `${ua} ${JUDGE_USER_AGENT}` : JUDGE_USER_AGENT);
    return base(input, { ...init, headers });
  };
}
