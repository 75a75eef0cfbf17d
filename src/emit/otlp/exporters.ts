/**
 * The official opentelemetry-js OTLP exporters (http/protobuf, http/json, gRPC) for spans, logs and metrics,
 * built from `OtlpSettings`. The wire format, transport retries and `OTEL_EXPORTER_OTLP_*` handling are theirs.
 */
import { Metadata } from '@grpc/grpc-js';
import { OTLPLogExporter as GrpcLogExporter } from '@opentelemetry/exporter-logs-otlp-grpc';
import { OTLPLogExporter as JsonLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as ProtoLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPMetricExporter as GrpcMetricExporter } from '@opentelemetry/exporter-metrics-otlp-grpc';
import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtoMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter as GrpcTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { LogRecordExporter } from '@opentelemetry/sdk-logs';
import type { PushMetricExporter } from '@opentelemetry/sdk-metrics';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { signalUrl, type OtlpSettings, type OtlpSignal } from './settings.js';

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

/** The span exporter for the configured traces protocol. */
export function createSpanExporter(settings: OtlpSettings): SpanExporter {
  switch (settings.protocols.TRACES) {
    case 'grpc':
      return new GrpcTraceExporter(grpcOptions(settings, 'TRACES'));
    case 'http/json':
      return new JsonTraceExporter(httpOptions(settings, 'TRACES'));
    default:
      return new ProtoTraceExporter(httpOptions(settings, 'TRACES'));
  }
}

/** The log record exporter for the configured logs protocol. */
export function createLogExporter(settings: OtlpSettings): LogRecordExporter {
  switch (settings.protocols.LOGS) {
    case 'grpc':
      return new GrpcLogExporter(grpcOptions(settings, 'LOGS'));
    case 'http/json':
      return new JsonLogExporter(httpOptions(settings, 'LOGS'));
    default:
      return new ProtoLogExporter(httpOptions(settings, 'LOGS'));
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
