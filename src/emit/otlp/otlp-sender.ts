/**
 * Record senders that turn score records into carrier spans or log events and hand them to an official OTLP
 * exporter, mapping its result onto success / retryable / permanent.
 */
import { createRequire } from 'node:module';
import type { ExportResult, InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { LogRecordExporter, ReadableLogRecord } from '@opentelemetry/sdk-logs';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { toCarrierSpan } from '../carrier-span.js';
import { toLogEvent } from '../log-event.js';
import type { RecordSender } from '../buffered-emitter.js';
import type { ScoreRecord } from '../../model/score-record.js';
import type { EmitResult } from '../emitter.js';
import type { OtlpProtocol } from '../../otlp/export-settings.js';

// @opentelemetry/core comes with the exporters, so it is required with them (on the first export): a process
// that exports nothing (offline `extract`, `score`) never loads it.
const require = createRequire(import.meta.url);
const exportResultCode = (): typeof import('@opentelemetry/core').ExportResultCode => (require('@opentelemetry/core') as typeof import('@opentelemetry/core')).ExportResultCode;

/** The instrumentation scope of everything tracejudge emits. */
const TRACEJUDGE_SCOPE: InstrumentationScope = { name: 'tracejudge' };

const HTTP_RETRYABLE: ReadonlySet<number> = new Set([429, 502, 503, 504]);
// CANCELLED, DEADLINE_EXCEEDED, ABORTED, OUT_OF_RANGE, UNAVAILABLE, DATA_LOSS (OTLP spec; RESOURCE_EXHAUSTED only with RetryInfo, which the JS exporter does not surface).
const GRPC_RETRYABLE: ReadonlySet<number> = new Set([1, 4, 10, 11, 14, 15]);

/**
 * Classify an exporter result. The HTTP exporters already retried 429/502/503/504 and network errors within
 * their timeout; an error with a status code outside the retryable set is permanent; anything without a
 * status (refused connection, timeout, concurrency limit) is retryable.
 */
function classifyExportResult(result: ExportResult, protocol: OtlpProtocol): EmitResult {
  if (result.code === exportResultCode().SUCCESS) return { code: 'success' };
  const error = result.error ?? new Error('OTLP export failed');
  const status = (error as { code?: unknown }).code;
  if (typeof status === 'number') {
    const retryable = protocol === 'grpc' ? GRPC_RETRYABLE.has(status) : HTTP_RETRYABLE.has(status);
    const described = new Error(`OTLP ${protocol} export failed with ${protocol === 'grpc' ? 'gRPC status' : 'HTTP'} ${status}: ${error.message}`);
    return retryable ? { code: 'retryable', error: described } : { code: 'permanent', error: described };
  }
  return { code: 'retryable', error };
}

interface ExporterLike<T> {
  export(items: T[], done: (result: ExportResult) => void): void;
  shutdown(): Promise<void>;
}

function exportOnce<T>(exporter: ExporterLike<T>, items: T[]): Promise<ExportResult> {
  return new Promise((resolve) => {
    try {
      exporter.export(items, resolve);
    } catch (err) {
      resolve({ code: exportResultCode().FAILED, error: err instanceof Error ? err : new Error(String(err)) });
    }
  });
}

class OtlpSender<T> implements RecordSender {
  constructor(
    readonly name: string,
    private readonly exporter: ExporterLike<T>,
    private readonly protocol: OtlpProtocol,
    private readonly convert: (record: ScoreRecord) => T,
    readonly destination?: string,
  ) {}

  async send(records: readonly ScoreRecord[]): Promise<EmitResult> {
    return classifyExportResult(await exportOnce(this.exporter, records.map(this.convert)), this.protocol);
  }

  async close(): Promise<void> {
    await this.exporter.shutdown();
  }
}

/** Sends one evaluation carrier span (with its `gen_ai.evaluation.result` event) per record, under `resource`. */
export function createSpanSender(exporter: SpanExporter, protocol: OtlpProtocol, resource: Resource, destination?: string): RecordSender {
  return new OtlpSender<ReadableSpan>('otlp-traces', exporter, protocol, (r) => toCarrierSpan(r, resource, TRACEJUDGE_SCOPE), destination ?? 'the OTLP traces endpoint of OTEL_EXPORTER_OTLP_*');
}

/** Sends one `gen_ai.evaluation.result` log event per record, under `resource`. */
export function createLogSender(exporter: LogRecordExporter, protocol: OtlpProtocol, resource: Resource, destination?: string): RecordSender {
  return new OtlpSender<ReadableLogRecord>('otlp-logs', exporter, protocol, (r) => toLogEvent(r, resource, TRACEJUDGE_SCOPE), destination ?? 'the OTLP logs endpoint of OTEL_EXPORTER_OTLP_*');
}
