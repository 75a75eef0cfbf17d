/**
 * What an answer is checked against. Each tool result is walked as JSON key/value pairs (a string that
 * holds JSON is parsed first), so every value keeps its slot: the tool, the key path, and the object it
 * sits in. Each value becomes facts of the same kinds as the answer's specifics; a number takes its unit
 * from its key (`temperatureC`, `amountEur`, `warrantyMonths`), a boolean its status (`available: false`).
 * Retrieved documents are prose: their specifics are facts without a key.
 */
import {
  BOOLEAN_KEY_STATUS,
  CENT_KEYS,
  ENTITY_CLASS_OF,
  KEY_UNITS,
  STATUS_TERMS,
  STOP_WORDS,
  type UnitInfo,
} from './vocabulary.js';
import { extractSpecifics, singular, singularOfLower, type ExtractOptions, type NumberSpecific, type Specific } from './specifics.js';

/** Where a fact sits. */
export interface Slot {
  /** Tool name, or `document N` for a retrieved document. */
  source: string;
  /** Key path inside the result, e.g. `order.shipping.carrier` (empty for a document). */
  path: string;
  /** Words of the last key, lowercase and singular (`temperatureC` → temperature, c). */
  keyWords: readonly string[];
  /** The object the value sits in: facts of one group describe one thing. */
  group: string;
  /** The value as JSON, for reasons. */
  shown: string;
  /** True for a status held by a string value: one slot, one state (shipped excludes cancelled). */
  exclusive: boolean;
}

export interface Fact {
  specific: Specific;
  slot: Slot;
}

/** A yes/no slot whose key is not a known status (`breakfastIncluded`, `coversAccidentalDamage`). */
export interface BooleanSlot {
  slot: Slot;
  value: boolean;
  /** Stems of the key's meaningful words (`breakfast`, `includ`): a claim naming them all is about the slot. */
  stems: readonly string[];
}

export interface GroundingSources {
  facts: Fact[];
  booleans: BooleanSlot[];
  /** Keys whose value is `null` (`refund: null`): nothing of that kind has happened yet. */
  nulls: BooleanSlot[];
  /** Content words of the values only (not keys, not tool names): what the tools actually said. */
  valueTerms: ReadonlySet<string>;
  /** Every value and key, lowercase, one per line: for "does any source mention it". */
  text: string;
  /** The same with ids normalised (uppercase, no separators). */
  idText: string;
  /** Content words of each group and of the objects around it, plus the tool name and arguments. */
  groupTerms: ReadonlyMap<string, ReadonlySet<string>>;
  /** Content words of everything. */
  terms: ReadonlySet<string>;
  /** Content words of each group's own values (not keys, not parents): what tells one record of a list from another. */
  recordTerms: ReadonlyMap<string, ReadonlySet<string>>;
}

/** One tool result as the scorer reads it. */
export interface ToolSource {
  toolName: string;
  args?: unknown;
  result: unknown;
}

/** Lowercase content words of a text (no stop words, singular; numbers kept). */
export function contentWords(text: string): string[] {
  return contentWordsOfLower(text.toLowerCase());
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** Whether code point `cp` is a letter or a digit (`[\p{L}\p{N}]`; a lone surrogate is neither). */
export function letterOrDigit(cp: number): boolean {
  if (cp < 128) return isDigit(cp) || ((cp | 32) >= 97 && (cp | 32) <= 122);
  return LETTER_OR_DIGIT.test(String.fromCodePoint(cp));
}

/**
 * `contentWords` of a text already lowercase. Words are the runs of letters and digits (`[\p{L}\p{N}]+`,
 * code point by code point), read by hand.
 */
function contentWordsOfLower(lower: string): string[] {
  const out: string[] = [];
  let start = -1;
  let ascii = true;
  for (let i = 0; i < lower.length; ) {
    const c = lower.charCodeAt(i);
    let size = 1;
    let inWord: boolean;
    if (c < 128) inWord = letterOrDigit(c);
    else {
      const cp = lower.codePointAt(i) as number;
      size = cp > 0xffff ? 2 : 1;
      inWord = letterOrDigit(cp);
    }
    if (inWord) {
      if (start < 0) {
        start = i;
        ascii = true;
      }
      if (c >= 128) ascii = false;
    } else if (start >= 0) {
      // A one-unit word is never kept: not even cut out.
      if (i - start >= 2) keepWord(lower.slice(start, i), ascii, out);
      start = -1;
    }
    i += size;
  }
  if (start >= 0) keepWord(lower.slice(start), ascii, out);
  return out;
}

/** One word: kept unless short (and no digit) or a stop word; singular unless it starts with a digit. */
function keepWord(raw: string, ascii: boolean, out: string[]): void {
  if (raw.length < 2 || STOP_WORDS.has(raw)) return;
  if (raw.length < 3 && !isDigit(raw.charCodeAt(0)) && !isDigit(raw.charCodeAt(1))) return;
  // An ASCII word is already lowercase; `singular` lowercases the others again, as it always has.
  out.push(isDigit(raw.charCodeAt(0)) ? raw : ascii ? singularOfLower(raw) : singular(raw));
}

/** A crude stem for matching key words with claim words: `included` / `include` → `includ`, `covers` → `cover`. */
export function stem(word: string): string {
  const w = word.toLowerCase();
  if (w.length <= 4) return w;
  return w.replace(/(?:ing|ed|es|ly|s|e)$/u, '');
}

/** Words of a null key that say how, not what (`postmortem_url`, `refund_id`, `shipped_at`). */
const NULL_GENERIC: ReadonlySet<string> = new Set(['url', 'uri', 'link', 'ref', 'reference', 'number', 'date', 'time', 'timestamp', 'amount', 'reason', 'note', 'notes', 'name', 'email', 'phone', 'code', 'status', 'type', 'last', 'next', 'current']);
const GENERIC_KEY_WORDS: ReadonlySet<string> = new Set(['is', 'has', 'have', 'can', 'does', 'do', 'should', 'flag', 'bool', 'enabled', 'value']);

/** `temperatureC` → [temperature, c]; `refund_window_days` → [refund, window, day]. */
export function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Key names repeat across runs (one schema per tool): their singular words, cached, at most this many keys. */
const KEY_CACHE_MAX = 4096;
const keyCache = new Map<string, readonly string[]>();

/** `keyWords(key).map(singular)`, cached; the array is shared, never mutated. */
function singularKeyWords(key: string): readonly string[] {
  let words = keyCache.get(key);
  if (words === undefined) {
    if (keyCache.size >= KEY_CACHE_MAX) keyCache.clear();
    words = keyWords(key).map(singular);
    keyCache.set(key, words);
  }
  return words;
}

/**
 * The unit a numeric key names: its last word that names one (`refundWindowDays` → days), the word after a
 * `per` left out (`excess_rate_cents_per_km` and `charge_per_liter_cents` are money, `km_per_day` a distance).
 */
export function withoutDenominator(words: readonly string[]): readonly string[] {
  const per = words.indexOf('per');
  const kept = per < 0 ? words : [...words.slice(0, per), ...words.slice(per + 2)];
  // A unit after a number of the key names a window, not the value (`total_expiring_next_180_days` is miles).
  return kept.some((w, i) => i > 0 && /^\d+$/.test(kept[i - 1] as string)) ? kept.filter((w, i) => !(i > 0 && /^\d+$/.test(kept[i - 1] as string))) : kept;
}

function keyUnit(words: readonly string[]): { info?: UnitInfo; cents: boolean } {
  let info: UnitInfo | undefined;
  let cents = false;
  for (const w of withoutDenominator(words)) {
    const hit = KEY_UNITS[w] ?? KEY_UNITS[`${w}s`];
    if (CENT_KEYS.has(w)) cents = true;
    if (hit && !(info && hit.unit === '' && info.dim === hit.dim)) info = hit;
  }
  return { info, cents };
}

function booleanStatus(words: readonly string[]): { family: string; canonical: string } | undefined {
  for (let i = 0; i < words.length; i++) {
    const pair = i + 1 < words.length ? BOOLEAN_KEY_STATUS[`${words[i]} ${words[i + 1]}`] : undefined;
    if (pair) return pair;
  }
  for (let i = words.length - 1; i >= 0; i--) {
    const one = BOOLEAN_KEY_STATUS[words[i] as string];
    if (one) return one;
  }
  return undefined;
}

/** A string that holds a JSON object or array, parsed; undefined otherwise. */
export function parseJsonString(s: string): unknown {
  const t = s.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return undefined;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Bound on the string values parsed for specifics per run (a huge tool result costs at most this much). */
const MAX_PARSED_LEAVES = 2000;

class Builder {
  leaves = 0;
  readonly facts: Fact[] = [];
  readonly booleans: BooleanSlot[] = [];
  readonly nulls: BooleanSlot[] = [];
  readonly values = new Set<string>();
  readonly lines: string[] = [];
  readonly groupOwn = new Map<string, Set<string>>();
  readonly groupParent = new Map<string, string | undefined>();
  readonly recordOwn = new Map<string, Set<string>>();
  /** The key path of the value being walked (pushed and popped as the walk goes down and up). */
  readonly #path: string[] = [];
  /** How string values are read for specifics. */
  readonly #extract: ExtractOptions;
  /** `termsOnly`: collect words only (no facts, no booleans), for checks that read `valueTerms` and `terms`. */
  constructor(
    private readonly ref: string | undefined,
    private readonly termsOnly = false,
  ) {
    this.#extract = { source: true, ...(ref ? { ref } : {}) };
  }

  #own(group: string): Set<string> {
    let s = this.groupOwn.get(group);
    if (!s) this.groupOwn.set(group, (s = new Set()));
    return s;
  }

  group(id: string, parent: string | undefined, words: Iterable<string>): void {
    this.groupParent.set(id, parent);
    const own = this.#own(id);
    for (const w of words) own.add(w);
  }

  /** Walk one tool result; `group` is the tool's group. */
  walkResult(value: unknown, source: string, group: string): void {
    this.#path.length = 0;
    this.#walk(value, source, group, 0);
  }

  /** Walk one value at the current path; `group` is the object it sits in. */
  #walk(value: unknown, source: string, group: string, depth: number): void {
    if (value === null && !this.termsOnly && this.#path.length > 0) this.#null(source, group);
    if (depth > 12 || value === null || value === undefined) return;
    if (typeof value === 'string') {
      const parsed = parseJsonString(value);
      if (parsed !== undefined) return this.#walk(parsed, source, group, depth + 1);
      return this.#leaf(value, source, group);
    }
    if (typeof value === 'number' || typeof value === 'boolean') return this.#leaf(value, source, group);
    const path = this.#path;
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        const child = `${group}[${i}]`;
        this.group(child, group, []);
        path.push(String(i));
        this.#walk(item, source, isObject(item) || Array.isArray(item) ? child : group, depth + 1);
        path.pop();
      });
      return;
    }
    if (isObject(value)) {
      const here = path.length === 0 ? group : `${group}.${path[path.length - 1] ?? ''}`;
      if (here !== group) this.group(here, group, []);
      let own: Set<string> | undefined;
      for (const [k, v] of Object.entries(value)) {
        this.lines.push(k.toLowerCase());
        for (const w of singularKeyWords(k)) (own ??= this.#own(here)).add(w);
        path.push(k);
        this.#walk(v, source, here, depth + 1);
        path.pop();
      }
    }
  }

  /** A key whose value is null: a yes/no slot that says "not yet" (its generic words left out). */
  #null(source: string, group: string): void {
    const key = this.#key();
    const stems = keyWords(key).filter((w) => w.length >= 3 && !GENERIC_KEY_WORDS.has(w) && !NULL_GENERIC.has(w)).map(stem);
    if (stems.length === 0) return;
    const path = this.#path.join('.');
    this.nulls.push({ slot: { source, path, keyWords: singularKeyWords(key), group, shown: 'null', exclusive: false }, value: false, stems });
  }

  /** The last key of the path that is not an array index. */
  #key(): string {
    const path = this.#path;
    for (let i = path.length - 1; i >= 0; i--) if (!/^\d+$/.test(path[i] as string)) return path[i] as string;
    return '';
  }

  #leaf(value: string | number | boolean, source: string, group: string): void {
    const key = this.#key();
    const words = singularKeyWords(key);
    // One path and one shown value for every fact of this leaf.
    let where: { path: string; shown: string } | undefined;
    const slot = (exclusive = false): Slot => {
      where ??= { path: this.#path.join('.'), shown: JSON.stringify(value) };
      return { source, path: where.path, keyWords: words, group, shown: where.shown, exclusive };
    };
    const add = (specific: Specific, exclusive = false): void => {
      this.facts.push({ specific, slot: slot(exclusive) });
    };
    const text = String(value);
    const lower = text.toLowerCase();
    this.lines.push(lower);
    if (typeof value !== 'boolean') {
      let own: Set<string> | undefined;
      let record: Set<string> | undefined;
      for (const w of contentWordsOfLower(lower)) {
        (own ??= this.#own(group)).add(w);
        if (record === undefined) {
          record = this.recordOwn.get(group);
          if (record === undefined) this.recordOwn.set(group, (record = new Set()));
        }
        record.add(w);
        this.values.add(w);
      }
    }
    if (this.termsOnly) return;
    if (typeof value === 'boolean') {
      const st = booleanStatus(words);
      if (st) add({ kind: 'status', text, claim: 0, at: 0, terms: [{ ...st, negative: false }], negated: !value });
      else {
        const stems = keyWords(key).filter((w) => w.length >= 3 && !GENERIC_KEY_WORDS.has(w)).map(stem);
        if (stems.length > 0) this.booleans.push({ slot: slot(), value, stems });
      }
      return;
    }
    if (typeof value === 'number') {
      this.#number(value, words, text, add);
      return;
    }
    // A string value: a whole-value status, a short name, and whatever specifics it holds.
    const norm = text.trim().toLowerCase().replace(/[\s_-]+/g, ' ');
    const terms = STATUS_TERMS.get(norm) ?? modifiedStatus(norm);
    if (terms) add({ kind: 'status', text, claim: 0, at: 0, terms, negated: false }, true);
    const wordCount = countWords(norm);
    // Short values without digits hold no specifics beyond the whole-value name and status (the common case).
    const worth = /\d/.test(text) || wordCount > 3;
    const specifics = worth && this.leaves++ < MAX_PARSED_LEAVES ? extractSpecifics(text, this.#extract).specifics : [];
    if (specifics.length > 0) {
      const { info, cents } = keyUnit(words);
      for (const s of specifics) {
        if (terms && s.kind === 'status') continue;
        if (s.kind === 'number' && s.dim === undefined && info) {
          add({ ...s, dim: info.dim, value: cents ? s.value / 100 : s.value * (info.dim === 'duration' ? info.factor : 1), factor: info.factor, ...(info.unit ? { unit: info.unit } : {}) });
          continue;
        }
        add(s, s.kind === 'status');
      }
    }
    if (!terms && wordCount <= 5 && /\p{L}/u.test(norm) && !specifics.some((s) => s.kind === 'entity' && s.norm === norm)) {
      const cls = ENTITY_CLASS_OF.get(norm);
      add(cls ? { kind: 'entity', text, claim: 0, at: 0, norm, weak: false, cls } : { kind: 'entity', text, claim: 0, at: 0, norm, weak: false });
    }
  }

  #number(value: number, words: readonly string[], text: string, add: (s: Specific) => void): void {
    const { info, cents } = keyUnit(words);
    const v = cents ? value / 100 : value;
    const decimals = text.includes('.') ? text.length - text.indexOf('.') - 1 : 0;
    // The facts' keys in the order of `{ kind, text, claim, at, decimals, approx, value, dim, factor, unit | noun }`.
    const number = (n: number, dim: NumberSpecific['dim'], factor: number): NumberSpecific => ({ kind: 'number', text, claim: 0, at: 0, decimals, approx: false, value: n, dim, factor });
    if (!info) {
      const st = booleanStatus(words);
      if (st && st.family === 'availability') add({ kind: 'status', text, claim: 0, at: 0, terms: [{ ...st, negative: false }], negated: value <= 0 });
      const count = number(v, 'count', 1);
      if (words.length > 0) count.noun = words[words.length - 1];
      add(count);
      return;
    }
    const withUnit = (n: NumberSpecific): NumberSpecific => {
      if (info.unit !== '') n.unit = info.unit;
      return n;
    };
    if (info.dim === 'percent' && v > 0 && v <= 1) add(withUnit(number(v * 100, 'percent', 1)));
    add(withUnit(number(info.dim === 'duration' ? v * info.factor : v, info.dim, info.dim === 'duration' ? info.factor : 1)));
  }

  document(text: string, name: string): void {
    const group = `${name}`;
    const lower = text.toLowerCase();
    const words = contentWordsOfLower(lower);
    this.group(group, undefined, words);
    for (const w of words) this.values.add(w);
    this.lines.push(lower);
    if (this.termsOnly) return;
    const { specifics } = extractSpecifics(text, this.#extract);
    for (const s of specifics) this.facts.push({ specific: s, slot: { source: name, path: '', keyWords: [], group, shown: JSON.stringify(s.text), exclusive: false } });
  }

  build(): GroundingSources {
    const groupTerms = new Map<string, Set<string>>();
    const all = new Set<string>();
    for (const id of this.groupOwn.keys()) {
      const terms = new Set<string>();
      for (let g: string | undefined = id, n = 0; g !== undefined && n < 16; g = this.groupParent.get(g), n++) {
        for (const w of this.groupOwn.get(g) ?? []) terms.add(w);
      }
      groupTerms.set(id, terms);
      for (const w of terms) all.add(w);
    }
    const text = this.lines.join('\n');
    return { facts: this.facts, booleans: this.booleans, nulls: this.nulls, valueTerms: this.values, text, idText: text.toUpperCase().replace(/[^A-Z0-9\n]/g, ''), groupTerms, terms: all, recordTerms: this.recordOwn };
  }
}

/** An enum with a modifier (`TEMPORARILY_CLOSED`, `PARTIALLY_REFUNDED`): the status its last word names. */
function modifiedStatus(norm: string): ReturnType<typeof STATUS_TERMS.get> {
  const words = norm.split(' ');
  if (words.length < 2 || words.length > 3) return undefined;
  return STATUS_TERMS.get(words[words.length - 1] as string);
}

/** `norm.split(' ').length`. */
function countWords(norm: string): number {
  let n = 1;
  for (let i = norm.indexOf(' '); i >= 0; i = norm.indexOf(' ', i + 1)) n++;
  return n;
}

/**
 * Build the sources of a run: its tool results (walked as JSON) and its documents (retrieved, then static).
 *
 * @example
 * ```ts
 * const s = groundingSources([{ toolName: 'lookupOrder', result: { status: 'shipped', carrier: 'DHL' } }], [], '2026-01-01');
 * s.facts.map((f) => f.slot.path); // ['status', 'carrier']
 * ```
 */
export function groundingSources(tools: readonly ToolSource[], documents: readonly string[], ref?: string): GroundingSources {
  return build(new Builder(ref), tools, documents);
}

/**
 * The words of the sources only: `valueTerms` and `terms` exactly as `groundingSources` gives them, without
 * reading specifics (no facts, no booleans). For checks that only ask whether the answer shares words.
 */
export function groundingTerms(tools: readonly ToolSource[], documents: readonly string[]): Pick<GroundingSources, 'valueTerms' | 'terms'> {
  const { valueTerms, terms } = build(new Builder(undefined, true), tools, documents);
  return { valueTerms, terms };
}

function build(b: Builder, tools: readonly ToolSource[], documents: readonly string[]): GroundingSources {
  tools.forEach((t, i) => {
    const root = `${t.toolName}#${i}`;
    const words = contentWords(t.toolName.replace(/([a-z])([A-Z])/g, '$1 $2'));
    if (isObject(t.args)) {
      for (const v of Object.values(t.args)) if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') for (const w of contentWords(String(v))) words.push(w);
    }
    b.group(root, undefined, words);
    b.walkResult(t.result, t.toolName, root);
  });
  documents.forEach((d, i) => b.document(d, `document ${i + 1}`));
  return b.build();
}
