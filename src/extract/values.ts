/**
 * Defensive readers over decoded attribute values. Every reader accepts any shape and returns
 * `undefined` for what it cannot use: extraction must never throw on bad data.
 */
import type { AttributeValue, Attributes } from '../model/span.js';

/** A plain JS object (not an array, not bytes). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
}

/** Own property read that never walks the prototype chain. */
export function prop(obj: unknown, key: string): unknown {
  return isRecord(obj) && Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}

/** Attribute value, or `undefined` when absent. */
export function attr(attrs: Attributes, key: string): AttributeValue | undefined {
  return Object.prototype.hasOwnProperty.call(attrs, key) ? attrs[key] : undefined;
}

/** A non-empty string attribute (numbers and bigints are stringified). */
export function attrStr(attrs: Attributes, key: string): string | undefined {
  return asString(attr(attrs, key));
}

/** The first non-empty string among `keys`. */
export function firstStr(attrs: Attributes, keys: readonly string[]): string | undefined {
  for (const k of keys) {
    const v = attrStr(attrs, k);
    if (v !== undefined) return v;
  }
  return undefined;
}

/** A non-empty string, or a number/bigint as its decimal text; anything else is `undefined`. */
export function asString(v: unknown): string | undefined {
  if (typeof v === 'string') return v.length > 0 ? v : undefined;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'bigint') return v.toString();
  return undefined;
}

/** A finite non-negative number from a number, bigint or numeric string. */
export function asCount(v: unknown): number | undefined {
  let n: number | undefined;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'bigint') n = Number(v);
  else if (typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v)) n = Number(v);
  return n !== undefined && Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** The first countable attribute among `keys`. */
export function firstCount(attrs: Attributes, keys: readonly string[]): number | undefined {
  for (const k of keys) {
    const v = asCount(attr(attrs, k));
    if (v !== undefined) return v;
  }
  return undefined;
}

/** Texts of one length kept in a list before the rest of that length go to a `Map`. */
const TEXTS_PER_LENGTH = 16;

/**
 * Parsed values by source text, for one trace (`SpanTree.json`). A `Map` keyed by the text would hash all of
 * every text it is asked about, and V8 hashes a fresh kilobyte text as slowly as `JSON.parse` reads it
 * (measured): here a text is found by its length, then compared with the few texts of that length (a pointer
 * test when it is the same string, else a memory compare that stops at the first difference). Past
 * `TEXTS_PER_LENGTH` texts of one length (never in practice), the others of that length go to a `Map`.
 */
export class JsonCache {
  /** By length: text, value, text, value, … */
  readonly #byLength = new Map<number, unknown[]>();
  #overflow: Map<string, unknown> | undefined;

  /** The value stored for a text equal to `text`, or `undefined`. */
  get(text: string): unknown {
    const list = this.#byLength.get(text.length);
    if (list !== undefined) for (let i = 0; i < list.length; i += 2) if (list[i] === text) return list[i + 1];
    return this.#overflow?.get(text);
  }

  /** Stores `value` for `text`, which `get` did not find. */
  set(text: string, value: unknown): void {
    const list = this.#byLength.get(text.length);
    if (list === undefined) this.#byLength.set(text.length, [text, value]);
    else if (list.length < 2 * TEXTS_PER_LENGTH) list.push(text, value);
    else (this.#overflow ??= new Map<string, unknown>()).set(text, value);
  }
}

/**
 * Parses a JSON-string value (content attributes are usually JSON strings); structured values and
 * strings that are not JSON objects/arrays/quoted strings are returned unchanged. Bigints become numbers
 * when safe, else strings, and bytes become base64, so the result is JSON-serialisable. With `cache` (the
 * trace's `SpanTree.json`) each distinct text is parsed once.
 */
export function parseJsonish(v: unknown, cache?: JsonCache): unknown {
  if (typeof v === 'string') {
    const t = v.trim();
    const c = t[0];
    if (c === '{' || c === '[' || c === '"') {
      if (cache !== undefined) {
        const hit = cache.get(v);
        if (hit !== undefined) return hit;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(t) as unknown;
      } catch {
        parsed = v;
      }
      cache?.set(v, parsed);
      return parsed;
    }
    return v;
  }
  return toPlain(v, 0);
}

const MAX_DEPTH = 64;

/** Converts decoded attribute values to JSON-safe plain values (bounded depth). */
export function toPlain(v: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) return '[nested too deeply]';
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  if (Array.isArray(v)) return v.map((x) => toPlain(x, depth + 1));
  if (isRecord(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (k !== '__proto__') out[k] = toPlain(x, depth + 1);
    return out;
  }
  if (typeof v === 'function' || typeof v === 'symbol') return undefined;
  return v;
}

/** `parseJsonish` of an attribute. */
export function attrJson(attrs: Attributes, key: string, cache?: JsonCache): unknown {
  const v = attr(attrs, key);
  return v === undefined ? undefined : parseJsonish(v, cache);
}

/**
 * Rebuilds a flattened `prefix.{i}.rest` family into an array of objects keyed by `rest`
 * (e.g. `llm.input_messages.0.message.role`). Sparse indices are compacted in index order.
 */
export function unflatten(attrs: Attributes, prefix: string): Array<Record<string, AttributeValue>> {
  const byIndex = new Map<number, Record<string, AttributeValue>>();
  const p = `${prefix}.`;
  const start = p.length;
  for (const key in attrs) {
    if (!key.startsWith(p)) continue;
    // The index: 1 to 6 digits up to the next dot (or the end), read without slicing or a regex.
    let idx = 0;
    let end = start;
    for (; end < key.length && end - start <= MAX_INDEX_DIGITS; end++) {
      const c = key.charCodeAt(end);
      if (c < 48 || c > 57) break;
      idx = idx * 10 + (c - 48);
    }
    const digits = end - start;
    if (digits === 0 || digits > MAX_INDEX_DIGITS || (end < key.length && key.charCodeAt(end) !== 46)) continue;
    const field = end < key.length ? key.slice(end + 1) : '';
    // A field named `__proto__` would set the row's prototype, not a field (the decoders drop such keys).
    if (field === '__proto__') continue;
    let row = byIndex.get(idx);
    if (!row) {
      row = {};
      byIndex.set(idx, row);
    }
    row[field] = attrs[key] as AttributeValue;
  }
  return [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]);
}

/** Longest index `unflatten` reads (more digits and the key is not a row of the family). */
const MAX_INDEX_DIGITS = 6;

/** Compact JSON for display; strings are returned as they are. Never throws. */
export function stringify(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined) return '';
  try {
    // Parsed JSON is already plain: serialise it as it is rather than through a deep copy.
    return JSON.stringify(isJsonPlain(v, 0) ? v : toPlain(v)) ?? '';
  } catch {
    return '[unserialisable value]';
  }
}

/**
 * True when `toPlain(v)` would serialise exactly like `v`: only strings, finite numbers, booleans, null
 * and plain objects / arrays of them within the depth bound, no `__proto__` key. Allocates nothing.
 */
function isJsonPlain(v: unknown, depth: number): boolean {
  if (v === null) return true;
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(v);
    case 'object':
      break;
    default:
      return false;
  }
  if (depth >= MAX_DEPTH) return false;
  if (Array.isArray(v)) {
    for (const x of v as unknown[]) if (!isJsonPlain(x, depth + 1)) return false;
    return true;
  }
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return false;
  const o = v as Record<string, unknown>;
  for (const k in o) {
    if (k === '__proto__' || !Object.prototype.hasOwnProperty.call(o, k)) return false;
    if (!isJsonPlain(o[k], depth + 1)) return false;
  }
  return 'toJSON' in o ? false : true;
}
