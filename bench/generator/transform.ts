/**
 * Turns one template trace into a fresh instance: new seeded ids, shifted times, extra tool calls
 * (copies of the template's leaf tool spans) and padded message text.
 */
import type { Prng } from './prng.js';
import type { JsonAnyValue, JsonKeyValue, JsonResourceSpans, JsonSpan, JsonTraceRequest } from './otlp-json.js';

/** The system prompt every fixture conversation uses; padding is appended to it, so JSON-in-strings stays valid. */
export const SYSTEM_PROMPT = 'You are a helpful customer-support agent for Acme. Use tools when needed.';

const WORDS = [
  'order', 'refund', 'invoice', 'customer', 'weather', 'shipping', 'account', 'policy', 'delivery', 'support',
  'billing', 'payment', 'return', 'warranty', 'ticket', 'escalate', 'priority', 'answer', 'context', 'document',
];

/** Plain words only (no characters JSON or regexes would escape), `chars` long. */
export function filler(prng: Prng, chars: number): string {
  let out = '';
  while (out.length < chars) out += `${WORDS[prng.int(WORDS.length)] ?? 'word'} `;
  return out.slice(0, chars);
}

export interface InstanceOptions {
  traceId: string;
  /** The earliest span of the instance starts here. */
  startUnixNano: bigint;
  /** Leaf tool spans per run after duplication; below the template's count nothing is removed. */
  toolCallsPerRun: number;
  /** Extra characters of message text per span that carries the system prompt (spread over its occurrences). */
  padCharsPerSpan: number;
}

export interface Instance {
  resourceSpans: JsonResourceSpans[];
  spanCount: number;
  /** Span ids (new) of the instance's root spans (no parent). */
  rootSpanIds: string[];
  endUnixNano: bigint;
}

/** True for a span the template's library emits per tool execution. */
export function isToolSpan(s: JsonSpan): boolean {
  if (s.name === 'ai.toolCall' || s.name.startsWith('execute_tool ') || s.name.endsWith('.tool')) return true;
  return (s.attributes ?? []).some((a) => a.key === 'openinference.span.kind' && a.value?.stringValue === 'TOOL');
}

const CALL_ID_KEY = /call[._]?id|toolCallId/i;

function mapStrings(v: JsonAnyValue | undefined, f: (s: string) => string): void {
  if (!v) return;
  if (typeof v.stringValue === 'string') v.stringValue = f(v.stringValue);
  for (const x of v.arrayValue?.values ?? []) mapStrings(x, f);
  for (const kv of v.kvlistValue?.values ?? []) mapStrings(kv.value, f);
}

function countIn(attrs: JsonKeyValue[] | undefined, needle: string): number {
  let n = 0;
  const visit = (v: JsonAnyValue | undefined): void => {
    if (!v) return;
    if (typeof v.stringValue === 'string') n += v.stringValue.split(needle).length - 1;
    for (const x of v.arrayValue?.values ?? []) visit(x);
    for (const kv of v.kvlistValue?.values ?? []) visit(kv.value);
  };
  for (const a of attrs ?? []) visit(a.value);
  return n;
}

function padSpan(s: JsonSpan, prng: Prng, chars: number): void {
  if (chars <= 0) return;
  const occurrences = countIn(s.attributes, SYSTEM_PROMPT) + (s.events ?? []).reduce((n, e) => n + countIn(e.attributes, SYSTEM_PROMPT), 0);
  if (occurrences === 0) return;
  const padded = `${SYSTEM_PROMPT} ${filler(prng, Math.ceil(chars / occurrences))}`;
  const f = (str: string): string => (str.includes(SYSTEM_PROMPT) ? str.split(SYSTEM_PROMPT).join(padded) : str);
  for (const a of s.attributes ?? []) mapStrings(a.value, f);
  for (const e of s.events ?? []) for (const a of e.attributes ?? []) mapStrings(a.value, f);
}

function shift(ns: string, delta: bigint): string {
  return (BigInt(ns) + delta).toString();
}

/** Deep copy of `template` re-identified, shifted, with extra tool calls and padding (see {@link InstanceOptions}). */
export function instantiate(template: JsonTraceRequest, prng: Prng, o: InstanceOptions): Instance {
  const resourceSpans = structuredClone(template.resourceSpans);
  const all: JsonSpan[] = [];
  for (const rs of resourceSpans) for (const ss of rs.scopeSpans) all.push(...ss.spans);
  const parents = new Set(all.map((s) => s.parentSpanId ?? '').filter((p) => p !== ''));

  // Extra tool calls: copies of the leaf tool spans, placed right after their original.
  const leafTools = all.filter((s) => isToolSpan(s) && !parents.has(s.spanId));
  const extra = leafTools.length === 0 ? 0 : Math.max(0, o.toolCallsPerRun - leafTools.length);
  for (let i = 0; i < extra; i++) {
    const original = leafTools[i % leafTools.length] as JsonSpan;
    const copy = structuredClone(original);
    copy.spanId = `dup-${i}`;
    for (const a of copy.attributes ?? []) if (CALL_ID_KEY.test(a.key) && a.value?.stringValue !== undefined) a.value.stringValue += `-dup${i}`;
    for (const rs of resourceSpans) {
      for (const ss of rs.scopeSpans) {
        const at = ss.spans.indexOf(original);
        if (at >= 0) ss.spans.splice(at + 1, 0, copy);
      }
    }
    all.push(copy);
  }

  let minStart: bigint | undefined;
  for (const s of all) {
    const t = BigInt(s.startTimeUnixNano);
    if (minStart === undefined || t < minStart) minStart = t;
  }
  const delta = o.startUnixNano - (minStart ?? o.startUnixNano);
  const ids = new Map<string, string>();
  for (const s of all) ids.set(s.spanId, prng.hex(8));
  const rootSpanIds: string[] = [];
  let end = o.startUnixNano;
  for (const s of all) {
    s.traceId = o.traceId;
    s.spanId = ids.get(s.spanId) as string;
    const parent = s.parentSpanId ?? '';
    s.parentSpanId = parent === '' ? '' : (ids.get(parent) ?? prng.hex(8));
    if (s.parentSpanId === '') rootSpanIds.push(s.spanId);
    s.startTimeUnixNano = shift(s.startTimeUnixNano, delta);
    s.endTimeUnixNano = shift(s.endTimeUnixNano, delta);
    const e = BigInt(s.endTimeUnixNano);
    if (e > end) end = e;
    for (const ev of s.events ?? []) if (ev.timeUnixNano !== undefined) ev.timeUnixNano = shift(ev.timeUnixNano, delta);
    padSpan(s, prng, o.padCharsPerSpan);
  }
  return { resourceSpans, spanCount: all.length, rootSpanIds, endUnixNano: end };
}
