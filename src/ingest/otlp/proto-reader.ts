/**
 * Shared pieces of the hand-written OTLP protobuf decoders. They read the wire format straight into the
 * Span model with protobufjs's Reader (no intermediate message objects, no Long), so ids become hex,
 * fixed64 times become bigint, and nested values can be depth-capped without recursing into the rest.
 * Field numbers follow src/otlp/proto/otlp.json; test/ingest/proto-fields.test.ts checks them.
 */
// The minimal build: the Reader is all the decoders use (the full library adds the reflection runtime).
import protobuf from 'protobufjs/minimal.js';
import type { Attributes, AttributeValue, Resource, Scope } from '../../model/span.js';
import { MAX_INTERNED_LENGTH, type Interner } from './intern.js';
import { allZero, bytesToHex } from './hex.js';
import { ItemRejected, MAX_VALUE_DEPTH } from './result.js';

/** protobufjs's Reader, carrying the interner of the decoding service. */
export type Reader = protobuf.Reader & { interner: Interner };

/** Wire tag of field `n` with wire type `wt` (0 varint, 1 fixed64, 2 length-delimited, 5 fixed32). */
export const tag = (n: number, wt: 0 | 1 | 2 | 5): number => (n << 3) | wt;

/** A reader over `bytes` without copying them. */
export function createReader(bytes: Uint8Array, interner: Interner): Reader {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const r = protobuf.Reader.create(buf) as Reader;
  r.interner = interner;
  return r;
}

/** Reads a length prefix and returns the end offset of the embedded message, checked against `limit`. */
export function sub(r: Reader, limit: number): number {
  const at = r.pos;
  const len = r.uint32();
  const end = r.pos + len;
  if (end > limit) throw new RangeError(`length ${len} at byte offset ${at} runs past the end of its enclosing message (${limit})`);
  return end;
}

/** A length-delimited string field; short ASCII ones come from the interner's table without decoding. */
export function readString(r: Reader): string {
  const len = r.uint32();
  const start = r.pos;
  // As protobufjs does: a length past the buffer is clamped (the enclosing checkEnd reports the overrun).
  const end = Math.min(start + len, r.len);
  r.pos = end;
  return r.interner.decodeUtf8(r.buf as Buffer, start, end);
}

/** Fails when a message's fields overran its declared length. */
export function checkEnd(r: Reader, end: number): void {
  if (r.pos !== end) throw new RangeError(`field overruns its enclosing message ending at byte offset ${end}`);
}

/** fixed64 as bigint, without going through Long. */
export function readFixed64(r: Reader): bigint {
  const lo = r.fixed32();
  const hi = r.fixed32();
  return hi === 0 ? BigInt(lo) : (BigInt(hi) << 32n) | BigInt(lo);
}

/** int64 varint: a number when it is a safe integer, else a bigint. */
function readInt64(r: Reader): number | bigint {
  const buf = r.buf;
  let pos = r.pos;
  let n = 0;
  let mul = 1;
  // Up to 7 bytes (49 bits) fit a double exactly.
  for (let i = 0; i < 7; i++) {
    if (pos >= r.len) throw new RangeError(`truncated varint at byte offset ${pos}`);
    const b = buf[pos++] as number;
    n += (b & 0x7f) * mul;
    if (b < 0x80) {
      r.pos = pos;
      return n;
    }
    mul *= 128;
  }
  let big = BigInt(n);
  let shift = 49n;
  for (let i = 7; i < 10; i++) {
    if (pos >= r.len) throw new RangeError(`truncated varint at byte offset ${pos}`);
    const b = buf[pos++] as number;
    big |= BigInt(b & 0x7f) << shift;
    if (b < 0x80) {
      r.pos = pos;
      const signed = BigInt.asIntN(64, big);
      return signed >= -9007199254740991n && signed <= 9007199254740991n ? Number(signed) : signed;
    }
    shift += 7n;
  }
  throw new RangeError(`varint longer than 10 bytes at byte offset ${r.pos}`);
}

/** A `bytes` field copied out of the request buffer (so a kept span does not pin the whole body). */
function readBytesCopy(r: Reader, limit: number): Uint8Array {
  const end = sub(r, limit);
  const out = new Uint8Array(r.buf.subarray(r.pos, end));
  r.pos = end;
  return out;
}

/**
 * An id field as lowercase hex. Empty or all-zero ids give `''` (the caller decides whether that is
 * allowed); a wrong length rejects the item.
 */
export function readId(r: Reader, limit: number, bytes: 8 | 16, field: string): string {
  const end = sub(r, limit);
  const start = r.pos;
  r.pos = end;
  const len = end - start;
  if (len === 0) return '';
  if (len !== bytes) throw new ItemRejected(`${field}: expected ${bytes} bytes, got ${len}`);
  return allZero(r.buf, start, end) ? '' : bytesToHex(r.buf, start, end);
}

function tooDeep(): ItemRejected {
  return new ItemRejected(`attribute value nested deeper than ${MAX_VALUE_DEPTH} levels`);
}

/** OTLP `AnyValue` → plain JS. An empty value is `null`. */
export function readAnyValue(r: Reader, end: number, depth: number): AttributeValue {
  let v: AttributeValue = null;
  while (r.pos < end) {
    const t = r.uint32();
    switch (t) {
      case tag(1, 2):
        v = readString(r);
        break;
      case tag(2, 0):
        v = r.bool();
        break;
      case tag(3, 0):
        v = readInt64(r);
        break;
      case tag(4, 1):
        v = r.double();
        break;
      case tag(5, 2): {
        if (depth >= MAX_VALUE_DEPTH) throw tooDeep();
        const subEnd = sub(r, end);
        const arr: AttributeValue[] = [];
        while (r.pos < subEnd) {
          const vt = r.uint32();
          if (vt === tag(1, 2)) arr.push(readAnyValue(r, sub(r, subEnd), depth + 1));
          else r.skipType(vt & 7);
        }
        checkEnd(r, subEnd);
        v = arr;
        break;
      }
      case tag(6, 2): {
        if (depth >= MAX_VALUE_DEPTH) throw tooDeep();
        const subEnd = sub(r, end);
        const obj: Attributes = {};
        while (r.pos < subEnd) {
          const vt = r.uint32();
          if (vt === tag(1, 2)) readKeyValue(r, sub(r, subEnd), obj, depth + 1);
          else r.skipType(vt & 7);
        }
        checkEnd(r, subEnd);
        v = obj;
        break;
      }
      case tag(7, 2):
        v = readBytesCopy(r, end);
        break;
      default:
        r.skipType(t & 7);
    }
  }
  checkEnd(r, end);
  return v;
}

/** One `KeyValue` into `target`. `__proto__` keys are dropped so attribute objects stay plain. */
export function readKeyValue(r: Reader, end: number, target: Attributes, depth: number): void {
  let key = '';
  let value: AttributeValue = null;
  while (r.pos < end) {
    const t = r.uint32();
    if (t === tag(1, 2)) key = readString(r);
    else if (t === tag(2, 2)) value = readAnyValue(r, sub(r, end), depth);
    else r.skipType(t & 7);
  }
  checkEnd(r, end);
  if (typeof value === 'string' && value.length > MAX_INTERNED_LENGTH) value = r.interner.internConfig(key, value);
  if (key !== '__proto__') target[key] = value;
}

/** `Resource` fields into an object created before its spans (fields may come in any order). */
export function readResource(r: Reader, end: number, into: Resource): void {
  while (r.pos < end) {
    const t = r.uint32();
    if (t === tag(1, 2)) readKeyValue(r, sub(r, end), into.attributes, 0);
    else r.skipType(t & 7);
  }
  checkEnd(r, end);
}

/** `InstrumentationScope` fields into an object created before its spans. */
export function readScope(r: Reader, end: number, into: Scope): void {
  while (r.pos < end) {
    const t = r.uint32();
    switch (t) {
      case tag(1, 2):
        into.name = r.string();
        break;
      case tag(2, 2):
        into.version = r.string();
        break;
      case tag(3, 2):
        readKeyValue(r, sub(r, end), into.attributes, 0);
        break;
      default:
        r.skipType(t & 7);
    }
  }
  checkEnd(r, end);
}

/** Clamp an enum to the Span model's range; unknown values become 0 (unspecified/unset). */
export function clampEnum<T extends number>(v: number, max: T): T | 0 {
  return (v >= 0 && v <= max ? v : 0) as T | 0;
}
