/**
 * The official opentelemetry-js OTLP exporters (http/protobuf, http/json, gRPC) for spans, logs and metrics,
 * built from `OtlpSettings`. The wire format, transport retries and `OTEL_EXPORTER_OTLP_*` handling are theirs.
 */
import { Metadata } from '@grpc/grpc-js';
import { OTLPMetricExporter as GrpcMetricExporter } from '@opentelemetry/exporter-metrics-otlp-grpc';
import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtoMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import { convertLegacyOtlpGrpcOptions, createOtlpGrpcExportDelegate } from '@opentelemetry/otlp-grpc-exporter-base';
import {
  JsonLogsSerializer,
  JsonTraceSerializer,
  LogsExporterMetricsHelper,
  ProtobufLogsSerializer,
  ProtobufTraceSerializer,
  TraceExporterMetricsHelper,
} from '@opentelemetry/otlp-transformer';
import type { LogRecordExporter, ReadableLogRecord } from '@opentelemetry/sdk-logs';
import type { PushMetricExporter } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { otlp } from './descriptor.js';
import { jsonWithDoubles, protobufWithDoubles } from './double-attributes.js';
import { signalUrl, type OtlpSettings, type OtlpSignal } from './export-settings.js';

function httpOptions(settings: OtlpSettings, signal: OtlpSignal): { url?: string; headers?: Record<string, string>; timeoutMillis: number } {
  const url = signalUrl(settings, signal);
  return { ...(url ? { url } : {}), ...(settings.headers ? { headers: settings.headers } : {}), timeoutMillis: settings.timeoutMs };
}

function grpcOptions(settings: OtlpSettings, signal: OtlpSignal): { url?: string; metadata?: Metadata; timeoutMillis: number } {
  const url = signalUrl(settings, signal);
  let metadata: Metadata | undefined;
  if (settings.headers) {
    metadata = new Metadata();
    for (const [k, v] of Object.entries(settings.headers)) metadata.set(k.toLowerCase(), v);
  }
  return { ...(url ? { url } : {}), ...(metadata ? { metadata } : {}), timeoutMillis: settings.timeoutMs };
}

// Spans and logs are exported exactly as the official OTLPTraceExporter / OTLPLogExporter classes do (same
// delegates, option conversion, OTEL_EXPORTER_OTLP_* handling, retries and self-metrics component types), except
// that the serializer keeps gen_ai.evaluation.score.value a double (see double-attributes.ts).

/** The span exporter for the configured traces protocol. */
export function createSpanExporter(settings: OtlpSettings): SpanExporter {
  switch (settings.protocols.TRACES) {
    case 'grpc':
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
    case 'http/json':
      return new OTLPExporterBase<ReadableSpan[]>(
        createOtlpHttpExportDelegate(
          convertLegacyHttpOptions(httpOptions(settings, 'TRACES'), 'TRACES', 'v1/traces', { 'Content-Type': 'application/json' }),
          jsonWithDoubles(JsonTraceSerializer),
          'otlp_http_span_exporter',
          TraceExporterMetricsHelper,
          undefined,
        ),
      );
    default:
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

/** The log record exporter for the configured logs protocol. */
export function createLogExporter(settings: OtlpSettings): LogRecordExporter {
  switch (settings.protocols.LOGS) {
    case 'grpc':
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
    case 'http/json':
      return new OTLPExporterBase<ReadableLogRecord[]>(
        createOtlpHttpExportDelegate(
          convertLegacyHttpOptions(httpOptions(settings, 'LOGS'), 'LOGS', 'v1/logs', { 'Content-Type': 'application/json' }),
          jsonWithDoubles(JsonLogsSerializer),
          'otlp_http_log_exporter',
          LogsExporterMetricsHelper,
          undefined,
        ),
      );
    default:
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

/** The metric exporter for the configured metrics protocol (cumulative temporality, the SDK default). */
export function createMetricExporter(settings: OtlpSettings): PushMetricExporter {
  switch (settings.protocols.METRICS) {
    case 'grpc':
      return new GrpcMetricExporter(grpcOptions(settings, 'METRICS'));
    case 'http/json':
      return new JsonMetricExporter(httpOptions(settings, 'METRICS'));
    default:
      return new ProtoMetricExporter(httpOptions(settings, 'METRICS'));
  }
}
