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
import { extractSpecifics, singular, type Specific } from './specifics.js';

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
}

/** One tool result as the scorer reads it. */
export interface ToolSource {
  toolName: string;
  args?: unknown;
  result: unknown;
}

/** Text with no character beyond U+007F. */
const ASCII = /^[^\u0080-\u{10ffff}]*$/u;

/** Lowercase content words of a text (no stop words, singular; numbers kept). */
export function contentWords(text: string): string[] {
  const out: string[] = [];
  // ASCII text: letters and digits are [a-z0-9] after lowercasing, and the plain split is much cheaper.
  const lower = text.toLowerCase();
  for (const raw of ASCII.test(lower) ? lower.split(/[^a-z0-9]+/) : lower.split(/[^\p{L}\p{N}]+/u)) {
    if (raw.length < 2 || STOP_WORDS.has(raw)) continue;
    if (raw.length < 3 && !/\d/.test(raw)) continue;
    out.push(/^\d/.test(raw) ? raw : singular(raw));
  }
  return out;
}

/** A crude stem for matching key words with claim words: `included` / `include` → `includ`, `covers` → `cover`. */
export function stem(word: string): string {
  const w = word.toLowerCase();
  if (w.length <= 4) return w;
  return w.replace(/(?:ing|ed|es|s|e)$/u, '');
}

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

/** The unit a numeric key names: its last word that names one (`refundWindowDays` → days). */
function keyUnit(words: readonly string[]): { info?: UnitInfo; cents: boolean } {
  let info: UnitInfo | undefined;
  let cents = false;
  for (const w of words) {
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

function parseJsonString(s: string): unknown {
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
  readonly values = new Set<string>();
  readonly lines: string[] = [];
  readonly groupOwn = new Map<string, Set<string>>();
  readonly groupParent = new Map<string, string | undefined>();
  /** `termsOnly`: collect words only (no facts, no booleans), for checks that read `valueTerms` and `terms`. */
  constructor(
    private readonly ref: string | undefined,
    private readonly termsOnly = false,
  ) {}

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

  /** Walk one value; `group` is the object it sits in. */
  walk(value: unknown, source: string, path: string[], group: string, depth = 0): void {
    if (depth > 12 || value === null || value === undefined) return;
    if (typeof value === 'string') {
      const parsed = parseJsonString(value);
      if (parsed !== undefined) return this.walk(parsed, source, path, group, depth + 1);
      return this.#leaf(value, source, path, group);
    }
    if (typeof value === 'number' || typeof value === 'boolean') return this.#leaf(value, source, path, group);
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        const child = `${group}[${i}]`;
        this.group(child, group, []);
        this.walk(item, source, [...path, String(i)], isObject(item) || Array.isArray(item) ? child : group, depth + 1);
      });
      return;
    }
    if (isObject(value)) {
      const here = path.length === 0 ? group : `${group}.${path[path.length - 1] ?? ''}`;
      if (here !== group) this.group(here, group, []);
      for (const [k, v] of Object.entries(value)) {
        this.lines.push(k.toLowerCase());
        for (const w of singularKeyWords(k)) this.#own(here).add(w);
        this.walk(v, source, [...path, k], here, depth + 1);
      }
    }
  }

  #leaf(value: string | number | boolean, source: string, path: string[], group: string): void {
    const key = [...path].reverse().find((p) => !/^\d+$/.test(p)) ?? '';
    const words = singularKeyWords(key);
    const slot = (exclusive = false): Slot => ({ source, path: path.join('.'), keyWords: words, group, shown: JSON.stringify(value), exclusive });
    const add = (specific: Specific, exclusive = false): void => {
      this.facts.push({ specific, slot: slot(exclusive) });
    };
    const text = String(value);
    this.lines.push(text.toLowerCase());
    if (typeof value !== 'boolean') {
      for (const w of contentWords(text)) {
        this.#own(group).add(w);
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
    const terms = STATUS_TERMS.get(norm);
    if (terms) add({ kind: 'status', text, claim: 0, at: 0, terms, negated: false }, true);
    // Short values without digits hold no specifics beyond the whole-value name and status (the common case).
    const worth = /\d/.test(text) || norm.split(' ').length > 3;
    const { specifics } = worth && this.leaves++ < MAX_PARSED_LEAVES ? extractSpecifics(text, { source: true, ...(this.ref ? { ref: this.ref } : {}) }) : { specifics: [] };
    const { info, cents } = keyUnit(words);
    for (const s of specifics) {
      if (terms && s.kind === 'status') continue;
      if (s.kind === 'number' && s.dim === undefined && info) {
        add({ ...s, dim: info.dim, value: cents ? s.value / 100 : s.value * (info.dim === 'duration' ? info.factor : 1), factor: info.factor, ...(info.unit ? { unit: info.unit } : {}) });
        continue;
      }
      add(s, s.kind === 'status');
    }
    const wordCount = norm.split(' ').length;
    if (!terms && wordCount <= 5 && /\p{L}/u.test(norm) && !specifics.some((s) => s.kind === 'entity' && s.norm === norm)) {
      const cls = ENTITY_CLASS_OF.get(norm);
      add({ kind: 'entity', text, claim: 0, at: 0, norm, weak: false, ...(cls ? { cls } : {}) });
    }
  }

  #number(value: number, words: readonly string[], text: string, add: (s: Specific) => void): void {
    const { info, cents } = keyUnit(words);
    const v = cents ? value / 100 : value;
    const decimals = text.includes('.') ? text.length - text.indexOf('.') - 1 : 0;
    const base = { kind: 'number' as const, text, claim: 0, at: 0, decimals, approx: false };
    if (!info) {
      const st = booleanStatus(words);
      if (st && st.family === 'availability') add({ kind: 'status', text, claim: 0, at: 0, terms: [{ ...st, negative: false }], negated: value <= 0 });
      add({ ...base, value: v, dim: 'count', factor: 1, ...(words.length > 0 ? { noun: words[words.length - 1] as string } : {}) });
      return;
    }
    const unit = info.unit === '' ? {} : { unit: info.unit };
    if (info.dim === 'percent' && v > 0 && v <= 1) add({ ...base, value: v * 100, dim: 'percent', factor: 1, ...unit });
    add({ ...base, value: info.dim === 'duration' ? v * info.factor : v, dim: info.dim, factor: info.dim === 'duration' ? info.factor : 1, ...unit });
  }

  document(text: string, name: string): void {
    const group = `${name}`;
    this.group(group, undefined, contentWords(text));
    for (const w of contentWords(text)) this.values.add(w);
    this.lines.push(text.toLowerCase());
    if (this.termsOnly) return;
    const { specifics } = extractSpecifics(text, { source: true, ...(this.ref ? { ref: this.ref } : {}) });
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
    return { facts: this.facts, booleans: this.booleans, valueTerms: this.values, text, idText: text.toUpperCase().replace(/[^A-Z0-9\n]/g, ''), groupTerms, terms: all };
  }
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
    const argWords = isObject(t.args) ? Object.values(t.args).flatMap((v) => (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? contentWords(String(v)) : [])) : [];
    b.group(root, undefined, [...contentWords(t.toolName.replace(/([a-z])([A-Z])/g, '$1 $2')), ...argWords]);
    b.walk(t.result, t.toolName, [], root);
  });
  documents.forEach((d, i) => b.document(d, `document ${i + 1}`));
  return b.build();
}
