/**
 * The subset of the OTLP/JSON `ExportTraceServiceRequest` shape the generator reads and writes
 * (lowerCamelCase field names, hex ids, nanosecond times as decimal strings).
 */
export interface JsonAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  bytesValue?: string;
  arrayValue?: { values?: JsonAnyValue[] };
  kvlistValue?: { values?: JsonKeyValue[] };
}

export interface JsonKeyValue {
  key: string;
  value?: JsonAnyValue;
}

export interface JsonEvent {
  timeUnixNano?: string;
  name?: string;
  attributes?: JsonKeyValue[];
  droppedAttributesCount?: number;
}

export interface JsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  traceState?: string;
  flags?: number;
  name: string;
  kind?: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes?: JsonKeyValue[];
  droppedAttributesCount?: number;
  events?: JsonEvent[];
  droppedEventsCount?: number;
  links?: unknown[];
  droppedLinksCount?: number;
  status?: { code?: number; message?: string };
}

export interface JsonScopeSpans {
  scope?: { name?: string; version?: string; attributes?: JsonKeyValue[] };
  spans: JsonSpan[];
  schemaUrl?: string;
}

export interface JsonResourceSpans {
  resource?: { attributes?: JsonKeyValue[]; droppedAttributesCount?: number };
  scopeSpans: JsonScopeSpans[];
  schemaUrl?: string;
}

export interface JsonTraceRequest {
  resourceSpans: JsonResourceSpans[];
}
