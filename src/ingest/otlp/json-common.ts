/**
 * Shared pieces of the OTLP/JSON decoders: the proto3 JSON mapping with OTLP's deviations (hex ids,
 * int64 as strings or numbers), accepting both lowerCamelCase and snake_case keys and enum names,
 * ignoring unknown fields. Problems inside one span or log record throw `ItemRejected`.
 */
import type { Attributes, AttributeValue, Resource, Scope } from '../../model/span.js';
import { DecodeError, errorMessage } from '../../errors.js';
import { normalizeHexId } from './hex.js';
import type { Interner } from './intern.js';
import { compactAttributes } from './compact.js';
import { ItemRejected, MAX_VALUE_DEPTH } from './result.js';

/** A parsed JSON object (unknown fields are simply not read). */
export type JsonObject = Record<string, unknown>;

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Parses the payload; a syntax error becomes `DecodeError` with the byte offset JSON.parse reports. */
export function parseJsonPayload(input: Uint8Array | string, what: string): JsonObject {
  const text = typeof input === 'string' ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString('utf8');
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    const msg = errorMessage(err);
    const m = /at position (\d+)/.exec(msg);
    let offset: number | undefined;
    if (m) {
      const pos = Number(m[1]);
      offset = typeof input === 'string' ? pos : Buffer.byteLength(text.slice(0, pos), 'utf8');
    } else if (/Unexpected end of JSON input/.test(msg)) {
      offset = typeof input === 'string' ? input.length : input.byteLength;
    }
    throw new DecodeError(`invalid JSON ${what}: ${msg.replace(/ in JSON at position \d+.*$/, '')}`, offset, { cause: err });
  }
  if (!isObject(doc)) throw new DecodeError(`${what} must be a JSON object, got ${describe(doc)}`);
  return doc;
}

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v;
}

/** An optional array member of the envelope; anything else but an array is a malformed request. */
export function envelopeArray(o: JsonObject, camel: string, snake: string, path: string): unknown[] {
  const v = o[camel] ?? o[snake];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new DecodeError(`${path}.${camel} must be an array, got ${describe(v)}`);
  return v;
}

/** An optional array member inside a span or record; a wrong type rejects that item. */
export function itemArray(o: JsonObject, camel: string, snake: string): unknown[] {
  const v = o[camel] ?? o[snake];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new ItemRejected(`${camel}: expected an array, got ${describe(v)}`);
  return v;
}

export function str(o: JsonObject, camel: string, snake?: string): string {
  const v = o[camel] ?? (snake === undefined ? undefined : o[snake]);
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new ItemRejected(`${camel}: expected a string, got ${describe(v)}`);
  return v;
}

/** A fixed64/uint64 nanosecond time: decimal string or integer number; missing → 0n. */
export function nanos(o: JsonObject, camel: string, snake: string): bigint {
  const v = o[camel] ?? o[snake];
  if (v === undefined || v === null) return 0n;
  if (typeof v === 'string' && /^\d{1,20}$/.test(v)) return BigInt(v);
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return BigInt(v);
  throw new ItemRejected(`${camel}: expected a non-negative integer or decimal string, got ${JSON.stringify(v)}`);
}

/** An unsigned 32-bit integer field such as `flags`; missing → 0. */
export function uint32(o: JsonObject, camel: string, snake: string): number {
  const v = o[camel] ?? o[snake];
  if (v === undefined || v === null) return 0;
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  if (typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 0xffffffff) return n;
  throw new ItemRejected(`${camel}: expected an unsigned 32-bit integer, got ${JSON.stringify(v)}`);
}

/** An enum given as an integer (the OTLP wire rule) or, leniently, as its name. Unknown names reject. */
export function enumField(v: unknown, names: ReadonlyMap<string, number>, field: string): number {
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string') {
    const n = names.get(v);
    if (n !== undefined) return n;
    if (/^\d+$/.test(v)) return Number(v);
  }
  throw new ItemRejected(`${field}: unknown enum value ${JSON.stringify(v)}`);
}

/** A required id (traceId/spanId) as lowercase hex; rejects the item when missing or invalid. */
export function requiredId(o: JsonObject, camel: string, snake: string, bytes: 8 | 16, field = camel): string {
  const id = normalizeHexId(o[camel] ?? o[snake], bytes, false);
  if (typeof id !== 'string') throw new ItemRejected(`${field}: ${id.invalid}`);
  return id;
}

/** An optional id (parentSpanId, log record ids): `''` when absent or all zeroes. */
export function optionalId(o: JsonObject, camel: string, snake: string, bytes: 8 | 16): string {
  const id = normalizeHexId(o[camel] ?? o[snake], bytes, true);
  if (typeof id !== 'string') throw new ItemRejected(`${camel}: ${id.invalid}`);
  return id;
}

function tooDeep(): ItemRejected {
  return new ItemRejected(`attribute value nested deeper than ${MAX_VALUE_DEPTH} levels`);
}

const INT_RE = /^-?\d{1,20}$/;

function int64(v: unknown): number | bigint {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && INT_RE.test(v)) {
    if (v.length <= 15) return Number(v);
    const big = BigInt.asIntN(64, BigInt(v));
    return big >= -9007199254740991n && big <= 9007199254740991n ? Number(big) : big;
  }
  throw new ItemRejected(`intValue: expected an integer or decimal string, got ${JSON.stringify(v)}`);
}

function double(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    const n = v === 'NaN' ? NaN : v === 'Infinity' ? Infinity : v === '-Infinity' ? -Infinity : Number(v);
    if (!Number.isNaN(n) || v === 'NaN') return n;
  }
  throw new ItemRejected(`doubleValue: expected a number, got ${JSON.stringify(v)}`);
}

function base64(v: unknown): Uint8Array {
  if (typeof v !== 'string' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(v)) throw new ItemRejected('bytesValue: expected a base64 string');
  return new Uint8Array(Buffer.from(v, 'base64'));
}

/** OTLP/JSON `AnyValue` → plain JS. An empty object is `null`. */
export function anyValue(v: unknown, depth: number, ix: Interner): AttributeValue {
  if (!isObject(v)) throw new ItemRejected(`expected an AnyValue object, got ${describe(v)}`);
  let x: unknown;
  if ((x = v.stringValue ?? v.string_value) !== undefined) {
    if (typeof x !== 'string') throw new ItemRejected(`stringValue: expected a string, got ${describe(x)}`);
    return x;
  }
  if ((x = v.intValue ?? v.int_value) !== undefined) return int64(x);
  if ((x = v.doubleValue ?? v.double_value) !== undefined) return double(x);
  if ((x = v.boolValue ?? v.bool_value) !== undefined) {
    if (typeof x !== 'boolean') throw new ItemRejected(`boolValue: expected a boolean, got ${describe(x)}`);
    return x;
  }
  if ((x = v.arrayValue ?? v.array_value) !== undefined) {
    if (depth >= MAX_VALUE_DEPTH) throw tooDeep();
    const values = isObject(x) ? x.values : undefined;
    if (values === undefined || values === null) return [];
    if (!Array.isArray(values)) throw new ItemRejected('arrayValue.values: expected an array');
    const out: AttributeValue[] = new Array<AttributeValue>(values.length);
    for (let i = 0; i < values.length; i++) out[i] = anyValue(values[i], depth + 1, ix);
    return out;
  }
  if ((x = v.kvlistValue ?? v.kvlist_value) !== undefined) {
    if (depth >= MAX_VALUE_DEPTH) throw tooDeep();
    const values = isObject(x) ? x.values : undefined;
    const out: Attributes = {};
    if (values === undefined || values === null) return out;
    if (!Array.isArray(values)) throw new ItemRejected('kvlistValue.values: expected an array');
    keyValues(values, out, depth + 1, ix);
    return out;
  }
  if ((x = v.bytesValue ?? v.bytes_value) !== undefined) return base64(x);
  return null;
}

/** A `KeyValue[]` into `target`. `__proto__` keys are dropped so attribute objects stay plain. */
export function keyValues(list: unknown[], target: Attributes, depth: number, ix: Interner): void {
  for (const kv of list) {
    if (!isObject(kv) || typeof kv.key !== 'string') throw new ItemRejected('attributes: expected {key, value} objects with a string key');
    const value = kv.value === undefined || kv.value === null ? null : anyValue(kv.value, depth, ix);
    if (kv.key !== '__proto__') target[kv.key] = typeof value === 'string' ? ix.internAttribute(kv.key, value) : value;
  }
}

/** `attributes` of a span, event, link or record. */
export function attributesOf(o: JsonObject, ix: Interner): Attributes {
  const out: Attributes = {};
  const list = itemArray(o, 'attributes', 'attributes');
  keyValues(list, out, 0, ix);
  return compactAttributes(out, list.length);
}

/** The resource of a ResourceSpans/ResourceLogs; problems here make the request malformed. */
export function resourceOf(container: JsonObject, path: string, ix: Interner): Resource {
  const r = container.resource;
  if (r === undefined || r === null) return { attributes: {} };
  try {
    if (!isObject(r)) throw new ItemRejected(`expected an object, got ${describe(r)}`);
    return { attributes: attributesOf(r, ix) };
  } catch (err) {
    if (err instanceof ItemRejected) throw new DecodeError(`${path}.resource: ${err.message}`);
    throw err;
  }
}

/** The instrumentation scope of a ScopeSpans/ScopeLogs; problems here make the request malformed. */
export function scopeOf(container: JsonObject, path: string, ix: Interner): Scope {
  const s = container.scope;
  if (s === undefined || s === null) return { name: '', version: '', attributes: {} };
  try {
    if (!isObject(s)) throw new ItemRejected(`expected an object, got ${describe(s)}`);
    return { name: str(s, 'name'), version: str(s, 'version'), attributes: attributesOf(s, ix) };
  } catch (err) {
    if (err instanceof ItemRejected) throw new DecodeError(`${path}.scope: ${err.message}`);
    throw err;
  }
}

/** Walks an envelope list of objects; a non-object entry makes the request malformed. */
export function envelopeObjects(list: unknown[], path: string): JsonObject[] {
  for (let i = 0; i < list.length; i++) {
    if (!isObject(list[i])) throw new DecodeError(`${path}[${i}] must be an object, got ${describe(list[i])}`);
  }
  return list as JsonObject[];
}
