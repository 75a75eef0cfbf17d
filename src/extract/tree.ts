/**
 * The span tree of one trace, built once and shared by every convention selector: spans indexed by id,
 * children in start order, orphans (parent not received) attached under the root with a note, and the
 * span events plus correlated log records of each span in time order.
 */
import type { Attributes, AttributeValue, LogRecord, Span } from '../model/span.js';
import { keyFlagsOf, type KeyFlagTable } from './key-flags.js';
import { JsonCache } from './values.js';

/** A span event or a log record joined to a span, in one shape. */
export interface SpanEventLike {
  name: string;
  timeUnixNano: bigint;
  attributes: Attributes;
  /** The log record body; `undefined` for span events. */
  body?: AttributeValue;
  origin: 'span-event' | 'log';
}

export interface SpanTree {
  traceId: string;
  /** Every span, by span id (a later duplicate of an id is ignored). */
  byId: ReadonlyMap<string, Span>;
  /** All spans in start order (ties broken by span id). */
  ordered: readonly Span[];
  /** Top-level spans in start order: true roots, plus the orphans when there is not exactly one true root. */
  roots: readonly Span[];
  /** Spans whose parent never arrived. */
  orphans: readonly Span[];
  /** Human-readable notes about the tree (orphans, duplicate ids, unjoined logs). */
  notes: readonly string[];
  /** Children of a span in start order. */
  children(spanId: string): readonly Span[];
  /** Parent span (an adopted orphan's is the root), or `undefined` for a top-level span. */
  parent(span: Span): Span | undefined;
  /** Span events and the log records correlated by trace and span id, in time order. */
  eventsOf(spanId: string): readonly SpanEventLike[];
  /** Log records of the trace that name no received span. */
  unjoinedLogs: readonly LogRecord[];
  /**
   * Parsed JSON-like strings of this trace. Selectors read the same content attribute more than once per
   * span (each convention reads the `gen_ai.*` copies beside its own keys) and spans repeat values (a tool
   * span's arguments are also in the LLM message that called it); the cache makes each distinct text
   * parse once per trace. Parsed values are shared, never mutated by extraction.
   */
  readonly json: JsonCache;
  /** Per-trace memos of the selectors (the last span a selector read, a formatted second). */
  readonly memo: TreeMemo;
  /** The key families of a span's attributes (`KEY_*` of key-flags.ts), computed once per span. */
  keyFlags(span: Span): number;
}

export { JsonCache } from './values.js';

/** Slots the selectors use to avoid reading one span twice in a row (see each selector). */
export interface TreeMemo {
  genAi?: { span: Span; facts: object };
  aiSdkV7?: { span: Span; v7: boolean };
  /** The last whole second formatted by `rfc3339`, and its text. */
  secs?: number;
  datePart?: string;
}

/**
 * Start order; ties (SDKs with millisecond start times) by end time, then span id, so a tool span that
 * starts in the same millisecond as the next LLM call still comes first.
 */
export function byStart(a: Span, b: Span): number {
  if (a.startTimeUnixNano !== b.startTimeUnixNano) return a.startTimeUnixNano < b.startTimeUnixNano ? -1 : 1;
  if (a.endTimeUnixNano !== b.endTimeUnixNano) return a.endTimeUnixNano < b.endTimeUnixNano ? -1 : 1;
  return a.spanId < b.spanId ? -1 : a.spanId > b.spanId ? 1 : 0;
}

/**
 * Sorts `list` from index `from` on in place, as `list.sort(byStart)` does with that part (both sorts are
 * stable, so the order is the same). Spans mostly come in start order or close to it: an insertion sort
 * puts those in order in about one pass without the work copy `Array#sort` allocates, and hands a list that
 * needs many moves to `Array#sort`.
 */
export function sortByStart<T extends Span>(list: T[], from = 0): T[] {
  let moves = 2 * list.length + 8;
  for (let i = from + 1; i < list.length; i++) {
    const x = list[i] as T;
    let j = i - 1;
    if (byStart(list[j] as T, x) <= 0) continue;
    do {
      list[j + 1] = list[j] as T;
      j--;
    } while (j >= from && byStart(list[j] as T, x) > 0);
    list[j + 1] = x;
    moves -= i - j - 1;
    if (moves < 0) return from === 0 ? list.sort(byStart) : sortTail(list, from);
  }
  return list;
}

function sortTail<T extends Span>(list: T[], from: number): T[] {
  const tail = list.slice(from).sort(byStart);
  for (let i = 0; i < tail.length; i++) list[from + i] = tail[i] as T;
  return list;
}

/** Short span id for messages: the first 4 hex characters and an ellipsis. */
export function shortId(spanId: string): string {
  return `${spanId.slice(0, 4)}…`;
}

const NO_EVENTS: readonly SpanEventLike[] = Object.freeze([]);
const NO_SPANS: readonly Span[] = Object.freeze([]);

/**
 * Builds the tree of one trace. Spans of other traces and log records of other traces are ignored.
 * Never throws. `keyFlags` remembers the key families of attribute keys across trees (an `Extractor`'s);
 * without it every span's keys are worked out afresh.
 */
export function buildSpanTree(traceId: string, spans: readonly Span[], logs: readonly LogRecord[] = [], keyFlags?: KeyFlagTable): SpanTree {
  const notes: string[] = [];
  const byId = new Map<string, Span>();
  let duplicates = 0;
  for (const s of spans) {
    if (s.traceId !== traceId) continue;
    if (byId.has(s.spanId)) {
      duplicates++;
      continue;
    }
    byId.set(s.spanId, s);
  }
  if (duplicates > 0) notes.push(`${duplicates} duplicate span id(s) ignored`);
  const ordered = sortByStart([...byId.values()]);
  const kids = new Map<string, Span[]>();
  const roots: Span[] = [];
  const orphans: Span[] = [];
  for (const s of ordered) {
    if (s.parentSpanId === '' || s.parentSpanId === s.spanId) {
      roots.push(s);
    } else if (byId.has(s.parentSpanId)) {
      // A new list is made holding its first child: grown from empty it would take room for 16.
      const list = kids.get(s.parentSpanId);
      if (list) list.push(s);
      else kids.set(s.parentSpanId, [s]);
    } else {
      orphans.push(s);
    }
  }
  // Orphans hang under the single true root when there is one (their lost parent was inside it),
  // else they stay top-level.
  const adoptive = roots.length === 1 ? roots[0] : undefined;
  // Made for the first orphan (most traces have none), as `events` for the first span with an event.
  let adopted: Map<string, Span> | undefined;
  for (const o of orphans) {
    if (adoptive) {
      adopted ??= new Map<string, Span>();
      let list = kids.get(adoptive.spanId);
      if (!list) kids.set(adoptive.spanId, (list = []));
      list.push(o);
      adopted.set(o.spanId, adoptive);
    }
    notes.push(
      `span ${shortId(o.spanId)} \`${o.name}\` has parent ${shortId(o.parentSpanId)} which was not received; attached ${adoptive ? `under the root ${shortId(adoptive.spanId)} \`${adoptive.name}\`` : 'at the top level'}`,
    );
  }
  if (adoptive) {
    const list = kids.get(adoptive.spanId);
    if (list) sortByStart(list);
  }
  const detached = breakCycles(ordered, roots, orphans, kids, notes, adoptive !== undefined);
  // Only spans with events or joined logs get a list (most spans have neither).
  let events: Map<string, SpanEventLike[]> | undefined;
  for (const s of ordered) {
    if (s.events.length === 0) continue;
    events ??= new Map<string, SpanEventLike[]>();
    events.set(
      s.spanId,
      s.events.map((e) => ({ name: e.name, timeUnixNano: e.timeUnixNano, attributes: e.attributes, origin: 'span-event' as const })),
    );
  }
  const unjoined: LogRecord[] = [];
  for (const l of logs) {
    if (l.traceId !== traceId) continue;
    if (!l.spanId || !byId.has(l.spanId)) {
      unjoined.push(l);
      continue;
    }
    events ??= new Map<string, SpanEventLike[]>();
    let list = events.get(l.spanId);
    if (!list) events.set(l.spanId, (list = []));
    const name = l.eventName || (typeof l.attributes['event.name'] === 'string' ? l.attributes['event.name'] : '');
    list.push({ name, timeUnixNano: l.timeUnixNano || l.observedTimeUnixNano, attributes: l.attributes, body: l.body, origin: 'log' });
  }
  if (unjoined.length > 0) notes.push(`${unjoined.length} log record(s) name no received span`);
  if (events !== undefined) for (const list of events.values()) list.sort((a, b) => (a.timeUnixNano < b.timeUnixNano ? -1 : a.timeUnixNano > b.timeUnixNano ? 1 : 0));
  const allRoots = adoptive ? [...roots] : sortByStart([...roots, ...orphans]);
  return new BuiltSpanTree(traceId, byId, ordered, allRoots, orphans, notes, unjoined, kids, adopted, detached, events, keyFlags);
}

/**
 * The tree `buildSpanTree` returns. A class, so its methods are on the prototype: as closures in an object
 * literal, each tree made four functions and a context for them, a good part of what building it allocated.
 */
class BuiltSpanTree implements SpanTree {
  readonly json = new JsonCache();
  readonly memo: TreeMemo = {};
  readonly #kids: ReadonlyMap<string, readonly Span[]>;
  readonly #adopted: ReadonlyMap<string, Span> | undefined;
  /** Spans detached from a parent cycle; `undefined` when there is none (almost every trace). */
  readonly #detached: ReadonlySet<string> | undefined;
  readonly #events: ReadonlyMap<string, readonly SpanEventLike[]> | undefined;
  readonly #keyFlagTable: KeyFlagTable | undefined;
  readonly #flags = new Map<Span, number>();
  // The selectors ask for the flags of one span several times in a row: the last answer is kept at hand.
  #flagsSpan: Span | undefined = undefined;
  #lastFlags = 0;

  constructor(
    readonly traceId: string,
    readonly byId: ReadonlyMap<string, Span>,
    readonly ordered: readonly Span[],
    readonly roots: readonly Span[],
    readonly orphans: readonly Span[],
    readonly notes: readonly string[],
    readonly unjoinedLogs: readonly LogRecord[],
    kids: ReadonlyMap<string, readonly Span[]>,
    adopted: ReadonlyMap<string, Span> | undefined,
    detached: ReadonlySet<string> | undefined,
    events: ReadonlyMap<string, readonly SpanEventLike[]> | undefined,
    keyFlagTable: KeyFlagTable | undefined,
  ) {
    this.#kids = kids;
    this.#adopted = adopted;
    this.#detached = detached;
    this.#events = events;
    this.#keyFlagTable = keyFlagTable;
  }

  children(spanId: string): readonly Span[] {
    return this.#kids.get(spanId) ?? NO_SPANS;
  }

  parent(s: Span): Span | undefined {
    return (
      this.#adopted?.get(s.spanId) ??
      (s.parentSpanId && s.parentSpanId !== s.spanId && this.#detached?.has(s.spanId) !== true ? this.byId.get(s.parentSpanId) : undefined)
    );
  }

  eventsOf(spanId: string): readonly SpanEventLike[] {
    // Most traces have no span events and no joined logs: no lookup for them.
    return this.#events === undefined ? NO_EVENTS : (this.#events.get(spanId) ?? NO_EVENTS);
  }

  keyFlags(s: Span): number {
    if (s === this.#flagsSpan) return this.#lastFlags;
    let f = this.#flags.get(s);
    if (f === undefined) this.#flags.set(s, (f = this.#keyFlagTable ? this.#keyFlagTable.flagsOf(s.attributes) : keyFlagsOf(s.attributes)));
    this.#flagsSpan = s;
    this.#lastFlags = f;
    return f;
  }
}

/**
 * Spans that sit on a parent cycle (a → b → a) are reachable from no root; detach them to the root so
 * every walk terminates and every span is seen once. The detached spans, or `undefined` when no span is on a cycle.
 */
function breakCycles(ordered: Span[], roots: Span[], orphans: readonly Span[], kids: Map<string, Span[]>, notes: string[], adopted: boolean): Set<string> | undefined {
  if (reachesAll(ordered.length, adopted ? roots : [...roots, ...orphans], kids)) return undefined;
  const detached = new Set<string>();
  const seen = new Set<string>();
  const stack = [...roots, ...orphans];
  while (stack.length > 0) {
    const s = stack.pop() as Span;
    if (seen.has(s.spanId)) continue;
    seen.add(s.spanId);
    for (const c of kids.get(s.spanId) ?? []) stack.push(c);
  }
  for (const s of ordered) {
    if (seen.has(s.spanId)) continue;
    const list = kids.get(s.parentSpanId);
    if (list) kids.set(s.parentSpanId, list.filter((c) => c !== s));
    roots.push(s);
    detached.add(s.spanId);
    notes.push(`span ${shortId(s.spanId)} \`${s.name}\` is on a parent cycle; attached at the root`);
    // Re-walk from it so its own subtree counts as seen.
    const st = [s];
    while (st.length > 0) {
      const x = st.pop() as Span;
      if (seen.has(x.spanId) && x !== s) continue;
      seen.add(x.spanId);
      for (const c of kids.get(x.spanId) ?? []) if (!seen.has(c.spanId)) st.push(c);
    }
  }
  roots.sort(byStart);
  return detached;
}

/**
 * Whether a walk down from `starts` reaches all `count` spans (then no span is on a parent cycle). Every
 * span sits in at most one children list (its parent's, or the adoptive root's for an adopted orphan) and
 * no start sits in one, so the walk meets each span it reaches once: a count stands in for a set of seen ids.
 */
function reachesAll(count: number, starts: readonly Span[], kids: ReadonlyMap<string, readonly Span[]>): boolean {
  const stack = [...starts];
  let reached = 0;
  while (stack.length > 0) {
    const s = stack.pop() as Span;
    reached++;
    const list = kids.get(s.spanId);
    if (list !== undefined) for (const c of list) stack.push(c);
  }
  return reached === count;
}

/** The subtree under `span` (excluding `span`) in depth-first start order; `stop` prunes a child and its subtree. */
export function descendants(tree: SpanTree, span: Span, stop?: (s: Span) => boolean): Span[] {
  // A tree from `buildSpanTree` is a forest (a span sits in one children list at most, cycles are
  // detached): the walk meets each span once, with no set of seen ids. A walk that meets more spans than
  // the tree has is not on such a tree, and starts over with the set.
  const out: Span[] = [];
  let budget = tree.byId.size;
  // Iterative pre-order walk (deep traces must not overflow the stack).
  const stack: Span[] = [];
  const top = tree.children(span.spanId);
  for (let i = top.length - 1; i >= 0; i--) stack.push(top[i] as Span);
  while (stack.length > 0) {
    if (--budget < 0) return descendantsOnceEach(tree, span, stop);
    const c = stack.pop() as Span;
    if (stop?.(c)) continue;
    out.push(c);
    const kids = tree.children(c.spanId);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i] as Span);
  }
  return out;
}

/** `descendants` for any `SpanTree`: each span id visited once, whatever its children lists hold. */
function descendantsOnceEach(tree: SpanTree, span: Span, stop?: (s: Span) => boolean): Span[] {
  const out: Span[] = [];
  const seen = new Set<string>([span.spanId]);
  const stack: Span[] = [...tree.children(span.spanId)].reverse();
  while (stack.length > 0) {
    const c = stack.pop() as Span;
    if (seen.has(c.spanId)) continue;
    seen.add(c.spanId);
    if (stop?.(c)) continue;
    out.push(c);
    const kids = tree.children(c.spanId);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i] as Span);
  }
  return out;
}
