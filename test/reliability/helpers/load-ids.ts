/**
 * Trace ids and request bodies for the overload load generator, made so that sending costs almost nothing:
 * a few 50-trace protobuf bodies are built once, and each request is a copy of one with its request number
 * written into every trace id. A trace id is `nonce (9 bytes) · generator (1) · request seq (4) · index in
 * the request (2)`, so the test can tell from a scored trace id which request it came from, and no list of
 * refused ids has to be kept.
 */
import { TEMPLATES, fixtureRequest, jsonToProto } from './traces.js';
import type { Rng } from './rng.js';

const NONCE_BYTES = 9;
const SEQ_AT = NONCE_BYTES + 1;
const INDEX_AT = SEQ_AT + 4;

/** The trace id (lowercase hex) of trace `index` of request `seq` sent by generator `gen`. */
export function loadTraceId(nonceHex: string, gen: number, seq: number, index: number): string {
  const id = Buffer.alloc(16);
  Buffer.from(nonceHex, 'hex').copy(id, 0);
  id[NONCE_BYTES] = gen;
  id.writeUInt32BE(seq, SEQ_AT);
  id.writeUInt16BE(index, INDEX_AT);
  return id.toString('hex');
}

/** The generator and request of a load trace id, or undefined when the id is not from this run (`nonceHex`). */
export function parseLoadTraceId(nonceHex: string, traceId: string): { gen: number; seq: number; index: number } | undefined {
  if (traceId.length !== 32 || !traceId.startsWith(nonceHex)) return undefined;
  const id = Buffer.from(traceId, 'hex');
  return { gen: id[NONCE_BYTES] ?? 0, seq: id.readUInt32BE(SEQ_AT), index: id.readUInt16BE(INDEX_AT) };
}

/** A fresh 9-byte run nonce (hex). */
export function loadNonce(rng: Rng): string {
  return rng.hex(NONCE_BYTES);
}

/** One prebuilt request body and the offsets of the request-seq bytes of every trace id in it. */
interface BodyTemplate {
  body: Buffer;
  seqOffsets: number[];
}

/** Each fixture's protobuf request, with the offsets of its (single) trace id. */
function fixtureProtos(): { proto: Buffer; offsets: number[] }[] {
  return TEMPLATES.map((name) => {
    const doc = fixtureRequest(name);
    const proto = Buffer.from(jsonToProto(doc));
    const ids = new Set<string>();
    JSON.stringify(doc, (k, v: unknown) => {
      if (k === 'traceId' && typeof v === 'string' && v !== '') ids.add(v);
      return v;
    });
    if (ids.size !== 1) throw new Error(`template ${name} has ${ids.size} trace ids; the load generator needs exactly one`);
    const id = Buffer.from([...ids][0] as string, 'hex');
    const offsets: number[] = [];
    for (let at = proto.indexOf(id); at >= 0; at = proto.indexOf(id, at + 1)) offsets.push(at);
    return { proto, offsets };
  });
}

/**
 * Request bodies of `tracesPerRequest` traces each for generator `gen`: `next(seq)` returns a new buffer
 * whose trace ids are `loadTraceId(nonce, gen, seq, 0..tracesPerRequest-1)`, at the cost of one copy.
 */
export class LoadBodies {
  private readonly templates: BodyTemplate[] = [];

  constructor(rng: Rng, nonceHex: string, gen: number, tracesPerRequest: number, variants = 8) {
    const fixtures = fixtureProtos();
    for (let v = 0; v < variants; v++) {
      const parts: Buffer[] = [];
      const seqOffsets: number[] = [];
      let length = 0;
      for (let i = 0; i < tracesPerRequest; i++) {
        const f = rng.pick(fixtures);
        const copy = Buffer.from(f.proto);
        const id = Buffer.from(loadTraceId(nonceHex, gen, 0, i), 'hex');
        for (const at of f.offsets) {
          id.copy(copy, at);
          seqOffsets.push(length + at + SEQ_AT);
        }
        parts.push(copy);
        length += copy.length;
      }
      this.templates.push({ body: Buffer.concat(parts), seqOffsets });
    }
  }

  /** The body of request `seq` (a fresh buffer, safe to keep in flight). */
  next(seq: number): Buffer {
    const t = this.templates[seq % this.templates.length] as BodyTemplate;
    const body = Buffer.allocUnsafe(t.body.length);
    t.body.copy(body);
    for (const at of t.seqOffsets) body.writeUInt32BE(seq, at);
    return body;
  }
}
