/**
 * Decodes one Kafka record written by the Collector's Kafka exporter: the value is a whole
 * `ExportTraceServiceRequest`, protobuf (`otlp_proto`) or OTLP/JSON (`otlp_json`). A `content-type`
 * header, when present, wins over the configured encoding.
 */
import { DecodeError } from '../../errors.js';
import { decodeTraceRequestJson } from '../otlp/json-traces.js';
import { decodeTraceRequestProto } from '../otlp/proto-traces.js';
import type { Span } from '../../model/span.js';
import type { Interner } from '../otlp/intern.js';

export type KafkaEncoding = 'otlp_proto' | 'otlp_json';

type Headers = Record<string, Buffer | string | (Buffer | string)[] | undefined>;

/** The encoding named by a `content-type` header, if any. */
function encodingFromHeaders(headers: Headers | undefined): KafkaEncoding | undefined {
  if (!headers) return undefined;
  for (const [name, raw] of Object.entries(headers)) {
    if (name.toLowerCase() !== 'content-type' || raw === undefined) continue;
    const value = (Array.isArray(raw) ? raw[0] : raw)?.toString().toLowerCase() ?? '';
    if (value.includes('protobuf')) return 'otlp_proto';
    if (value.includes('json')) return 'otlp_json';
  }
  return undefined;
}

export interface DecodedMessage {
  spans: Span[];
  rejected: number;
  encoding: KafkaEncoding;
}

/** Decode a record value (short strings shared through `interner`); throws DecodeError for undecodable bytes (a poison message). */
export function decodeKafkaValue(value: Buffer | null, configured: KafkaEncoding, headers: Headers | undefined, interner: Interner): DecodedMessage {
  if (value === null) throw new DecodeError('message has no value (tombstone)');
  const encoding = encodingFromHeaders(headers) ?? configured;
  const result = encoding === 'otlp_json' ? decodeTraceRequestJson(value, interner) : decodeTraceRequestProto(value, interner);
  return { spans: result.spans, rejected: result.rejected, encoding };
}
