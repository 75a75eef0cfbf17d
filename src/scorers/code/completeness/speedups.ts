/**
 * Faster `compromise` internals that give the same results, for a compromise instance that only
 * tracejudge uses: the completeness workers' own (a worker thread has its own module instances, so
 * nothing here is seen by the main thread or by anyone else's compromise). The event loop parses with
 * compromise as it ships.
 *
 * Each speed-up keeps every input and output of the function it wraps:
 * - Match patterns: compromise parses the pattern string of every `match`/`has`/`not`/split call, every
 *   time (about a sixth of the parse time). A pattern's parse depends only on the string, the options and
 *   the model (which nothing changes on this instance), so it is kept per instance, and every call gets
 *   fresh copies of its tokens: callers mark tokens (`growLeft` sets `end` on the last one), which must not
 *   leak into the next caller's pattern.
 * - Unicode folding: `killUnicode` maps characters through a table; when no ASCII character maps to
 *   another one (checked on this instance's table), an ASCII string comes back unchanged, so it is not
 *   split and joined again.
 * - Rule candidates: a tagger sweep looks up its candidate rules by testing every key of its rule index
 *   (730 for the post-tagger) against the word and tag set of each sentence, in key order. It is handed an
 *   index with only the keys that occur in the document, in the same order, which yields the same
 *   candidates in the same order (a key no sentence has contributes nothing); the sets computed for that
 *   are handed to the sweep instead of being computed twice.
 *
 * Together 1.25–1.4× per text (1.4× on the bench's short texts in a worker, ~1.25× on README prose).
 * Not done: skipping compromise's unused grammar step in `toInfinitive`, or the chunking after a
 * sentence's last verb (exact, but 2–5 % more for a copy of compromise's verb conversion to maintain).
 *
 * Checked against the reference derivation on the identity corpus (test/scorers/completeness-identity.test.ts).
 */
import type { Nlp } from './nlp.js';

/** The parts of compromise 14's internals that are wrapped (`world.methods.one`), as far as used here. */
interface MethodsOne {
  parseMatch?: (pattern: unknown, options: unknown, world: unknown) => unknown;
  killUnicode?: (text: unknown, world: unknown) => unknown;
  cacheDoc?: (document: unknown) => unknown;
  bulkMatch?: (document: unknown, net: unknown, methods: unknown, options: unknown) => unknown;
}

interface World {
  methods: { one: MethodsOne };
  model: { one: { unicode?: Record<string, unknown> } };
}

interface Net {
  hooks: Record<string, unknown>;
}

/** Parsed patterns kept per world, at most this many each (compromise's own patterns are a few hundred). */
const MAX_PATTERNS = 2000;

/**
 * Freezes what the parsed tokens hold (nested tokens, word lists), not the tokens themselves: compromise
 * only ever sets `start`/`end` on a token (`growLeft`, `growRight`), and copies of the tokens take that.
 * Anything else writing into a kept pattern throws (compromise is strict-mode code) instead of changing
 * it for later callers.
 */
function freezeNested(tokens: unknown[]): unknown[] {
  const freeze = (value: unknown): void => {
    // Arrays and plain objects only: Sets and RegExps (word lists, `/…/` tokens) are only read.
    if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
    if (!Array.isArray(value) && Object.getPrototypeOf(value) !== Object.prototype) return;
    Object.freeze(value);
    for (const v of Object.values(value)) freeze(v);
  };
  for (const token of tokens) if (token !== null && typeof token === 'object') for (const v of Object.values(token)) freeze(v);
  return tokens;
}

/** A memo key for pattern options, or undefined when they are not plain data (then nothing is kept). */
function optionsKey(options: unknown): string | undefined {
  if (options === undefined || options === null) return '';
  if (typeof options !== 'object' || Object.getPrototypeOf(options) !== Object.prototype) return undefined;
  const entries = Object.entries(options);
  if (!entries.every(([, v]) => v === null || ['string', 'number', 'boolean'].includes(typeof v))) return undefined;
  return JSON.stringify(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function memoisePatterns(one: MethodsOne): void {
  const parse = one.parseMatch;
  if (!parse) return;
  const byWorld = new WeakMap<object, Map<string, unknown[]>>();
  one.parseMatch = (pattern, options, world) => {
    const key = optionsKey(options);
    if (typeof pattern !== 'string' || key === undefined || world === null || typeof world !== 'object') return parse(pattern, options, world);
    let memo = byWorld.get(world);
    if (!memo) byWorld.set(world, (memo = new Map<string, unknown[]>()));
    const memoKey = `${key}\u0000${pattern}`;
    let parsed = memo.get(memoKey);
    if (parsed === undefined) {
      const fresh = parse(pattern, options, world);
      if (!Array.isArray(fresh)) return fresh;
      parsed = freezeNested(fresh);
      if (memo.size < MAX_PATTERNS) memo.set(memoKey, parsed);
    }
    return parsed.map((token) => (token !== null && typeof token === 'object' ? { ...token } : token));
  };
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) return false;
  return text.length > 0;
}

function skipAsciiFolding(one: MethodsOne, table: Record<string, unknown>): void {
  const fold = one.killUnicode;
  if (!fold) return;
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    const to = table[ch];
    if (to && to !== ch) return;
  }
  one.killUnicode = (text, world) => (typeof text === 'string' && isAscii(text) ? text : fold(text, world));
}

function isNet(net: unknown): net is Net {
  if (net === null || typeof net !== 'object') return false;
  const hooks = (net as { hooks?: unknown }).hooks;
  return hooks !== null && typeof hooks === 'object' && Object.getPrototypeOf(hooks) === Object.prototype && !Object.hasOwn(hooks, '__proto__');
}

function prefilterSweeps(one: MethodsOne): void {
  const sweep = one.bulkMatch;
  const cacheDoc = one.cacheDoc;
  if (!sweep || !cacheDoc) return;
  // Key order of each rule index (the order the sweep tries keys in), computed once per index.
  const orders = new WeakMap<object, { keys: string[]; rank: Map<string, number> }>();
  // The sentence sets computed for the sweep running now, handed to its own `cacheDoc` call.
  let handOver: { document: unknown; sets: unknown } | undefined;
  one.cacheDoc = (document) => {
    if (handOver && handOver.document === document) {
      const { sets } = handOver;
      handOver = undefined;
      return sets;
    }
    return cacheDoc(document);
  };
  one.bulkMatch = (document, net, methods, options) => {
    const sets = cacheDoc(document);
    if (!isNet(net) || !Array.isArray(sets)) return sweep(document, net, methods, options);
    let order = orders.get(net.hooks);
    if (!order) {
      const keys = Object.keys(net.hooks);
      order = { keys, rank: new Map(keys.map((k, i) => [k, i])) };
      orders.set(net.hooks, order);
    }
    const present: number[] = [];
    const seen = new Set<number>();
    for (const set of sets) {
      if (!(set instanceof Set)) return sweep(document, net, methods, options);
      for (const item of set as Set<unknown>) {
        const r = typeof item === 'string' ? order.rank.get(item) : undefined;
        if (r !== undefined && !seen.has(r)) {
          seen.add(r);
          present.push(r);
        }
      }
    }
    present.sort((a, b) => a - b);
    // Inserted in key order; integer-like keys (one, "1") come first in both objects, in numeric order.
    const hooks: Record<string, unknown> = {};
    for (const r of present) {
      const key = order.keys[r] as string;
      hooks[key] = net.hooks[key];
    }
    handOver = { document, sets };
    try {
      return sweep(document, { ...net, hooks }, methods, options);
    } finally {
      handOver = undefined;
    }
  };
}

/** Wraps the internals of `world` (compromise's plugin `mutate` step). */
function install(world: World): void {
  const one = world.methods.one;
  memoisePatterns(one);
  skipAsciiFolding(one, world.model.one.unicode ?? {});
  prefilterSweeps(one);
}

/**
 * Install the speed-ups on `nlp` as a compromise plugin. Only for an instance nothing else uses (see the
 * file comment). Internals that are missing (another compromise version) are left as they are.
 */
export function installSpeedups(nlp: Nlp): void {
  // compromise's `Plugin` type declares `mutate` with the wrong signature (it is called with the world).
  const plugin = { mutate: (world: World) => install(world) };
  nlp.extend(plugin as unknown as Parameters<Nlp['extend']>[0]);
}
