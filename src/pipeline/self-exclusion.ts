/**
 * Self-exclusion: spans produced by tracejudge's own judge calls are never scored, even when the host
 * application (or an LLM proxy in front of the judge) traces them and sends them back to tracejudge.
 *
 * The convention (documented in the README):
 * - every judge HTTP request carries the header `x-tracejudge-judge: 1` and a `User-Agent` containing
 *   `tracejudge-judge` (src/judge/self-mark.ts);
 * - any span tracejudge itself creates for a judge call, and any resource of a process that only judges,
 *   carries the attribute `tracejudge.judge=true` (AI SDK telemetry metadata:
 *   `ai.telemetry.metadata.tracejudge.judge`).
 * A span is the judge's own when it carries the attribute (span or resource, either key), or when HTTP
 * instrumentation recorded the header (`http.request.header.x-tracejudge-judge`) or the user agent
 * (`user_agent.original`, `http.user_agent`). A run is the judge's own when any of its spans is.
 */
import type { AgentRunContext } from '../model/agent-run.js';
import { JUDGE_HEADER, JUDGE_MARK_AI_SDK_METADATA, JUDGE_MARK_ATTRIBUTE } from '../judge/self-mark.js';
import type { Attributes, AttributeValue, Span } from '../model/span.js';

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
  return marked(span.attributes) || marked(span.resource.attributes);
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
  // Resource attributes are shared by every span of a ResourceSpans: each distinct one is read once.
  const resources = new Set<Attributes>();
  const self = (s: Pick<Span, 'attributes' | 'resource'>): boolean => {
    if (marked(s.attributes)) return true;
    const r = s.resource.attributes;
    if (resources.has(r)) return false;
    resources.add(r);
    return marked(r);
  };
  return self(context.span) || context.spans.some(self);
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
