/** Starting OTLP receivers and real OTel exporters against them, for ingest tests. */
import { OTLPTraceExporter as HttpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as HttpProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPTraceExporter as GrpcExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { Metadata, credentials } from '@grpc/grpc-js';
import type { ExportResult } from '@opentelemetry/core';
import type { CompressionAlgorithm } from '@opentelemetry/otlp-exporter-base';

// The exporters' enum value, typed without importing the transitive package at runtime.
const GZIP = 'gzip' as CompressionAlgorithm;
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { createOtlpHttpReceiver } from '../../src/ingest/http/receiver.js';
import { createOtlpGrpcReceiver } from '../../src/ingest/grpc/receiver.js';
import { componentSettings, type ComponentSettings } from '../../src/component.js';
import { OtlpIngest } from '../../src/ingest/otlp/ingest.js';
import { Interner } from '../../src/ingest/otlp/intern.js';
import type { OtlpReceiver } from '../../src/ingest/otlp/receiver.js';
import type { SpanSink } from '../../src/ingest/sink.js';

export const TOKEN = 'test-token-123';

export interface Running {
  http: OtlpReceiver;
  grpc: OtlpReceiver;
  httpUrl: string;
  grpcUrl: string;
  stop(): Promise<void>;
}

/** Settings for an {@link OtlpIngest}: `settings` (default: silent, no-op) plus a fresh interner. */
export function ingestSettings(settings: ComponentSettings = componentSettings()): ComponentSettings & { interner: Interner } {
  return { ...settings, interner: new Interner() };
}

/** An {@link OtlpIngest} offering to `sink`, with a fresh interner (and `settings`, default silent, no-op). */
export function testIngest(sink: SpanSink, settings?: ComponentSettings): OtlpIngest {
  return new OtlpIngest({ sink, settings: ingestSettings(settings) });
}

/** A deadline for `shutdown(deadline)`: `ms` from now. */
export function deadlineIn(ms = 5000): number {
  return Date.now() + ms;
}

/** Both receivers on 127.0.0.1, port 0, with the test bearer token. */
export async function startReceivers(sink: SpanSink, opts: { maxBodyBytes?: number; ready?: () => boolean } = {}): Promise<Running> {
  const settings = componentSettings();
  const ingest = testIngest(sink, settings);
  const http = createOtlpHttpReceiver({ host: '127.0.0.1', port: 0, maxBodyBytes: opts.maxBodyBytes ?? 4 * 1024 * 1024, bearerToken: TOKEN, ingest, settings, isReady: opts.ready ?? (() => true) });
  const grpc = createOtlpGrpcReceiver({ host: '127.0.0.1', port: 0, maxMessageBytes: opts.maxBodyBytes ?? 4 * 1024 * 1024, bearerToken: TOKEN, ingest, settings });
  await http.start();
  await grpc.start();
  return {
    http,
    grpc,
    httpUrl: `http://127.0.0.1:${http.port}`,
    grpcUrl: `http://127.0.0.1:${grpc.port}`,
    async stop() {
      await Promise.all([http.shutdown(deadlineIn()), grpc.shutdown(deadlineIn())]);
    },
  };
}

export type ExporterKind = 'http-json' | 'http-proto' | 'grpc';

/** A real OTel trace exporter of the given kind, pointed at the running receivers. */
export function exporterFor(kind: ExporterKind, r: Running, token = TOKEN): SpanExporter {
  const headers = { authorization: `Bearer ${token}` };
  switch (kind) {
    case 'http-json':
      return new HttpJsonExporter({ url: `${r.httpUrl}/v1/traces`, headers, timeoutMillis: 10_000 });
    case 'http-proto':
      return new HttpProtoExporter({ url: `${r.httpUrl}/v1/traces`, headers, timeoutMillis: 10_000, compression: GZIP });
    case 'grpc': {
      const metadata = new Metadata();
      metadata.set('authorization', `Bearer ${token}`);
      return new GrpcExporter({ url: r.grpcUrl, metadata, credentials: credentials.createInsecure(), timeoutMillis: 10_000, compression: GZIP });
    }
  }
}

/** `exporter.export` as a promise. */
export function exportSpans(exporter: SpanExporter, spans: ReadableSpan[]): Promise<ExportResult> {
  return new Promise((resolve) => exporter.export(spans, resolve));
}
