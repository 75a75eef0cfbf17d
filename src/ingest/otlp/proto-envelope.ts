/**
 * The envelope both OTLP requests share: `Resource{Spans,Logs}` → `Scope{Spans,Logs}` → items. One walker
 * for traces and logs: a bad resource or scope rejects the request, a bad item only itself (counted, with
 * its path).
 */
import { DecodeError, errorMessage } from '../../errors.js';
import type { Resource, Scope } from '../../model/span.js';
import type { Interner } from './intern.js';
import { checkEnd, createReader, readResource, readScope, sub, tag, type Reader } from './proto-reader.js';
import { ItemRejected, Rejections } from './result.js';

/** Reads one item (a span or a log record) ending at `end`; throws ItemRejected to reject just it. */
export type ItemReader<T> = (r: Reader, end: number, resource: Resource, scope: Scope) => T;

export interface EnvelopeNames {
  /** Message name for errors, e.g. `ExportTraceServiceRequest`. */
  request: string;
  /** JSON names of the levels, e.g. `resourceSpans`, `scopeSpans`, `spans`. */
  resource: string;
  scope: string;
  item: string;
}

/** Walk a whole request; malformed bytes throw DecodeError with the byte offset. */
export function readEnvelope<T>(bytes: Uint8Array, names: EnvelopeNames, readItem: ItemReader<T>, interner: Interner): { items: T[]; rejections: Rejections } {
  const r = createReader(bytes, interner);
  const items: T[] = [];
  const rejections = new Rejections();
  let index = 0;
  try {
    while (r.pos < r.len) {
      const t = r.uint32();
      if (t === tag(1, 2)) readResourceLevel(r, sub(r, r.len), `${names.resource}[${index++}]`, names, readItem, items, rejections);
      else r.skipType(t & 7);
    }
    checkEnd(r, r.len);
  } catch (err) {
    if (err instanceof DecodeError) throw err;
    throw new DecodeError(`malformed protobuf ${names.request}: ${errorMessage(err)}`, Math.min(r.pos, r.len), { cause: err });
  }
  return { items, rejections };
}

function readResourceLevel<T>(r: Reader, end: number, path: string, names: EnvelopeNames, readItem: ItemReader<T>, out: T[], rej: Rejections): void {
  const resource: Resource = { attributes: {} };
  let index = 0;
  while (r.pos < end) {
    const t = r.uint32();
    if (t === tag(1, 2)) {
      try {
        readResource(r, sub(r, end), resource);
      } catch (err) {
        if (err instanceof ItemRejected) throw new DecodeError(`${path}.resource: ${err.message}`, r.pos);
        throw err;
      }
    } else if (t === tag(2, 2)) readScopeLevel(r, sub(r, end), `${path}.${names.scope}[${index++}]`, names, resource, readItem, out, rej);
    else r.skipType(t & 7);
  }
  checkEnd(r, end);
}

function readScopeLevel<T>(r: Reader, end: number, path: string, names: EnvelopeNames, resource: Resource, readItem: ItemReader<T>, out: T[], rej: Rejections): void {
  const scope: Scope = { name: '', version: '', attributes: {} };
  let index = 0;
  while (r.pos < end) {
    const t = r.uint32();
    if (t === tag(1, 2)) {
      try {
        readScope(r, sub(r, end), scope);
      } catch (err) {
        if (err instanceof ItemRejected) throw new DecodeError(`${path}.scope: ${err.message}`, r.pos);
        throw err;
      }
    } else if (t === tag(2, 2)) {
      const itemEnd = sub(r, end);
      const i = index++;
      try {
        out.push(readItem(r, itemEnd, resource, scope));
      } catch (err) {
        if (!(err instanceof ItemRejected)) throw err;
        rej.add(`${path}.${names.item}[${i}]: ${err.message}`);
        r.pos = itemEnd;
      }
    } else r.skipType(t & 7);
  }
  checkEnd(r, end);
}
