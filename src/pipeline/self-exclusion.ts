/**
 * Self-exclusion: spans produced by tracejudge's own judge calls are never scored, even when the host
 * application (or an LLM proxy in front of the judge) traces them and sends them back to tracejudge.
 *
 * The convention (documented in the README):
 * - every judge HTTP request carries the header `x-tracejudge-judge: 1` and a `User-Agent` containing
 *   `tracejudge-judge` (use {@link markJudgeFetch} as the judge client's `fetch`);
 * - any span tracejudge itself creates for a judge call, and any resource of a process that only judges,
 *   carries the attribute `tracejudge.judge=true` (AI SDK telemetry metadata:
 *   `ai.telemetry.metadata.tracejudge.judge`).
 * A span is the judge's own when it carries the attribute (span or resource, either key), or when HTTP
 * instrumentation recorded the header (`http.request.header.x-tracejudge-judge`) or the user agent
 * (`user_agent.original`, `http.user_agent`). A run is the judge's own when any of its spans is.
 */
import type { AgentRunContext } from '../model/agent-run.js';
import type { Attributes, AttributeValue, Span } from '../model/span.js';

/** Span / resource attribute marking judge work. */
export const JUDGE_MARK_ATTRIBUTE = 'tracejudge.judge';
/** The same mark as AI SDK telemetry metadata records it. */
export const JUDGE_MARK_AI_SDK_METADATA = 'ai.telemetry.metadata.tracejudge.judge';
/** Request header on every judge call. */
export const JUDGE_HEADER = 'x-tracejudge-judge';
/** User-agent product token of judge calls. */
export const JUDGE_USER_AGENT = 'tracejudge-judge/1';

function truthy(v: AttributeValue | undefined): boolean {
  if (v === undefined || v === null) return false;
  if (Array.isArray(v)) return v.some((x) => truthy(x));
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number' || typeof v === 'bigint') return v !== 0 && v !== 0n;
  if (typeof v === 'string') return v !== '' && v.toLowerCase() !== 'false' && v !== '0';
  return false;
}

const JUDGE_HEADER_ATTRIBUTE = `http.request.header.${JUDGE_HEADER}`;
const USER_AGENT_KEYS = ['user_agent.original', 'http.user_agent'] as const;

function marked(attrs: Attributes): boolean {
  if (truthy(attrs[JUDGE_MARK_ATTRIBUTE]) || truthy(attrs[JUDGE_MARK_AI_SDK_METADATA])) return true;
  if (truthy(attrs[JUDGE_HEADER_ATTRIBUTE])) return true;
  for (const key of USER_AGENT_KEYS) {
    const ua = attrs[key];
    if (typeof ua === 'string' && ua.includes('tracejudge-judge')) return true;
  }
  return false;
}

/**
 * True when `span` was produced by a tracejudge judge call.
 *
 * @example
 * ```ts
 * isSelfSpan({ ...span, attributes: { 'tracejudge.judge': true } }); // true
 * ```
 */
export function isSelfSpan(span: Pick<Span, 'attributes' | 'resource'>): boolean {
  return marked(span.attributes) || resourceMarked(span.resource.attributes);
}

/** Resource attributes are shared by every span of a ResourceSpans and never mutated: read them once. */
const resourceMarks = new WeakMap<Attributes, boolean>();

function resourceMarked(attrs: Attributes): boolean {
  let m = resourceMarks.get(attrs);
  if (m === undefined) {
    m = marked(attrs);
    resourceMarks.set(attrs, m);
  }
  return m;
}

/**
 * True when any span of the run is the judge's own (the pipeline's `isSelfRun`).
 *
 * @example
 * ```ts
 * createPipeline({ …, isSelfRun });
 * ```
 */
export function isSelfRun(context: Pick<AgentRunContext, 'span' | 'spans'>): boolean {
  return isSelfSpan(context.span) || context.spans.some(isSelfSpan);
}

/**
 * The runs that are not the judge's own.
 *
 * @example
 * ```ts
 * const scorable = withoutSelfRuns(extractAgentRunContexts(trace));
 * ```
 */
export function withoutSelfRuns<T extends Pick<AgentRunContext, 'span' | 'spans'>>(contexts: readonly T[]): T[] {
  return contexts.filter((c) => !isSelfRun(c));
}

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
