/**
 * Valid agent traces for the reliability scenarios: real-library fixtures (test/fixtures/traces) re-issued
 * with fresh trace ids, as OTLP/JSON text and as OTLP/protobuf (re-encoded from the JSON with the project's
 * OTLP descriptor, so both encodings carry the same spans).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { otlp } from '../../../src/otlp/descriptor.js';
import type { Rng } from './rng.js';

/** Fixtures that hold at least one agent run with output, across conventions. */
export const TEMPLATES = [
  'aisdk6-two-tools',
  'aisdk6-rag',
  'aisdk7-otel-two-tools',
  'openinference-two-tools',
  'openinference-rag',
  'openllmetry-two-tools',
  'mastra-two-tools',
] as const;

export type TemplateName = (typeof TEMPLATES)[number];

type Json = Record<string, unknown>;

const cache = new Map<string, Json>();

/** The parsed OTLP/JSON request of a fixture (shared; never mutate it). */
export function fixtureRequest(name: string): Json {
  let doc = cache.get(name);
  if (!doc) {
    const path = fileURLToPath(new URL(`../../fixtures/traces/${name}.json`, import.meta.url));
    doc = JSON.parse(readFileSync(path, 'utf8')) as Json;
    cache.set(name, doc);
  }
  return doc;
}

const ID_KEYS = new Set(['traceId', 'spanId', 'parentSpanId']);

/** Deep copy of an OTLP/JSON request with every trace id replaced through `map` and other strings through `rewrite`. */
function withTraceIds(doc: Json, map: (old: string) => string, rewrite?: (text: string) => string): Json {
  const walk = (v: unknown, key: string | undefined): unknown => {
    if (Array.isArray(v)) return v.map((x) => walk(x, undefined));
    if (v !== null && typeof v === 'object') {
      const out: Json = {};
      for (const [k, x] of Object.entries(v as Json)) out[k] = walk(x, k);
      return out;
    }
    if (key === 'traceId' && typeof v === 'string' && v !== '') return map(v);
    if (key === 'stringValue' && typeof v === 'string' && rewrite) return rewrite(v);
    return v;
  };
  return walk(doc, undefined) as Json;
}

/** The OTLP/JSON request as a protobufjs object (hex ids become bytes), encoded to protobuf. */
export function jsonToProto(doc: Json): Uint8Array {
  const walk = (v: unknown, key: string | undefined): unknown => {
    if (Array.isArray(v)) return v.map((x) => walk(x, undefined));
    if (v !== null && typeof v === 'object') {
      const out: Json = {};
      for (const [k, x] of Object.entries(v as Json)) out[k] = walk(x, k);
      return out;
    }
    if (key !== undefined && ID_KEYS.has(key) && typeof v === 'string') return Buffer.from(v, 'hex');
    return v;
  };
  const type = otlp().types.ExportTraceServiceRequest;
  return type.encode(type.fromObject(walk(doc, undefined) as Json)).finish();
}

/** One valid request: a fixture with fresh trace ids. */
export interface ValidRequest {
  template: TemplateName;
  traceIds: string[];
  doc: Json;
  json: string;
  proto: Uint8Array;
}

/** A fixture re-issued with fresh trace ids drawn from `rng`; `rewrite` edits every string attribute value. */
export function validRequest(rng: Rng, template: TemplateName = rng.pick(TEMPLATES), rewrite?: (text: string) => string): ValidRequest {
  const ids = new Map<string, string>();
  const doc = withTraceIds(
    fixtureRequest(template),
    (old) => {
      let id = ids.get(old);
      if (!id) {
        id = rng.hex(16);
        ids.set(old, id);
      }
      return id;
    },
    rewrite,
  );
  return { template, traceIds: [...ids.values()], doc, json: JSON.stringify(doc), proto: jsonToProto(doc) };
}

/** Several valid requests merged into one ExportTraceServiceRequest (how exporters batch). */
export function mergedRequest(parts: readonly ValidRequest[]): { traceIds: string[]; json: string; proto: Uint8Array; doc: Json } {
  const resourceSpans = parts.flatMap((p) => (p.doc.resourceSpans as unknown[]) ?? []);
  const doc = { resourceSpans };
  return { traceIds: parts.flatMap((p) => p.traceIds), doc, json: JSON.stringify(doc), proto: jsonToProto(doc) };
}

/**
 * Cheap unique traces for load: each template's protobuf request once, with the offsets of its trace id
 * bytes; a copy gets a fresh id written at those offsets. Concatenated requests are one valid request
 * (a repeated field's encodings concatenate), so a batch of traces costs a few buffer copies.
 */
export class ProtoStamper {
  private readonly templates: { proto: Buffer; offsets: number[] }[];

  constructor(private readonly rng: Rng) {
    this.templates = TEMPLATES.map((name) => {
      const doc = fixtureRequest(name);
      const proto = Buffer.from(jsonToProto(doc));
      const ids = new Set<string>();
      JSON.stringify(doc, (k, v: unknown) => {
        if (k === 'traceId' && typeof v === 'string' && v !== '') ids.add(v);
        return v;
      });
      if (ids.size !== 1) throw new Error(`template ${name} has ${ids.size} trace ids; ProtoStamper needs exactly one`);
      const id = Buffer.from([...ids][0] as string, 'hex');
      const offsets: number[] = [];
      for (let at = proto.indexOf(id); at >= 0; at = proto.indexOf(id, at + 1)) offsets.push(at);
      return { proto, offsets };
    });
  }

  /** `count` traces with fresh ids in one protobuf request. */
  batch(count: number): { traceIds: string[]; body: Buffer } {
    const parts: Buffer[] = [];
    const traceIds: string[] = [];
    for (let i = 0; i < count; i++) {
      const t = this.rng.pick(this.templates);
      const copy = Buffer.from(t.proto);
      const id = this.rng.bytes(16);
      for (const at of t.offsets) id.copy(copy, at);
      parts.push(copy);
      traceIds.push(id.toString('hex'));
    }
    return { traceIds, body: Buffer.concat(parts) };
  }
}
