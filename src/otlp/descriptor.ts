/**
 * The OTLP protobuf descriptor, parsed once (on first use) from the committed JSON (`proto/otlp.json`).
 *
 * To regenerate it from the official artifact (io.opentelemetry.proto:opentelemetry-proto, version pinned
 * in scripts/proto/pom.xml):
 *
 *     cd scripts/proto && mvn -q -B generate-resources && node generate.mjs
 *
 * Maven is needed only for that; at runtime only the JSON is read.
 */
import { createRequire } from 'node:module';
import type protobuf from 'protobufjs';
import descriptorJson from './proto/otlp.json' with { type: 'json' };

export interface OtlpDescriptor {
  /** The protobufjs root holding the OTLP trace/logs collector services and google.rpc status types. */
  readonly root: protobuf.Root;
  /** Message types used outside the hand-written request decoders (responses, error bodies, gRPC details). */
  readonly types: {
    readonly ExportTraceServiceRequest: protobuf.Type;
    readonly ExportTraceServiceResponse: protobuf.Type;
    readonly ExportLogsServiceRequest: protobuf.Type;
    readonly ExportLogsServiceResponse: protobuf.Type;
    readonly Status: protobuf.Type;
    readonly RetryInfo: protobuf.Type;
    readonly BadRequest: protobuf.Type;
    readonly AnyValue: protobuf.Type;
  };
}

// protobufjs with its reflection runtime is required on first use: decoding (hand-written, see
// ../ingest/otlp/proto-reader.ts) does not need it, only responses, gRPC details and exporters do.
const require = createRequire(import.meta.url);
const loadProtobuf = (): typeof import('protobufjs') => require('protobufjs') as typeof import('protobufjs');

// Lazily built immutable lookup table: the descriptor is parsed on first use and never changed.
let descriptor: OtlpDescriptor | undefined;

/** The OTLP descriptor (parsed once, on first use). */
export function otlp(): OtlpDescriptor {
  if (descriptor) return descriptor;
  const root = loadProtobuf().Root.fromJSON(descriptorJson as protobuf.INamespace);
  const lookup = (name: string): protobuf.Type => root.lookupType(name);
  descriptor = {
    root,
    types: {
      ExportTraceServiceRequest: lookup('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest'),
      ExportTraceServiceResponse: lookup('opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse'),
      ExportLogsServiceRequest: lookup('opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest'),
      ExportLogsServiceResponse: lookup('opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse'),
      Status: lookup('google.rpc.Status'),
      RetryInfo: lookup('google.rpc.RetryInfo'),
      BadRequest: lookup('google.rpc.BadRequest'),
      AnyValue: lookup('opentelemetry.proto.common.v1.AnyValue'),
    },
  };
  return descriptor;
}

/** Field name → field number of a message in the descriptor (used to check the hand-written decoders). */
export function fieldNumbers(fullName: string): Record<string, number> {
  const t = otlp().root.lookupType(fullName);
  const out: Record<string, number> = {};
  for (const [name, field] of Object.entries(t.fields)) out[name] = field.id;
  return out;
}
