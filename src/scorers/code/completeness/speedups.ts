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
 * - Rule candidates: a tagger sweep (`bulkMatch`) looks up its candidate rules by testing every key of its
 *   rule index (730 for the post-tagger) against the word and tag set of each sentence, in key order, then
 *   de-duplicates them through an object keyed by pattern and filters them in three passes of closures,
 *   each test a lookup of a string in the sentence's set. Here the index is read once into numbers (each
 *   distinct pattern, and each word or tag a rule tests); a sweep visits only the keys a sentence has, in
 *   the same order, marks the sentence's words and tags in an array, de-duplicates by pattern number
 *   (keeping compromise's quirk: a `__proto__` pattern is never a duplicate there) and filters each
 *   candidate in one loop with the same tests in the same order. Each sentence gets the same candidates in
 *   the same order, and the matches then run as compromise runs them.
 * - Views: compromise makes a view (~250 per short text) through `update` and `toView` with a constructor
 *   that defines five properties one `Object.defineProperty` at a time. Those two methods here make the
 *   same object (same prototype, same values, same property order) by plain assignment, so the five
 *   properties are enumerable instead of hidden; nothing in compromise lists a view's own properties
 *   (views are read by name). Subclasses with their own `update` (nouns, verbs, …) keep it.
 *
 * Per text of the bench's runs, on one thread: 2.57 ms with compromise as it ships, 2.02 ms with the first
 * three (patterns, folding, keys present only) and 1.25 ms with all of them (medians of three interleaved
 * processes); two workers parse 1.45× as many texts per second as with the first three.
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

/** A rule of a sweep's index (compromise's `buildNet`), as far as the sweep reads it before matching. */
interface Rule {
  match: string;
  needs: readonly string[];
  wants: readonly string[];
  minWant: number;
  minWords: number;
  ifNo?: readonly string[];
  unTag?: unknown;
}

interface Net {
  hooks: Record<string, unknown>;
  always: unknown;
}

/** compromise's matcher on one sentence (`methods.one.match`): the pointers of the matches. */
type MatchOne = (docs: unknown[], rule: Rule) => { ptrs: number[][] };

/** A compromise view, as far as `update` and `toView` touch it. */
interface ViewLike {
  document: unknown[][];
  world: unknown;
  _groups: unknown;
  _cache: unknown[] | null;
  viewType: string;
  ptrs: unknown;
  pointer: unknown;
}

type ViewClass = { prototype: { update: (pointer: unknown) => unknown; toView: (pointer?: unknown) => unknown } };

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
  if (hooks === null || typeof hooks !== 'object' || Object.getPrototypeOf(hooks) !== Object.prototype || Object.hasOwn(hooks, '__proto__')) return false;
  return Array.isArray((net as { always?: unknown }).always) && Object.values(hooks).every((list) => Array.isArray(list) && list.every(isRule)) && (net as { always: unknown[] }).always.every(isRule);
}

function isRule(rule: unknown): rule is Rule {
  if (rule === null || typeof rule !== 'object') return false;
  const r = rule as Partial<Rule>;
  const strings = (list: unknown): boolean => Array.isArray(list) && list.every((x) => typeof x === 'string');
  return typeof r.match === 'string' && strings(r.needs) && strings(r.wants) && typeof r.minWant === 'number' && typeof r.minWords === 'number' && (r.ifNo === undefined || strings(r.ifNo));
}

/**
 * A rule with its tests as numbers: its pattern (one number per distinct `match`; -1 for `__proto__`) and
 * the words and tags it needs, must not have and wants, as numbers of the index's vocabulary.
 */
interface Check {
  rule: Rule;
  pattern: number;
  needs: Int32Array;
  noes: Int32Array;
  wants: Int32Array;
  minWant: number;
  minWords: number;
}

/** A rule index checked once (`isNet`), in the order compromise's sweep tries its keys. */
interface Index {
  rank: Map<string, number>;
  /** Per key (by rank), its rules. */
  checks: Check[][];
  always: Rule[];
  /** Numbers of the words and tags the rules test. */
  vocabulary: Map<string, number>;
  /** Pattern `p` was taken for the sentence being swept when `taken[p] === round`. */
  taken: Uint32Array;
  /** Vocabulary entry `v` is in that sentence's set when `present[v] === round`. */
  present: Uint32Array;
  round: number;
}

function buildIndex(net: Net): Index {
  const keys = Object.keys(net.hooks);
  const patterns = new Map<string, number>();
  const vocabulary = new Map<string, number>();
  const numbers = (words: readonly string[] | undefined): Int32Array =>
    Int32Array.from(words ?? [], (w) => {
      let v = vocabulary.get(w);
      if (v === undefined) vocabulary.set(w, (v = vocabulary.size));
      return v;
    });
  const checks = keys.map((k) =>
    (net.hooks[k] as Rule[]).map((rule): Check => {
      let pattern = rule.match === '__proto__' ? -1 : patterns.get(rule.match);
      if (pattern === undefined) patterns.set(rule.match, (pattern = patterns.size));
      return { rule, pattern, needs: numbers(rule.needs), noes: numbers(rule.ifNo), wants: numbers(rule.wants), minWant: rule.minWant, minWords: rule.minWords };
    }),
  );
  return {
    rank: new Map(keys.map((k, i) => [k, i])),
    checks,
    always: net.always as Rule[],
    vocabulary,
    taken: new Uint32Array(patterns.size),
    present: new Uint32Array(vocabulary.size),
    round: 0,
  };
}

/**
 * compromise's candidate filter (`trimDown` then `tooSmall`): the same tests in the same order, on the
 * sentence's set as marked in `present` for `round`.
 */
function keeps(check: Check, present: Uint32Array, round: number, words: number): boolean {
  for (const need of check.needs) if (present[need] !== round) return false;
  for (const no of check.noes) if (present[no] === round) return false;
  if (check.wants.length > 0) {
    let found = 0;
    for (const want of check.wants) if (present[want] === round) found++;
    if (found < check.minWant) return false;
  }
  return words >= check.minWords;
}

function fasterSweeps(one: MethodsOne): void {
  const sweep = one.bulkMatch;
  const cacheDoc = one.cacheDoc;
  if (!sweep || !cacheDoc) return;
  // Per rule index: checked once, its key order and lists kept (compromise never changes a built net).
  const indexes = new WeakMap<object, Index | false>();
  const indexOf = (net: unknown): Index | undefined => {
    if (net === null || typeof net !== 'object') return undefined;
    let index = indexes.get(net);
    if (index === undefined) {
      index = isNet(net) ? buildIndex(net) : false;
      indexes.set(net, index);
    }
    return index || undefined;
  };
  one.bulkMatch = (document, net, methods, options) => {
    const index = indexOf(net);
    const match = (methods as { one?: { match?: unknown } } | undefined)?.one?.match;
    if (!index || !Array.isArray(document) || typeof match !== 'function') return sweep(document, net, methods, options);
    const sets = cacheDoc(document);
    if (!Array.isArray(sets) || sets.length !== document.length || !sets.every((set) => set instanceof Set)) return sweep(document, net, methods, options);
    const matchOne = match as MatchOne;
    const matchOnly = (options as { matchOne?: unknown } | undefined)?.matchOne === true;
    const results: Array<Record<string, unknown>> = [];
    for (let n = 0; n < document.length; n++) {
      const haves = sets[n] as Set<unknown>;
      const sentence = document[n] as unknown[];
      if (index.round === 0xffffffff) {
        index.taken.fill(0);
        index.present.fill(0);
        index.round = 0;
      }
      const round = ++index.round;
      const { taken, present } = index;
      // The keys this sentence has, in key order (getHooks tests every key of the index in that order), and
      // the words and tags of the set that rules test.
      const ranks: number[] = [];
      for (const item of haves) {
        if (typeof item !== 'string') continue;
        const r = index.rank.get(item);
        if (r !== undefined) ranks.push(r);
        const v = index.vocabulary.get(item);
        if (v !== undefined) present[v] = round;
      }
      ranks.sort((a, b) => a - b);
      // Their rules, first of each pattern kept (getHooks' `already[m.match]`, where `__proto__` is never
      // a boolean, so never a duplicate), then filtered; the rules every sentence tries come after.
      const todo: Rule[] = [];
      for (const r of ranks) {
        for (const check of index.checks[r] as Check[]) {
          if (check.pattern >= 0) {
            if (taken[check.pattern] === round) continue;
            taken[check.pattern] = round;
          }
          if (keeps(check, present, round, sentence.length)) todo.push(check.rule);
        }
      }
      for (const rule of index.always) if (sentence.length >= rule.minWords) todo.push(rule);
      // compromise's runMatch.
      for (const rule of todo) {
        const found = matchOne([sentence], rule);
        if (found.ptrs.length === 0) continue;
        for (const ptr of found.ptrs) {
          ptr[0] = n;
          const result: Record<string, unknown> = Object.assign({}, rule as unknown as Record<string, unknown>, { pointer: ptr });
          if (rule.unTag !== undefined) result.unTag = rule.unTag;
          results.push(result);
        }
        if (matchOnly) return [results[0]];
      }
    }
    return results;
  };
}

/**
 * `update` and `toView` of compromise's base view, making the same view without `Object.defineProperty`
 * (see the file comment). `world` is the instance's world, as the view constructor's.
 */
function fasterViews(View: ViewClass, world: unknown): void {
  const proto = View.prototype;
  if (typeof proto.update !== 'function' || typeof proto.toView !== 'function') return;
  // The view constructor's properties in its order (`document`, `world`, `_groups`, `_cache`, `viewType`,
  // then `ptrs`), on the view prototype.
  function PlainView(this: ViewLike, document: unknown[][], pointer: unknown): void {
    this.document = document;
    this.world = world;
    this._groups = {};
    this._cache = null;
    this.viewType = 'View';
    this.ptrs = pointer;
  }
  PlainView.prototype = proto;
  const make = (document: unknown[][], pointer: unknown): ViewLike => new (PlainView as unknown as new (d: unknown[][], p: unknown) => ViewLike)(document, pointer);
  proto.update = function (this: ViewLike, pointer: unknown) {
    const view = make(this.document, pointer);
    // compromise's `update`: the sentence cache goes along for whole sentences.
    if (this._cache && Array.isArray(pointer) && pointer.length > 0) {
      const cache: unknown[] = [];
      const from = this._cache;
      (pointer as number[][]).forEach((ptr, i) => {
        const [n, start, end] = ptr as [number, number, number];
        if (ptr.length === 1) cache[i] = from[n];
        else if (start === 0 && (this.document[n] as unknown[]).length === end) cache[i] = from[n];
      });
      if (cache.length > 0) view._cache = cache;
    }
    view.world = this.world;
    return view;
  };
  proto.toView = function (this: ViewLike, pointer?: unknown) {
    return make(this.document, pointer || this.pointer);
  };
}

/** Wraps the internals of `world` (compromise's plugin `mutate` step). */
function install(world: World): void {
  const one = world.methods.one;
  memoisePatterns(one);
  skipAsciiFolding(one, world.model.one.unicode ?? {});
  fasterSweeps(one);
}

/**
 * Install the speed-ups on `nlp` as a compromise plugin. Only for an instance nothing else uses (see the
 * file comment). Internals that are missing (another compromise version) are left as they are.
 */
export function installSpeedups(nlp: Nlp): void {
  // compromise's `Plugin` type declares `mutate` with the wrong signature (it is called with the world).
  const plugin = { mutate: (world: World) => install(world), api: (View: ViewClass) => fasterViews(View, nlp.world()) };
  nlp.extend(plugin as unknown as Parameters<Nlp['extend']>[0]);
}
