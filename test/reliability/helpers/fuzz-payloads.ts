/**
 * Seeded generators of bad OTLP payloads: random bytes, truncated and mutated protobuf (from real fixtures
 * re-encoded), JSON with wrong types, huge strings, deep nesting, gzip bombs and invalid UTF-8. Each payload
 * names its family so a failure says what kind of input broke what.
 */
import { gzipSync } from 'node:zlib';
import protobuf from 'protobufjs';
import type { Rng } from './rng.js';
import { jsonToProto, validRequest, type ValidRequest } from './traces.js';

export type Encoding = 'protobuf' | 'json';

export interface BadPayload {
  family: string;
  encoding: Encoding;
  body: Buffer;
  /** Sent with `Content-Encoding: gzip` (HTTP only). */
  gzip?: boolean;
  /** Overrides the Content-Type (HTTP only), for the 415 family. */
  contentType?: string;
  contentEncoding?: string;
}

/** A length-delimited protobuf field. */
function ld(field: number, bytes: Uint8Array): Buffer {
  return Buffer.from(protobuf.Writer.create().uint32((field << 3) | 2).bytes(bytes).finish());
}

const varintLen = (n: number): number => (n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5);

/** A protobuf AnyValue nested `depth` ArrayValues deep, written outside-in (linear time, no recursion). */
function deepAnyValueProto(depth: number): Buffer {
  const leaf = ld(1, Buffer.from('leaf'));
  const outer: number[] = [leaf.length];
  const inner: number[] = [];
  for (let i = 0; i < depth; i++) {
    const a = 1 + varintLen(outer[i] as number) + (outer[i] as number);
    inner.push(a);
    outer.push(1 + varintLen(a) + a);
  }
  const w = protobuf.Writer.create();
  for (let i = depth - 1; i >= 0; i--) w.uint32((5 << 3) | 2).uint32(inner[i] as number).uint32((1 << 3) | 2).uint32(outer[i] as number);
  return Buffer.concat([w.finish(), leaf]);
}

/** A request with one span of `traceId` carrying a raw AnyValue attribute (protobuf). */
function protoSpanWithAttribute(rng: Rng, key: string, anyValue: Buffer): Buffer {
  const span = Buffer.concat([
    ld(1, Buffer.from(rng.hex(16), 'hex')),
    ld(2, Buffer.from(rng.hex(8), 'hex')),
    ld(5, Buffer.from('fuzz')),
    ld(9, Buffer.concat([ld(1, Buffer.from(key)), ld(2, anyValue)])),
  ]);
  return ld(1, ld(2, ld(2, span)));
}

function jsonSpanWithAttribute(rng: Rng, anyValueJson: string): string {
  const span = `{"traceId":"${rng.hex(16)}","spanId":"${rng.hex(8)}","name":"fuzz","startTimeUnixNano":"1767225600000000000","endTimeUnixNano":"1767225601000000000","attributes":[{"key":"k","value":${anyValueJson}}]}`;
  return `{"resourceSpans":[{"resource":{"attributes":[]},"scopeSpans":[{"scope":{"name":"fuzz"},"spans":[${span}]}]}]}`;
}

const WRONG_VALUES: readonly unknown[] = [null, 0, -1, 1.5, 1e308, true, false, '', 'zz', 'not hex at all', '-1', [], {}, [[1]], { a: { b: {} } }, ['x'], '1'.repeat(40)];

/** Deep copy of `doc` with one random node replaced by a value of the wrong type. */
function wrongType(rng: Rng, doc: unknown): unknown {
  const nodes: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        nodes.push({ parent: v, key: i });
        walk(x);
      });
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        nodes.push({ parent: v as Record<string, unknown>, key: k });
        walk(x);
      }
    }
  };
  const copy: unknown = JSON.parse(JSON.stringify(doc));
  walk(copy);
  const times = rng.range(1, 3);
  for (let i = 0; i < times && nodes.length > 0; i++) {
    const { parent, key } = rng.pick(nodes);
    (parent as Record<string | number, unknown>)[key] = rng.pick(WRONG_VALUES);
  }
  return copy;
}

function mutate(rng: Rng, bytes: Uint8Array): Buffer {
  const out = Buffer.from(bytes);
  const n = rng.range(1, 8);
  for (let i = 0; i < n; i++) {
    const at = rng.int(out.length);
    const op = rng.int(3);
    if (op === 0) out[at] = rng.int(256);
    else if (op === 1) out[at] = (out[at] as number) ^ (1 << rng.int(8));
    else out[at] = rng.pick([0x00, 0x7f, 0x80, 0xff, 0x0a, 0x12, 0x1a, 0x22]);
  }
  return out;
}

/** Replace one byte of a known string inside `bytes` with an invalid UTF-8 sequence start. */
function breakUtf8(rng: Rng, bytes: Uint8Array, needle: string): Buffer {
  const out = Buffer.from(bytes);
  const at = out.indexOf(needle);
  const pos = at >= 0 ? at + rng.int(needle.length) : rng.int(out.length);
  out[pos] = rng.pick([0xff, 0xfe, 0xc0, 0xc3, 0xed, 0xf8]);
  return out;
}

/** A gzip bomb: `members` gzip members of 1 MiB of zeroes each (about 1 KiB compressed per MiB). */
export function gzipBomb(members: number): Buffer {
  const member = gzipSync(Buffer.alloc(1024 * 1024));
  return Buffer.concat(Array.from({ length: members }, () => member));
}

/** Generates bad payloads from one seed; `seeds` are valid requests (fixtures with fuzz trace ids) to damage. */
export class BadPayloads {
  private readonly seeds: ValidRequest[];
  private readonly bomb = gzipBomb(128);

  constructor(
    private readonly rng: Rng,
    /** Largest huge string generated (bodies past the receiver limit must get 413). */
    private readonly hugeMaxBytes: number,
  ) {
    this.seeds = Array.from({ length: 8 }, () => validRequest(rng));
  }

  private seed(): ValidRequest {
    return this.rng.pick(this.seeds);
  }

  private huge(): string {
    // Rare and large: a few per thousand payloads, up to past the body limit.
    return 'x'.repeat(this.rng.range(256 * 1024, this.hugeMaxBytes));
  }

  /** One bad protobuf payload (HTTP x-protobuf, gRPC, Kafka otlp_proto). `http` adds HTTP-only families. */
  protobuf(http: boolean): BadPayload {
    const r = this.rng;
    const roll = r.int(1000);
    const s = this.seed();
    const p = (family: string, body: Buffer, extra: Partial<BadPayload> = {}): BadPayload => ({ family, encoding: 'protobuf', body, ...extra });
    if (roll < 180) return p('random-bytes', r.bytes(r.range(1, 4096)));
    if (roll < 400) return p('truncated-protobuf', Buffer.from(s.proto.subarray(0, r.range(1, s.proto.length - 1))));
    if (roll < 680) return p('mutated-protobuf', mutate(r, s.proto));
    if (roll < 760) return p('invalid-utf8-protobuf', breakUtf8(r, s.proto, 'support-agent'));
    if (roll < 840) return p('deep-nesting-protobuf', protoSpanWithAttribute(r, 'deep', deepAnyValueProto(r.range(65, 20_000))));
    if (roll < 880) return p('wrong-wire-type', Buffer.concat([Buffer.from([(1 << 3) | 0]), Buffer.from(r.bytes(r.range(1, 10))), Buffer.from(s.proto)]));
    if (roll < 900) return p('length-overflow', Buffer.concat([Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]), r.bytes(r.range(0, 64))]));
    if (roll < 906) return p('huge-string', protoSpanWithAttribute(r, 'huge', ld(1, Buffer.from(this.huge()))));
    if (!http) return p('mutated-protobuf', mutate(r, s.proto));
    if (roll < 920) return p('gzip-bomb', this.bomb, { gzip: true });
    if (roll < 950) return p('corrupt-gzip', mutate(r, gzipSync(s.proto)), { gzip: true });
    if (roll < 975) return p('wrong-content-type', Buffer.from(s.proto), { contentType: r.pick(['text/plain', 'application/octet-stream', 'application/grpc', '']) });
    return p('unsupported-content-encoding', Buffer.from(s.proto), { contentEncoding: r.pick(['br', 'zstd', 'deflate', 'gzip, br']) });
  }

  /** One bad OTLP/JSON payload (HTTP application/json, Kafka otlp_json). */
  json(http: boolean): BadPayload {
    const r = this.rng;
    const roll = r.int(1000);
    const s = this.seed();
    const j = (family: string, body: Buffer | string, extra: Partial<BadPayload> = {}): BadPayload => ({ family, encoding: 'json', body: Buffer.from(body), ...extra });
    if (roll < 120) return j('random-bytes', r.bytes(r.range(1, 4096)));
    if (roll < 280) return j('truncated-json', s.json.slice(0, r.range(1, s.json.length - 1)));
    if (roll < 580) return j('wrong-types', JSON.stringify(wrongType(r, s.doc)));
    if (roll < 680) return j('mutated-json', mutate(r, Buffer.from(s.json)));
    if (roll < 760) return j('invalid-utf8-json', breakUtf8(r, Buffer.from(s.json), 'support-agent'));
    if (roll < 800) return j('deep-nesting-json', '['.repeat(r.range(1000, 200_000)));
    if (roll < 840) {
      const depth = r.range(65, 5000);
      return j('deep-anyvalue-json', jsonSpanWithAttribute(r, '{"arrayValue":{"values":['.repeat(depth) + '{"stringValue":"leaf"}' + ']}}'.repeat(depth)));
    }
    if (roll < 870) return j('wrong-root', JSON.stringify(r.pick([[], 'x', 1, null, { resourceSpans: 'x' }, { resourceSpans: [1, 'a', null] }, { resourceSpans: [{ scopeSpans: {} }] }])));
    if (roll < 876) return j('huge-string', jsonSpanWithAttribute(r, JSON.stringify({ stringValue: this.huge() })));
    if (roll < 900) return j('protobuf-as-json', Buffer.from(jsonToProto(s.doc)));
    if (!http) return j('wrong-types', JSON.stringify(wrongType(r, s.doc)));
    if (roll < 915) return j('gzip-bomb', this.bomb, { gzip: true });
    if (roll < 950) return j('corrupt-gzip', mutate(r, gzipSync(s.json)), { gzip: true });
    if (roll < 975) return j('wrong-content-type', s.json, { contentType: r.pick(['text/json', 'application/jsonx', 'multipart/form-data']) });
    return j('unsupported-content-encoding', s.json, { contentEncoding: r.pick(['br', 'compress', 'identity, gzip']) });
  }
}
