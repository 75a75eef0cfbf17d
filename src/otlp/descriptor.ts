/**
 * The OTLP protobuf descriptor, loaded once from the committed JSON (`proto/otlp.json`).
 *
 * To regenerate it from the official artifact (io.opentelemetry.proto:opentelemetry-proto, version pinned
 * in scripts/proto/pom.xml):
 *
 *     cd scripts/proto && mvn -q -B generate-resources && node generate.mjs
 *
 * Maven is needed only for that; at runtime only the JSON is read.
 */
import protobuf from 'protobufjs';
import descriptorJson from './proto/otlp.json' with { type: 'json' };

/** The protobufjs root holding the OTLP trace/logs collector services and google.rpc status types. */
export const otlpRoot: protobuf.Root = protobuf.Root.fromJSON(descriptorJson as protobuf.INamespace);

const lookup = (name: string): protobuf.Type => otlpRoot.lookupType(name);

/** Message types used outside the hand-written request decoders (responses, error bodies, gRPC details). */
export const OtlpTypes = {
  ExportTraceServiceRequest: lookup('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest'),
  ExportTraceServiceResponse: lookup('opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse'),
  ExportLogsServiceRequest: lookup('opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest'),
  ExportLogsServiceResponse: lookup('opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse'),
  Status: lookup('google.rpc.Status'),
  RetryInfo: lookup('google.rpc.RetryInfo'),
  BadRequest: lookup('google.rpc.BadRequest'),
} as const;

/** Name → number for an enum of the descriptor, e.g. `SPAN_KIND_SERVER` → 2 (for lenient OTLP/JSON). */
export function enumValues(fullName: string): ReadonlyMap<string, number> {
  const e = otlpRoot.lookupEnum(fullName);
  return new Map(Object.entries(e.values));
}

/** Field name → field number of a message in the descriptor (used to check the hand-written decoders). */
export function fieldNumbers(fullName: string): Record<string, number> {
  const t = lookup(fullName);
  const out: Record<string, number> = {};
  for (const [name, field] of Object.entries(t.fields)) out[name] = field.id;
  return out;
}
