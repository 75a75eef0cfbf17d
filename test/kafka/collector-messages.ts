/**
 * Kafka messages the way the Collector's Kafka exporter writes them (`otlp_proto`, `partition_traces_by_id`):
 * the value is one protobuf `ExportTraceServiceRequest`, the key the trace id in hex.
 *
 * The spans are the real AI SDK 6 fixtures (test/fixtures/traces/aisdk6-*.json), decoded with the product's
 * OTLP/JSON decoder and re-encoded with the repository's protobufjs descriptor, keeping every attribute, event,
 * link and status (collector-encoding.test.ts checks the round trip). Copies get fresh trace ids so one test
 * can produce many distinct runs.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { decodeTraceRequestJson } from '../../src/ingest/otlp/decode.js';
import { otlp } from '../../src/otlp/descriptor.js';
import type { AttributeValue, Attributes, Resource, Scope, Span, Trace } from '../../src/model/span.js';

type ProtoObject = Record<string, unknown>;

export const AISDK6_FIXTURES = ['aisdk6-two-tools', 'aisdk6-rag', 'aisdk6-nested-agents', 'aisdk6-two-runs-one-trace', 'aisdk6-tool-error'] as const;
export type FixtureName = (typeof AISDK6_FIXTURES)[number];

const FIXTURE_DIR = fileURLToPath(new URL('../fixtures/traces/', import.meta.url));
const cache = new Map<string, Span[]>();

/** The decoded spans of one fixture (every span of the file, which holds one trace). */
export function fixtureSpans(name: FixtureName): Span[] {
  let spans = cache.get(name);
  if (!spans) {
    const decoded = decodeTraceRequestJson(readFileSync(`${FIXTURE_DIR}${name}.json`));
    if (decoded.rejected > 0) throw new Error(`${name}: ${decoded.rejected} spans rejected by the decoder`);
    spans = decoded.spans;
    cache.set(name, spans);
  }
  return spans;
}

/** A deterministic 32-hex trace id for copy `copy` of `fixture` under `seed`. */
export function copyTraceId(seed: string, fixture: string, copy: number): string {
  return createHash('sha256').update(`${seed}/${fixture}/${copy}`).digest('hex').slice(0, 32);
}

/** The fixture's spans under a new trace id (span ids, resource and scope kept). */
export function fixtureTrace(name: FixtureName, traceId: string): Trace {
  return { traceId, spans: fixtureSpans(name).map((s) => ({ ...s, traceId })), logs: [], source: 'kafka' };
}

/** `count` traces cycling through the AI SDK 6 fixtures, each with its own trace id. */
export function fixtureTraces(seed: string, count: number): Trace[] {
  return Array.from({ length: count }, (_, i) => {
    const name = AISDK6_FIXTURES[i % AISDK6_FIXTURES.length] as FixtureName;
    return fixtureTrace(name, copyTraceId(seed, name, i));
  });
}

function anyValue(v: AttributeValue): ProtoObject {
  if (v === null) return {};
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'bigint') return { intValue: v.toString() };
  if (typeof v === 'number') return Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v };
  if (v instanceof Uint8Array) return { bytesValue: v };
  if (Array.isArray(v)) return { arrayValue: { values: v.map(anyValue) } };
  return { kvlistValue: { values: keyValues(v) } };
}

function keyValues(attrs: Attributes): ProtoObject[] {
  return Object.entries(attrs).map(([key, value]) => ({ key, value: anyValue(value) }));
}

const hex = (h: string): Buffer => Buffer.from(h, 'hex');

function spanObject(s: Span): ProtoObject {
  return {
    traceId: hex(s.traceId),
    spanId: hex(s.spanId),
    parentSpanId: hex(s.parentSpanId),
    traceState: s.traceState,
    flags: s.flags,
    name: s.name,
    kind: s.kind,
    startTimeUnixNano: s.startTimeUnixNano.toString(),
    endTimeUnixNano: s.endTimeUnixNano.toString(),
    attributes: keyValues(s.attributes),
    events: s.events.map((e) => ({ timeUnixNano: e.timeUnixNano.toString(), name: e.name, attributes: keyValues(e.attributes) })),
    links: s.links.map((l) => ({ traceId: hex(l.traceId), spanId: hex(l.spanId), traceState: l.traceState, attributes: keyValues(l.attributes), flags: l.flags })),
    status: { code: s.status.code, message: s.status.message },
  };
}

/** Protobuf `ExportTraceServiceRequest` bytes for `spans`, grouped by their resource and scope. */
export function encodeSpans(spans: readonly Span[]): Buffer {
  const byResource = new Map<Resource, Map<Scope, Span[]>>();
  for (const s of spans) {
    let scopes = byResource.get(s.resource);
    if (!scopes) byResource.set(s.resource, (scopes = new Map<Scope, Span[]>()));
    let list = scopes.get(s.scope);
    if (!list) scopes.set(s.scope, (list = []));
    list.push(s);
  }
  const request = {
    resourceSpans: [...byResource].map(([resource, scopes]) => ({
      resource: { attributes: keyValues(resource.attributes) },
      scopeSpans: [...scopes].map(([scope, list]) => ({
        scope: { name: scope.name, version: scope.version, attributes: keyValues(scope.attributes) },
        spans: list.map(spanObject),
      })),
    })),
  };
  const T = otlp().types.ExportTraceServiceRequest;
  return Buffer.from(T.encode(T.fromObject(request)).finish());
}

/**
 * Split a trace into `parts` messages: non-root spans spread round-robin, root spans in the last message
 * (the root ends last, so a Collector batch flushes it last).
 */
export function splitTrace(trace: Trace, parts: number): Span[][] {
  const groups: Span[][] = Array.from({ length: parts }, () => []);
  const others = trace.spans.filter((s) => s.parentSpanId !== '');
  others.forEach((s, i) => groups[i % parts]?.push(s));
  groups[parts - 1]?.push(...trace.spans.filter((s) => s.parentSpanId === ''));
  return groups;
}

/** A Kafka message as the Collector's exporter writes it. */
export interface CollectorMessage {
  key: string;
  value: Buffer;
}

/** One message per trace, or `parts` messages per trace. */
export function collectorMessages(traces: readonly Trace[], parts = 1): CollectorMessage[] {
  return traces.flatMap((t) => splitTrace(t, parts).map((spans) => ({ key: t.traceId, value: encodeSpans(spans) })));
}
