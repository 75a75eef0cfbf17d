/**
 * Keeps `gen_ai.evaluation.score.value` a double on the wire (docs/records.md).
 *
 * opentelemetry-js serialises every integral JS number as an OTLP `intValue` (JSON and protobuf alike), so a
 * score of exactly 0 or 1 — the usual result of a check, and of many judged runs — would reach the backend as an
 * int while 0.75 arrives as a double: one attribute with two types, which typed queries (TraceQL, ClickHouse
 * columns) split or drop. This wraps the official serializers and rewrites the `intValue` of the listed keys to
 * `doubleValue` after serialisation; everything else is passed through unchanged.
 */
import type { ISerializer } from '@opentelemetry/otlp-transformer';
import type protobuf from 'protobufjs';
import { otlp } from './descriptor.js';

/** Attribute keys the GenAI semantic conventions type as doubles, whatever their value. */
const DOUBLE_ATTRIBUTE_KEYS: ReadonlySet<string> = new Set(['gen_ai.evaluation.score.value']);

type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !(v instanceof Uint8Array);

function numberOf(intValue: unknown): number {
  if (typeof intValue === 'object' && intValue !== null && typeof (intValue as { toNumber?: unknown }).toNumber === 'function') {
    return (intValue as { toNumber(): number }).toNumber();
  }
  return Number(intValue);
}

/**
 * Rewrite, in place, every KeyValue `{ key, value: { intValue } }` whose key is in `keys` to carry `doubleValue`.
 * `makeDouble` builds the replacement AnyValue (a plain object for JSON, a message for protobuf). Bounded by the
 * size of the request; depth is that of OTLP (a few levels).
 */
function rewrite(node: unknown, keys: ReadonlySet<string>, makeDouble: (n: number) => unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) rewrite(item, keys, makeDouble);
    return;
  }
  if (!isNode(node)) return;
  if (typeof node.key === 'string' && keys.has(node.key) && isNode(node.value)) {
    // Own property only: decoded protobuf messages inherit a zero default for every unset field.
    const intValue = Object.hasOwn(node.value, 'intValue') ? node.value.intValue : undefined;
    if (intValue !== undefined && intValue !== null) node.value = makeDouble(numberOf(intValue));
    return;
  }
  for (const child of Object.values(node)) if (typeof child === 'object' && child !== null) rewrite(child, keys, makeDouble);
}

/** OTLP/JSON: the serializer's bytes are UTF-8 JSON (64-bit integers as strings, so a reparse loses nothing). */
export function jsonWithDoubles<T, R>(inner: ISerializer<T, R>, keys: ReadonlySet<string> = DOUBLE_ATTRIBUTE_KEYS): ISerializer<T, R> {
  return {
    serializeRequest(request: T): Uint8Array | undefined {
      const bytes = inner.serializeRequest(request);
      if (!bytes) return bytes;
      const body: unknown = JSON.parse(new TextDecoder().decode(bytes));
      rewrite(body, keys, (doubleValue) => ({ doubleValue }));
      return new TextEncoder().encode(JSON.stringify(body));
    },
    deserializeResponse: (data: Uint8Array) => inner.deserializeResponse(data),
  };
}

/** OTLP/protobuf (HTTP and gRPC): decode with the OTLP descriptor `requestType`, rewrite, encode again. */
export function protobufWithDoubles<T, R>(inner: ISerializer<T, R>, requestType: protobuf.Type, keys: ReadonlySet<string> = DOUBLE_ATTRIBUTE_KEYS): ISerializer<T, R> {
  return {
    serializeRequest(request: T): Uint8Array | undefined {
      const bytes = inner.serializeRequest(request);
      if (!bytes) return bytes;
      const message = requestType.decode(bytes);
      rewrite(message, keys, (doubleValue) => otlp().types.AnyValue.create({ doubleValue }));
      return requestType.encode(message).finish();
    },
    deserializeResponse: (data: Uint8Array) => inner.deserializeResponse(data),
  };
}
