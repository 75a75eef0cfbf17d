/**
 * The official opentelemetry-js OTLP exporters (http/protobuf, http/json, gRPC) for spans, logs and metrics,
 * built from `OtlpSettings`. The wire format, transport retries and `OTEL_EXPORTER_OTLP_*` handling are theirs.
 */
import { createRequire } from 'node:module';
import type { Metadata } from '@grpc/grpc-js';
import type { LogRecordExporter, ReadableLogRecord } from '@opentelemetry/sdk-logs';
import type { PushMetricExporter } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { otlp } from './descriptor.js';
import { jsonWithDoubles, protobufWithDoubles } from './double-attributes.js';
import { signalUrl, type OtlpSettings, type OtlpSignal } from './export-settings.js';

// The exporter packages (gRPC, protobuf, the metric exporters of every protocol) cost a few hundred ms to load,
// so each is required on first use: a process that exports nothing (offline `extract`, `score`) never loads
// them, and one that exports loads only the protocol it is configured with. They are CommonJS, so a
// synchronous require keeps the factories synchronous.
const require = createRequire(import.meta.url);
type Grpc = typeof import('@grpc/grpc-js');
type ExporterBase = typeof import('@opentelemetry/otlp-exporter-base');
type HttpBase = typeof import('@opentelemetry/otlp-exporter-base/node-http');
type GrpcBase = typeof import('@opentelemetry/otlp-grpc-exporter-base');
type Transformer = typeof import('@opentelemetry/otlp-transformer');
const load = {
  grpc: () => require('@grpc/grpc-js') as Grpc,
  base: () => require('@opentelemetry/otlp-exporter-base') as ExporterBase,
  http: () => require('@opentelemetry/otlp-exporter-base/node-http') as HttpBase,
  grpcBase: () => require('@opentelemetry/otlp-grpc-exporter-base') as GrpcBase,
  transformer: () => require('@opentelemetry/otlp-transformer') as Transformer,
  grpcMetrics: () => require('@opentelemetry/exporter-metrics-otlp-grpc') as typeof import('@opentelemetry/exporter-metrics-otlp-grpc'),
  jsonMetrics: () => require('@opentelemetry/exporter-metrics-otlp-http') as typeof import('@opentelemetry/exporter-metrics-otlp-http'),
  protoMetrics: () => require('@opentelemetry/exporter-metrics-otlp-proto') as typeof import('@opentelemetry/exporter-metrics-otlp-proto'),
};

function httpOptions(settings: OtlpSettings, signal: OtlpSignal): { url?: string; headers?: Record<string, string>; timeoutMillis: number } {
  const url = signalUrl(settings, signal);
  return { ...(url ? { url } : {}), ...(settings.headers ? { headers: settings.headers } : {}), timeoutMillis: settings.timeoutMs };
}

function grpcOptions(settings: OtlpSettings, signal: OtlpSignal): { url?: string; metadata?: Metadata; timeoutMillis: number } {
  const url = signalUrl(settings, signal);
  let metadata: Metadata | undefined;
  if (settings.headers) {
    metadata = new (load.grpc().Metadata)();
    for (const [k, v] of Object.entries(settings.headers)) metadata.set(k.toLowerCase(), v);
  }
  return { ...(url ? { url } : {}), ...(metadata ? { metadata } : {}), timeoutMillis: settings.timeoutMs };
}

// Spans and logs are exported exactly as the official OTLPTraceExporter / OTLPLogExporter classes do (same
// delegates, option conversion, OTEL_EXPORTER_OTLP_* handling, retries and self-metrics component types), except
// that the serializer keeps gen_ai.evaluation.score.value a double (see double-attributes.ts).

/** The span exporter for the configured traces protocol. */
export function createSpanExporter(settings: OtlpSettings): SpanExporter {
  const { OTLPExporterBase } = load.base();
  const { JsonTraceSerializer, ProtobufTraceSerializer, TraceExporterMetricsHelper } = load.transformer();
  switch (settings.protocols.TRACES) {
    case 'grpc': {
      const { createOtlpGrpcExportDelegate, convertLegacyOtlpGrpcOptions } = load.grpcBase();
      return new OTLPExporterBase<ReadableSpan[]>(
        createOtlpGrpcExportDelegate(
          convertLegacyOtlpGrpcOptions(grpcOptions(settings, 'TRACES'), 'TRACES'),
          protobufWithDoubles(ProtobufTraceSerializer, otlp().types.ExportTraceServiceRequest),
          'otlp_grpc_span_exporter',
          TraceExporterMetricsHelper,
          undefined,
          'TraceExportService',
          '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
        ),
      );
    }
    case 'http/json': {
      const { createOtlpHttpExportDelegate, convertLegacyHttpOptions } = load.http();
      return new OTLPExporterBase<ReadableSpan[]>(
        createOtlpHttpExportDelegate(
          convertLegacyHttpOptions(httpOptions(settings, 'TRACES'), 'TRACES', 'v1/traces', { 'Content-Type': 'application/json' }),
          jsonWithDoubles(JsonTraceSerializer),
          'otlp_http_span_exporter',
          TraceExporterMetricsHelper,
          undefined,
        ),
      );
    }
    default: {
      const { createOtlpHttpExportDelegate, convertLegacyHttpOptions } = load.http();
      return new OTLPExporterBase<ReadableSpan[]>(
        createOtlpHttpExportDelegate(
          convertLegacyHttpOptions(httpOptions(settings, 'TRACES'), 'TRACES', 'v1/traces', { 'Content-Type': 'application/x-protobuf' }),
          protobufWithDoubles(ProtobufTraceSerializer, otlp().types.ExportTraceServiceRequest),
          'otlp_http_span_exporter',
          TraceExporterMetricsHelper,
          undefined,
        ),
      );
    }
  }
}

/** The log record exporter for the configured logs protocol. */
export function createLogExporter(settings: OtlpSettings): LogRecordExporter {
  const { OTLPExporterBase } = load.base();
  const { JsonLogsSerializer, ProtobufLogsSerializer, LogsExporterMetricsHelper } = load.transformer();
  switch (settings.protocols.LOGS) {
    case 'grpc': {
      const { createOtlpGrpcExportDelegate, convertLegacyOtlpGrpcOptions } = load.grpcBase();
      return new OTLPExporterBase<ReadableLogRecord[]>(
        createOtlpGrpcExportDelegate(
          convertLegacyOtlpGrpcOptions(grpcOptions(settings, 'LOGS'), 'LOGS'),
          protobufWithDoubles(ProtobufLogsSerializer, otlp().types.ExportLogsServiceRequest),
          'otlp_grpc_log_exporter',
          LogsExporterMetricsHelper,
          undefined,
          'LogsExportService',
          '/opentelemetry.proto.collector.logs.v1.LogsService/Export',
        ),
      );
    }
    case 'http/json': {
      const { createOtlpHttpExportDelegate, convertLegacyHttpOptions } = load.http();
      return new OTLPExporterBase<ReadableLogRecord[]>(
        createOtlpHttpExportDelegate(
          convertLegacyHttpOptions(httpOptions(settings, 'LOGS'), 'LOGS', 'v1/logs', { 'Content-Type': 'application/json' }),
          jsonWithDoubles(JsonLogsSerializer),
          'otlp_http_log_exporter',
          LogsExporterMetricsHelper,
          undefined,
        ),
      );
    }
    default: {
      const { createOtlpHttpExportDelegate, convertLegacyHttpOptions } = load.http();
      return new OTLPExporterBase<ReadableLogRecord[]>(
        createOtlpHttpExportDelegate(
          convertLegacyHttpOptions(httpOptions(settings, 'LOGS'), 'LOGS', 'v1/logs', { 'Content-Type': 'application/x-protobuf' }),
          protobufWithDoubles(ProtobufLogsSerializer, otlp().types.ExportLogsServiceRequest),
          'otlp_http_log_exporter',
          LogsExporterMetricsHelper,
          undefined,
        ),
      );
    }
  }
}

/** The metric exporter for the configured metrics protocol (cumulative temporality, the SDK default). */
export function createMetricExporter(settings: OtlpSettings): PushMetricExporter {
  switch (settings.protocols.METRICS) {
    case 'grpc':
      return new (load.grpcMetrics().OTLPMetricExporter)(grpcOptions(settings, 'METRICS'));
    case 'http/json':
      return new (load.jsonMetrics().OTLPMetricExporter)(httpOptions(settings, 'METRICS'));
    default:
      return new (load.protoMetrics().OTLPMetricExporter)(httpOptions(settings, 'METRICS'));
  }
}
