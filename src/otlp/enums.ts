/**
 * Name → number of the OTLP enums the OTLP/JSON decoders accept by name (`SPAN_KIND_SERVER` → 2), read from
 * the committed descriptor JSON (`proto/otlp.json`) without protobufjs: decoding OTLP/JSON needs only these
 * tables, and loading protobufjs and building its reflection root cost more than the whole JSON decode of a
 * small file.
 */
import descriptorJson from './proto/otlp.json' with { type: 'json' };

export interface OtlpEnums {
  readonly spanKind: ReadonlyMap<string, number>;
  readonly statusCode: ReadonlyMap<string, number>;
  readonly severityNumber: ReadonlyMap<string, number>;
}

interface Namespace {
  nested?: Record<string, Namespace>;
  values?: Record<string, number>;
}

/** The values of the enum at dotted `path` in the descriptor; a missing one is a broken descriptor (thrown). */
function enumValues(path: string): ReadonlyMap<string, number> {
  let node: Namespace | undefined = descriptorJson as Namespace;
  for (const name of path.split('.')) node = node?.nested?.[name];
  if (!node?.values) throw new Error(`OTLP descriptor has no enum ${path}`);
  return new Map(Object.entries(node.values));
}

/** The OTLP enum tables, read from the descriptor once, when this module loads (three small maps). */
export const OTLP_ENUMS: OtlpEnums = {
  spanKind: enumValues('opentelemetry.proto.trace.v1.Span.SpanKind'),
  statusCode: enumValues('opentelemetry.proto.trace.v1.Status.StatusCode'),
  severityNumber: enumValues('opentelemetry.proto.logs.v1.SeverityNumber'),
};
